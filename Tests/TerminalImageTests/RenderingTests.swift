import Foundation
import ImageCodecs
import Testing

@testable import TerminalImage

/// The half-block renderer, the 256-color palette and the three protocols' framing.
@Suite("Rendering")
struct RenderingTests {
  let black = RGB(0, 0, 0)

  @Test("palette colors follow xterm's formula")
  func paletteColors() {
    #expect(Palette256.color(16) == RGB(0, 0, 0))
    #expect(Palette256.color(196) == RGB(255, 0, 0))
    #expect(Palette256.color(67) == RGB(95, 135, 175))
    #expect(Palette256.color(231) == RGB(255, 255, 255))
    #expect(Palette256.color(232) == RGB(8, 8, 8))
    #expect(Palette256.color(255) == RGB(238, 238, 238))
  }

  @Test("every palette color maps back to itself")
  func paletteRoundTrip() {
    for index in 16...255 {
      #expect(Palette256.nearest(Palette256.color(index)) == index, "\(index)")
    }
  }

  @Test("the nearest palette color is the one that looks nearest (OKLab), not RGB's")
  func paletteNearest() {
    // Expected values computed separately (Python, OKLab from Ottosson's reference).
    let samples: [(RGB, Int)] = [
      (RGB(239, 48, 36), 196),  // the red tie: red, where RGB distance says orange 202
      (RGB(243, 123, 30), 208),
      (RGB(253, 204, 12), 220),
      (RGB(34, 153, 84), 35),  // RGB distance says 29
      (RGB(29, 112, 196), 25),  // RGB distance says 26
      (RGB(75, 47, 145), 54),
      (RGB(148, 82, 165), 97),
      (RGB(128, 128, 128), 244),
      (RGB(0, 0, 0), 16),
    ]
    for (color, index) in samples {
      #expect(Palette256.nearest(color) == index, "\(color)")
    }
  }

  @Test("half-blocks: upper pixel in the foreground, lower in the background, truecolor")
  func halfBlocksTruecolor() {
    var image = RGBAImage(width: 3, height: 3, filledWith: RGBA(0, 0, 0, 0))
    image[0, 0] = RGBA(255, 0, 0, 255)
    image[0, 1] = RGBA(0, 0, 255, 255)
    image[1, 1] = RGBA(0, 255, 0, 255)
    image[2, 0] = RGBA(255, 0, 0, 255)
    image[0, 2] = RGBA(255, 255, 255, 128)
    let lines = HalfBlockRenderer(depth: .truecolor, background: black).render(image)
    #expect(
      lines == [
        "\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀"  // red over blue
          + "\u{1B}[38;2;0;255;0m\u{1B}[49m▄"  // transparent over green
          + "\u{1B}[38;2;255;0;0m▀"  // red over transparent: same background
          + "\u{1B}[0m",
        // The last, odd row: half-white over black, over nothing.
        "\u{1B}[38;2;128;128;128m▀  \u{1B}[0m",
      ])
  }

  @Test("half-blocks in 256 colors use the nearest palette indexes")
  func halfBlocks256() {
    var image = RGBAImage(width: 2, height: 2, filledWith: RGBA(0, 0, 0, 0))
    image[0, 0] = RGBA(239, 48, 36, 255)
    image[0, 1] = RGBA(128, 128, 128, 255)  // exactly grey 244
    let lines = HalfBlockRenderer(depth: .palette256, background: black).render(image)
    #expect(lines == ["\u{1B}[38;5;196m\u{1B}[48;5;244m▀\u{1B}[49m \u{1B}[0m"])
  }

  @Test("kitty: base64 in chunks of at most 4096 bytes, m=1 until the last, which says m=0")
  func kittyChunks() throws {
    var generator = SplitMix(seed: 7)
    let data = Data((0..<7000).map { _ in generator.byte() })  // 9336 base64 bytes: 3 chunks
    let encoded = KittyGraphics.encode(png: data, columns: 40, rows: 12)
    let chunks = encoded.components(separatedBy: "\u{1B}\\").dropLast()
    #expect(chunks.count == 3)
    #expect(encoded.hasSuffix("\u{1B}\\"))
    var payload = ""
    for (index, chunk) in chunks.enumerated() {
      #expect(chunk.hasPrefix("\u{1B}_G"))
      let body = chunk.dropFirst(3)
      let parts = body.split(separator: ";", maxSplits: 1)
      let keys = String(parts[0])
      let isLast = index == chunks.count - 1
      if index == 0 {
        #expect(keys == "a=T,f=100,q=2,c=40,r=12,m=1")
      } else {
        #expect(keys == (isLast ? "q=2,m=0" : "q=2,m=1"))
      }
      #expect(parts[1].utf8.count <= KittyGraphics.chunkSize)
      if !isLast { #expect(parts[1].utf8.count == KittyGraphics.chunkSize) }
      payload += parts[1]
    }
    #expect(Data(base64Encoded: payload) == data)
    // One chunk is enough for a small image, and it says m=0.
    let small = KittyGraphics.encode(png: Data([1, 2, 3]), columns: 1, rows: 1)
    #expect(small == "\u{1B}_Ga=T,f=100,q=2,c=1,r=1,m=0;AQID\u{1B}\\")
  }

  @Test("iTerm2: OSC 1337 File= with inline=1, the size, the cells, base64, BEL")
  func iTerm() {
    let data = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
    let encoded = ITermInlineImage.encode(png: data, columns: 30, rows: 10)
    #expect(
      encoded
        == "\u{1B}]1337;File=inline=1;size=7;width=30;height=10;preserveAspectRatio=1:"
        + data.base64EncodedString() + "\u{07}")
  }

  @Test("sixel: DCS q with raster attributes, a palette, bands, ST; decodes to the image")
  func sixel() throws {
    var image = RGBAImage(width: 5, height: 8, filledWith: RGBA(0, 0, 0, 0))
    for y in 0..<8 {
      for x in 0..<5 where (x + y) % 3 != 0 {
        image[x, y] = RGBA(UInt8(x * 50), UInt8(y * 30), 200, 255)
      }
    }
    image[4, 7] = RGBA(255, 255, 255, 128)  // half over black: grey 128
    let encoded = Sixel.encode(image, background: black)
    #expect(encoded.hasPrefix("\u{1B}P0;1;0q\"1;1;5;8#0;2;"))
    #expect(encoded.hasSuffix("\u{1B}\\"))
    let decoded = try #require(SixelDecoder.decode(encoded))
    for y in 0..<8 {
      for x in 0..<5 {
        let expected = image[x, y].composited(over: black)
        let got = decoded[y][x]
        if let expected {
          // Few colors: the palette holds each exactly, within the percent rounding.
          let color = try #require(got, "pixel \(x),\(y) unpainted")
          #expect(abs(Int(color.red) - Int(expected.red)) <= 2, "pixel \(x),\(y)")
          #expect(abs(Int(color.green) - Int(expected.green)) <= 2, "pixel \(x),\(y)")
          #expect(abs(Int(color.blue) - Int(expected.blue)) <= 2, "pixel \(x),\(y)")
        } else {
          #expect(got == nil, "pixel \(x),\(y) should show the background")
        }
      }
    }
  }

  @Test("sixel runs: four or more repeats are !count, empty sixels at the end are dropped")
  func sixelRuns() {
    var out: [UInt8] = []
    Sixel.appendRuns([1, 1, 1, 1, 2, 2, 0, 0], to: &out)
    #expect(String(decoding: out, as: UTF8.self) == "!4@AA")
  }

  @Test("median cut keeps few colors exactly and never gives more than asked")
  func medianCut() {
    let few: [RGB?] = [RGB(255, 0, 0), nil, RGB(0, 0, 255), RGB(255, 0, 0), RGB(10, 200, 10)]
    let palette = MedianCutPalette(few)
    #expect(Set(palette.colors) == [RGB(255, 0, 0), RGB(0, 0, 255), RGB(10, 200, 10)])
    #expect(palette.colors[palette.index(of: RGB(0, 0, 255))] == RGB(0, 0, 255))
    var generator = SplitMix(seed: 3)
    let many: [RGB?] = (0..<5000).map { _ in RGB(generator.byte(), generator.byte(), 128) }
    let limited = MedianCutPalette(many, maximumColors: 16)
    #expect(limited.colors.count == 16)
    for color in many.prefix(200) {
      let mapped = limited.colors[limited.index(of: color!)]
      // 16 boxes over a 256×256 square: each within a box of at most about 64 a side.
      #expect(
        abs(Int(mapped.red) - Int(color!.red)) < 80
          && abs(Int(mapped.green) - Int(color!.green)) < 80)
    }
  }
}

