import ImageCodecs

/// How many colors a terminal can show.
public enum ColorDepth: String, Sendable, CaseIterable {
  /// 24-bit `38;2;r;g;b` colors.
  case truecolor
  /// The xterm 256-color palette, `38;5;n` (see ``Palette256``).
  case palette256
}

/// Draws an image with "▀" (upper half block) characters: each character cell shows two
/// pixels, the upper one in the foreground color and the lower one in the background
/// color, so an image `w` pixels wide and `h` tall takes `w` columns and `⌈h/2⌉` rows.
///
/// Transparent pixels (see ``RGBA/visibleAlpha``) get no color at all, so the terminal's
/// own background shows there, whatever it is; a cell whose upper pixel is transparent
/// and lower one is not uses "▄" with the lower color as foreground. Partly transparent
/// pixels are mixed with ``background``.
public struct HalfBlockRenderer: Sendable {
  public var depth: ColorDepth
  /// The color partly transparent pixels are laid over (see ``TerminalBackground``).
  public var background: RGB

  public init(depth: ColorDepth, background: RGB) {
    self.depth = depth
    self.background = background
  }

  /// One string per row of cells, each exactly `image.width` cells wide and ending with
  /// the colors reset (`ESC [0m`), without a line break.
  public func render(_ image: RGBAImage) -> [String] {
    var lines: [String] = []
    lines.reserveCapacity((image.height + 1) / 2)
    var line: [UInt8] = []
    line.reserveCapacity(image.width * 24)
    for top in stride(from: 0, to: image.height, by: 2) {
      line.removeAll(keepingCapacity: true)
      var foreground: Paint = .terminalDefault
      var backgroundPaint: Paint = .terminalDefault
      for x in 0..<image.width {
        let upper = paint(image[x, top])
        let lower = top + 1 < image.height ? paint(image[x, top + 1]) : .terminalDefault
        let glyph: [UInt8]
        let wantForeground: Paint
        let wantBackground: Paint
        switch (upper, lower) {
        case (.terminalDefault, .terminalDefault):
          // A space shows only the background; keep whatever foreground is set.
          glyph = Self.space
          wantForeground = foreground
          wantBackground = .terminalDefault
        case (.terminalDefault, _):
          glyph = Self.lowerHalf
          wantForeground = lower
          wantBackground = .terminalDefault
        default:
          glyph = Self.upperHalf
          wantForeground = upper
          wantBackground = lower
        }
        if wantForeground != foreground {
          appendSGR(foreground: wantForeground, to: &line)
          foreground = wantForeground
        }
        if wantBackground != backgroundPaint {
          appendSGR(background: wantBackground, to: &line)
          backgroundPaint = wantBackground
        }
        line.append(contentsOf: glyph)
      }
      line.append(contentsOf: Self.reset)
      lines.append(String(decoding: line, as: UTF8.self))
    }
    return lines
  }

  /// A cell half's color: the terminal's own, or one we set.
  enum Paint: Equatable {
    case terminalDefault
    case rgb(RGB)
    case index(Int)
  }

  func paint(_ pixel: RGBA) -> Paint {
    guard let color = pixel.composited(over: background) else { return .terminalDefault }
    switch depth {
    case .truecolor: return .rgb(color)
    case .palette256: return .index(Palette256.nearest(color))
    }
  }

  private func appendSGR(foreground paint: Paint, to line: inout [UInt8]) {
    switch paint {
    case .terminalDefault: line.append(contentsOf: Self.defaultForeground)
    case .rgb(let color): appendRGB(color, selector: 38, to: &line)
    case .index(let index): appendIndex(index, selector: 38, to: &line)
    }
  }

  private func appendSGR(background paint: Paint, to line: inout [UInt8]) {
    switch paint {
    case .terminalDefault: line.append(contentsOf: Self.defaultBackground)
    case .rgb(let color): appendRGB(color, selector: 48, to: &line)
    case .index(let index): appendIndex(index, selector: 48, to: &line)
    }
  }

  private func appendRGB(_ color: RGB, selector: Int, to line: inout [UInt8]) {
    line.append(contentsOf: Self.csi)
    line.append(contentsOf: Self.decimal[selector])
    line.append(contentsOf: Self.truecolorIntroducer)
    line.append(contentsOf: Self.decimal[Int(color.red)])
    line.append(Self.semicolon)
    line.append(contentsOf: Self.decimal[Int(color.green)])
    line.append(Self.semicolon)
    line.append(contentsOf: Self.decimal[Int(color.blue)])
    line.append(Self.sgrEnd)
  }

  private func appendIndex(_ index: Int, selector: Int, to line: inout [UInt8]) {
    line.append(contentsOf: Self.csi)
    line.append(contentsOf: Self.decimal[selector])
    line.append(contentsOf: Self.paletteIntroducer)
    line.append(contentsOf: Self.decimal[index])
    line.append(Self.sgrEnd)
  }

  // Bytes prepared once, so a row is built without formatting numbers.
  private static let decimal: [[UInt8]] = (0...255).map { Array(String($0).utf8) }
  private static let csi: [UInt8] = [0x1B, 0x5B]
  private static let truecolorIntroducer = Array(";2;".utf8)
  private static let paletteIntroducer = Array(";5;".utf8)
  private static let semicolon = UInt8(ascii: ";")
  private static let sgrEnd = UInt8(ascii: "m")
  private static let defaultForeground = Array("\u{1B}[39m".utf8)
  private static let defaultBackground = Array("\u{1B}[49m".utf8)
  private static let reset = Array("\u{1B}[0m".utf8)
  private static let space: [UInt8] = [0x20]
  private static let upperHalf = Array("▀".utf8)
  private static let lowerHalf = Array("▄".utf8)
}
