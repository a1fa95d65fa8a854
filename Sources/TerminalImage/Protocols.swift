import Foundation
import ImageCodecs

/// The kitty graphics protocol (kitty, Ghostty, and others):
/// `ESC _G keys;base64 ESC \`, in chunks.
public enum KittyGraphics {
  /// The protocol's largest payload per escape sequence.
  public static let chunkSize = 4096

  /// Transmits and displays `png` at the cursor, scaled to `columns × rows` cells.
  ///
  /// The base64 payload is cut into chunks of at most 4096 bytes; every chunk but the
  /// last says `m=1` (more follows), the last `m=0`; only the first carries the keys.
  /// `q=2` keeps the terminal from answering on our standard input.
  public static func encode(png: Data, columns: Int, rows: Int) -> String {
    let payload = png.base64EncodedString()
    let bytes = Array(payload.utf8)
    var out = ""
    var start = 0
    repeat {
      let end = min(start + chunkSize, bytes.count)
      let more = end < bytes.count ? 1 : 0
      let keys =
        start == 0 ? "a=T,f=100,q=2,c=\(columns),r=\(rows),m=\(more)" : "q=2,m=\(more)"
      out += "\u{1B}_G\(keys);" + String(decoding: bytes[start..<end], as: UTF8.self) + "\u{1B}\\"
      start = end
    } while start < bytes.count
    return out
  }
}

/// iTerm2's inline images (iTerm2, WezTerm, and others):
/// `ESC ] 1337 ; File=inline=1;… : base64 BEL`.
public enum ITermInlineImage {
  /// Displays `png` at the cursor in a box of `columns × rows` cells.
  public static func encode(png: Data, columns: Int, rows: Int) -> String {
    "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(columns);height=\(rows);"
      + "preserveAspectRatio=1:\(png.base64EncodedString())\u{07}"
  }
}

/// Sixel graphics (xterm `-ti vt340`, mlterm, foot, WezTerm, Windows Terminal…):
/// `ESC P q`, the palette, bands of six pixel rows, `ESC \`.
public enum Sixel {
  /// The registers used: what xterm, mlterm, foot and libsixel's tools offer.
  public static let registerCount = 256

  /// Encodes `image` with at most 256 color registers, chosen for it by
  /// ``MedianCutPalette``.
  ///
  /// Transparent pixels are left unpainted (the `P2=1` parameter), so the terminal's
  /// background shows through; partly transparent ones are mixed with `background`.
  public static func encode(_ image: RGBAImage, background: RGB) -> String {
    let width = image.width
    let height = image.height
    var visible = [RGB?](repeating: nil, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        visible[y * width + x] = image[x, y].composited(over: background)
      }
    }
    let palette = MedianCutPalette(visible, maximumColors: registerCount)
    // Each pixel's register, or -1 for "leave the background".
    let registers = visible.map { color in color.map { Int16(palette.index(of: $0)) } ?? -1 }
    var out = Array("\u{1B}P0;1;0q\"1;1;\(width);\(height)".utf8)
    func percent(_ value: UInt8) -> Int { (Int(value) * 100 + 127) / 255 }
    for (register, color) in palette.colors.enumerated() {
      out += Array(
        "#\(register);2;\(percent(color.red));\(percent(color.green));\(percent(color.blue))".utf8)
    }
    var bandColors = [Bool](repeating: false, count: palette.colors.count)
    var sixels = [UInt8](repeating: 0, count: width)
    for top in stride(from: 0, to: height, by: 6) {
      let bottom = min(top + 6, height)
      for index in bandColors.indices { bandColors[index] = false }
      for y in top..<bottom {
        for x in 0..<width where registers[y * width + x] >= 0 {
          bandColors[Int(registers[y * width + x])] = true
        }
      }
      var firstColor = true
      for register in bandColors.indices where bandColors[register] {
        for x in 0..<width {
          var bits: UInt8 = 0
          for y in top..<bottom where registers[y * width + x] == Int16(register) {
            bits |= 1 << UInt8(y - top)
          }
          sixels[x] = bits
        }
        // "$" returns to the band's start so the next color paints over the same rows.
        if !firstColor { out.append(UInt8(ascii: "$")) }
        firstColor = false
        out += Array("#\(register)".utf8)
        appendRuns(sixels, to: &out)
      }
      // "-" moves down to the next band; none after the last, which would add a band.
      if bottom < height { out.append(UInt8(ascii: "-")) }
    }
    out += Array("\u{1B}\\".utf8)
    return String(decoding: out, as: UTF8.self)
  }

  /// Writes one color's sixels for a band, run-length encoded (`!count char`), without
  /// the trailing empty ones.
  static func appendRuns(_ sixels: [UInt8], to out: inout [UInt8]) {
    let length = (sixels.lastIndex { $0 != 0 } ?? -1) + 1
    var x = 0
    while x < length {
      let bits = sixels[x]
      var run = 1
      while x + run < length, sixels[x + run] == bits { run += 1 }
      let character = 63 + bits
      if run >= 4 {
        out += Array("!\(run)".utf8)
        out.append(character)
      } else {
        out += [UInt8](repeating: character, count: run)
      }
      x += run
    }
  }
}
