/// One screenful of a full-screen view: a line of styled text per row, and at most one
/// image that the terminal draws itself (sixel, kitty, iTerm2), with text beside it.
public struct Frame: Equatable, Sendable {
  public var columns: Int
  public var rows: Int
  /// One per row, top to bottom.
  public var lines: [Line]
  public var image: Image?
  /// Where the cursor is shown (a prompt's field); nil keeps it hidden.
  public var cursor: Position?

  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    lines = Array(repeating: Line(), count: rows)
  }

  /// A row's text, drawn from column `start` to the right edge; the columns before it are
  /// left alone (an image is there).
  public struct Line: Equatable, Sendable {
    public var start: Int
    /// Text with SGR attributes (`ESC [ … m`), cut at the right edge when drawn.
    public var text: String

    public init(start: Int = 0, text: String = "") {
      self.start = start
      self.text = text
    }
  }

  /// An image the terminal draws from `payload` at `row` and `column`, over `columns` ×
  /// `rows` cells.
  public struct Image: Equatable, Sendable {
    public var row: Int
    public var column: Int
    public var columns: Int
    public var rows: Int
    public var payload: String
    /// What removes it from the screen, beyond erasing its cells: kitty keeps images apart
    /// from the text and needs them deleted.
    public var removal: String

    public init(
      row: Int, column: Int, columns: Int, rows: Int, payload: String, removal: String = ""
    ) {
      self.row = row
      self.column = column
      self.columns = columns
      self.rows = rows
      self.payload = payload
      self.removal = removal
    }
  }

  public struct Position: Equatable, Sendable {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
      self.row = row
      self.column = column
    }
  }

  /// Sets row `row`'s text, when the row is on the screen.
  public mutating func set(_ row: Int, _ text: String, start: Int = 0) {
    guard lines.indices.contains(row) else { return }
    lines[row] = Line(start: start, text: text)
  }
}

/// Draws frames on a terminal, sending only the rows that changed since the last one, and
/// an image only when it changed: a key press then costs a few short lines, not a screen
/// (and not a sixel image again).
public struct FrameRenderer: Sendable {
  private var previous: Frame?
  public let capabilities: TerminalCapabilities

  public init(capabilities: TerminalCapabilities) {
    self.capabilities = capabilities
  }

  /// Forgets what is on the screen, so the next frame is drawn whole: after a resize, or
  /// anything else that may have drawn on it.
  public mutating func invalidate() { previous = nil }

  /// What to send to turn the screen from the last frame into `frame`.
  public mutating func render(_ frame: Frame) -> String {
    let whole = previous.map { $0.columns != frame.columns || $0.rows != frame.rows } ?? true
    var out = ""
    var redraw = Set<Int>()
    if whole {
      out += (previous?.image?.removal ?? "") + capabilities["sgr0"] + capabilities["clear"]
      redraw = Set(0..<frame.rows)
    }
    if whole || previous?.image != frame.image {
      if !whole, let old = previous?.image {
        out += old.removal
        for row in old.row..<min(old.row + old.rows, frame.rows) {
          out += capabilities.moveCursor(row: row, column: old.column) + capabilities["el"]
          redraw.insert(row)
        }
      }
      if let image = frame.image {
        out += capabilities.moveCursor(row: image.row, column: image.column) + image.payload
        redraw.formUnion(image.row..<min(image.row + image.rows, frame.rows))
      }
    }
    for row in 0..<frame.rows {
      let line = frame.lines[row]
      guard redraw.contains(row) || previous?.lines[row] != line else { continue }
      let width = max(0, frame.columns - line.start)
      let (text, used) = TextCells.clip(line.text, to: width)
      out += capabilities.moveCursor(row: row, column: line.start) + capabilities["sgr0"] + text
      out += capabilities["sgr0"]
      // Only a line that ends short is erased to the edge: after the last column, a
      // terminal waits to wrap, and erasing there would take the last character.
      if used < width { out += capabilities["el"] }
    }
    if let cursor = frame.cursor {
      out += capabilities.moveCursor(row: cursor.row, column: cursor.column) + capabilities["cnorm"]
    } else {
      out += capabilities["civis"]
    }
    previous = frame
    return out
  }
}

/// How many cells text takes on a terminal.
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
