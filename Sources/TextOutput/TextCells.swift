/// How many cells text takes on a terminal: what lines up the columns of `list` and of a
/// report for people, and what fits a line of `browse` to its screen.
///
/// Counted by Unicode scalar, not by `Character`: a frame's lines are long (a photo in
/// half-blocks is mostly color codes) and grapheme breaking over them cost a key press
/// more than the rest of its frame. A combining mark, a joiner or a variation selector
/// takes no cell, so a character made of several scalars counts as its first.
public enum TextCells {
  /// The cells `scalar` takes: 2 for East Asian wide and fullwidth characters and most
  /// emoji, 0 for control characters and marks that combine with the one before, 1
  /// otherwise.
  public static func width(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x7F { return value < 0x20 ? 0 : 1 }
    if value < 0xA0 { return 0 }
    if value < 0x300 { return 1 }
    if (0x200B...0x200F).contains(value) || (0xFE00...0xFE0F).contains(value) { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    for range in wideRanges where range.contains(value) { return 2 }
    return 1
  }

  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
  ]

  /// The cells `text` takes, its SGR sequences (`ESC [ … m`) taking none.
  public static func width(_ text: String) -> Int {
    clip(text, to: Int.max).used
  }

  /// `text` cut to at most `width` cells, its escape sequences kept whole, and the cells it
  /// then takes.
  public static func clip(_ text: String, to width: Int) -> (text: String, used: Int) {
    let scalars = text.unicodeScalars
    var used = 0
    var inEscape = false
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      if inEscape {
        // An escape sequence ends at its final byte; "[" and "(" only open one.
        if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
      } else if scalar == "\u{1B}" {
        inEscape = true
      } else {
        let cells = Self.width(of: scalar)
        if used + cells > width { return (String(scalars[..<index]), used) }
        used += cells
      }
      index = scalars.index(after: index)
    }
    return (text, used)
  }

  /// `text`, plain, cut to `width` cells with "…" at the end when it did not fit.
  public static func truncate(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    if self.width(text) <= width { return text }
    return clip(text, to: width - 1).text + "…"
  }

  /// The end of `text`, plain, that fits in `width` cells: what a line editor shows of a
  /// line longer than the screen, its cursor at the end.
  public static func tail(_ text: String, to width: Int) -> String {
    let scalars = text.unicodeScalars
    var used = 0
    var start = scalars.endIndex
    while start > scalars.startIndex {
      let before = scalars.index(before: start)
      let cells = Self.width(of: scalars[before])
      if used + cells > width { break }
      used += cells
      start = before
    }
    return String(scalars[start...])
  }

  /// `text` made `width` cells wide: cut, or padded with spaces.
  public static func pad(_ text: String, to width: Int) -> String {
    let (clipped, used) = clip(text, to: width)
    return clipped + String(repeating: " ", count: max(0, width - used))
  }
}