/// A deterministic random source, so failures repeat.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 56) }
}

/// Just enough of a sixel reader to check what the encoder wrote: palette definitions
/// (`#n;2;r;g;b` in percent), color selection, runs, `$` and `-`.
enum SixelDecoder {
  static func decode(_ text: String) -> [[RGB?]]? {
    let bytes = Array(text.utf8)
    guard let q = bytes.firstIndex(of: UInt8(ascii: "q")) else { return nil }
    var i = q + 1
    func number() -> Int {
      var value = 0
      while i < bytes.count, (48...57).contains(bytes[i]) {
        value = value * 10 + Int(bytes[i] - 48)
        i += 1
      }
      return value
    }
    var width = 0
    var height = 0
    if bytes[i] == UInt8(ascii: "\"") {
      i += 1
      _ = number()
      i += 1
      _ = number()
      i += 1
      width = number()
      i += 1
      height = number()
    }
    var pixels = [[RGB?]](repeating: [RGB?](repeating: nil, count: width), count: height)
    var palette: [Int: RGB] = [:]
    var current = 0
    var x = 0
    var band = 0
    func paint(_ character: UInt8, _ count: Int) {
      let bits = character - 63
      for _ in 0..<count {
        for row in 0..<6 where bits & (1 << row) != 0 {
          let y = band * 6 + row
          if y < height, x < width { pixels[y][x] = palette[current] }
        }
        x += 1
      }
    }
    while i < bytes.count, bytes[i] != 0x1B {
      let byte = bytes[i]
      switch byte {
      case UInt8(ascii: "#"):
        i += 1
        let register = number()
        if i < bytes.count, bytes[i] == UInt8(ascii: ";") {
          i += 1
          guard number() == 2 else { return nil }
          var channels: [Int] = []
          for _ in 0..<3 {
            i += 1
            channels.append(number())
          }
          func byte(_ percent: Int) -> UInt8 { UInt8((percent * 255 + 50) / 100) }
          palette[register] = RGB(byte(channels[0]), byte(channels[1]), byte(channels[2]))
        } else {
          current = register
        }
      case UInt8(ascii: "$"):
        x = 0
        i += 1
      case UInt8(ascii: "-"):
        x = 0
        band += 1
        i += 1
      case UInt8(ascii: "!"):
        i += 1
        let count = number()
        paint(bytes[i], count)
        i += 1
      case 63...126:
        paint(byte, 1)
        i += 1
      default:
        return nil
      }
    }
    return pixels
  }
}
