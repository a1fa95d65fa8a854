import TextOutput

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
