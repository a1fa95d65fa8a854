import BowTieKit
import BowTieModel
import TerminalUI
import TextOutput

/// Lays the browse screen out, as the BowTies app lays out its one screen: a row of
/// segments, one per tie, the selected one marked; the tie's photo beside its details;
/// then the status line and a footer that names the keys.
///
///     ‹ R  O [Y] G  B  I  V  K0  K1 ›      segments, scrolling with the selection
///
///      ▀▀▀▀▀▀▀▀  Yellow Bow Tie           photo (when there is room) and details,
///      ▀▀▀▀▀▀▀▀    Key         Y          as `show` prints them
///      …
///     wore Yellow Bow Tie: …             the last action, or a prompt
///     ←→ tie  / find  w wear  …  q quit  the keys
///
/// Too small for the photo, the details are shown alone; down to 60 × 20 the name and
/// the figures stay on screen.
struct BrowseView {
  var columns: Int
  var rows: Int
  /// Colors (the swatch, the photo): not with `NO_COLOR`. Bold and reverse video are not
  /// colors, and mark the selection either way.
  var color: Bool
  var capabilities: TerminalCapabilities
  /// Draws photos; nil draws none (`NO_COLOR`).
  var photos: BrowsePhoto.Renderer?

  /// Columns between the photo and the details.
  static let gap = 2
  /// Narrower than this, a photo is not worth its room: the details go alone.
  static let minimumPhotoColumns = 16
  static let minimumPhotoRows = 4
  /// The most rows a photo takes, as in `show`.
  static let maximumPhotoRows = 24

  /// The rows above and below the body: segments, a blank row; two message rows, the footer.
  var bodyRows: Int { max(0, rows - 5) }
  var bodyTop: Int { 2 }

  /// The frame for `controller`'s state, and how many segments before the selected one the
  /// row shows.
  func frame(_ controller: BrowseController) -> (frame: Frame, segmentsBefore: Int) {
    var frame = Frame(columns: columns, rows: rows)
    let (segments, shownBefore) = segmentRow(controller)
    frame.set(0, segments)
    var photoProblem: String?
    if controller.mode == .help {
      for (index, line) in Self.help.enumerated() where index < bodyRows {
        frame.set(bodyTop + index, " " + line)
      }
    } else if let tie = controller.window.tie {
      photoProblem = drawTie(tie, store: controller.store, into: &frame)
    } else {
      frame.set(
        bodyTop,
        " No ties in the store: add one with bowties add --name NAME, or the samples with "
          + "bowties seed.")
    }
    drawStatus(controller, photoProblem: photoProblem, into: &frame)
    frame.set(rows - 1, footer())
    return (frame, shownBefore)
  }

  // MARK: - Segments

  /// The row of segments: as many as fit, the selected one kept in view and moved to as
  /// little as the row allows (``BrowseController/segmentsBefore``); ‹ and › say that more
  /// lie beyond an edge.
  func segmentRow(_ controller: BrowseController) -> (String, Int) {
    let window = controller.window
    guard let selected = window.segment else { return ("", 0) }
    func label(_ segment: TieSegment) -> String {
      TextCells.truncate(segment.searchKey.withVisibleControlCharacters, to: 12)
    }
    // Each segment is its label between two cells (spaces, or the selection's brackets),
    // and a space apart from the next; one cell at each end for the arrows.
    let room = columns - 2
    var used = TextCells.width(label(selected)) + 2
    func fits(_ segment: TieSegment) -> Bool {
      used + 1 + TextCells.width(label(segment)) + 2 <= room
    }
    var shownBefore = 0
    let wanted = max(0, min(controller.segmentsBefore, window.before.count))
    for segment in window.before.prefix(wanted) {
      guard fits(segment) else { break }
      used += 1 + TextCells.width(label(segment)) + 2
      shownBefore += 1
    }
    var shownAfter = 0
    for segment in window.after {
      guard fits(segment) else { break }
      used += 1 + TextCells.width(label(segment)) + 2
      shownAfter += 1
    }
    for segment in window.before.dropFirst(shownBefore) {
      guard fits(segment) else { break }
      used += 1 + TextCells.width(label(segment)) + 2
      shownBefore += 1
    }
    let bold = capabilities["bold"]
    let reverse = capabilities["rev"]
    let reset = capabilities["sgr0"]
    var parts = window.before.prefix(shownBefore).reversed().map { " \(label($0)) " }
    parts.append(reverse + bold + "[\(label(selected))]" + reset)
    parts += window.after.prefix(shownAfter).map { " \(label($0)) " }
    let left = shownBefore < window.before.count ? "‹" : " "
    let right = shownAfter < window.after.count ? "›" : " "
    let row = left + parts.joined(separator: " ")
    let padding = String(repeating: " ", count: max(0, columns - 1 - TextCells.width(row)))
    return (row + padding + right, shownBefore)
  }

  // MARK: - The tie

  /// The photo and the details; returns why the photo cannot be shown, if it cannot.
  private func drawTie(_ tie: BowTie, store: BowTieStore, into frame: inout Frame) -> String? {
    let details = TieOutput(json: false, color: color).detailLines(tie)
    let detailsWidth = min(columns - 2, details.map(TextCells.width).max() ?? 0)
    var photo: BrowsePhoto?
    var problem: String?
    let photoColumns = columns - 1 - detailsWidth - Self.gap
    let photoRows = min(bodyRows, Self.maximumPhotoRows)
    if let photos, photoColumns >= Self.minimumPhotoColumns, photoRows >= Self.minimumPhotoRows {
      do {
        photo = try photos.render(tie, store: store, columns: photoColumns, rows: photoRows)
      } catch let error as BowTieError {
        // "Red Bow Tie: photo file … is missing", as show says it.
        problem = error.localizedDescription
      } catch {
        problem = "\(tie.name): its photo cannot be shown: \(error)"
      }
    }
    let detailsStart = photo.map { 1 + $0.columns + Self.gap } ?? 1
    // A value longer than the room left (a long link) ends in "…", so that it is seen to go on.
    let shown = details.map { TextCells.truncate($0, to: columns - detailsStart) }
    switch photo {
    case .lines(let lines, _)?:
      for row in 0..<min(bodyRows, max(lines.count, shown.count)) {
        let left = row < lines.count ? lines[row] : String(repeating: " ", count: photo!.columns)
        let right = row < shown.count ? shown[row] : ""
        frame.set(bodyTop + row, " " + left + String(repeating: " ", count: Self.gap) + right)
      }
    case .image(let payload, let removal, let imageColumns, let imageRows)?:
      frame.image = Frame.Image(
        row: bodyTop, column: 1, columns: imageColumns, rows: imageRows, payload: payload,
        removal: removal)
      for row in 0..<bodyRows {
        frame.set(bodyTop + row, row < shown.count ? shown[row] : "", start: detailsStart)
      }
    case nil:
      for (row, line) in shown.enumerated() where row < bodyRows {
        frame.set(bodyTop + row, " " + line)
      }
    }
    return problem
  }

  // MARK: - Status and footer

  private func drawStatus(
    _ controller: BrowseController, photoProblem: String?, into frame: inout Frame
  ) {
    let bold = capabilities["bold"]
    let reset = capabilities["sgr0"]
    let promptRow = rows - 2
    func prompt(_ question: String, _ field: String, refusal: String?) {
      if let refusal {
        frame.set(promptRow - 1, " " + bold + refusal.withVisibleControlCharacters + reset)
      }
      var text = " " + question + field.withVisibleControlCharacters
      // What is typed, and the cursor after it, stay in sight: the question gives way.
      if TextCells.width(text) > columns - 1, columns > 2 {
        text = "…" + TextCells.tail(text, to: columns - 2)
      }
      frame.set(promptRow, text)
      frame.cursor = Frame.Position(row: promptRow, column: min(columns - 1, TextCells.width(text)))
    }
    switch controller.mode {
    case .rating(_, let field, let refusal):
      let now =
        controller.window.tie.map { " (0 to 5, now \(BowTie.formatRating($0.rating)))" } ?? ""
      let name = controller.window.tie?.name.withVisibleControlCharacters ?? "the tie"
      prompt("Rating for \(name)\(now): ", field, refusal: refusal)
    case .finding(let field, let refusal):
      prompt("Find a tie (a key, a name or its start, an id): ", field, refusal: refusal)
    case .help:
      frame.set(promptRow, " Any key closes this help.")
    case .main:
      if let message = controller.message ?? photoProblem {
        frame.set(promptRow, " " + message.withVisibleControlCharacters)
      }
    }
  }

  /// The keys, as many as fit: in full, then shorter, then cut.
  func footer() -> String {
    let bold = capabilities["bold"]
    let reset = capabilities["sgr0"]
    let forms: [[(String, String)]] = [
      [
        ("←→", "tie"), ("Home/End", "first/last"), ("/", "find"), ("w", "wear"), ("r", "rate"),
        ("f", "favorite"), ("u", "undo"), ("?", "help"), ("q", "quit"),
      ],
      [
        ("←→", "tie"), ("/", "find"), ("w", "wear"), ("r", "rate"), ("f", "favorite"),
        ("u", "undo"), ("?", "help"), ("q", "quit"),
      ],
      [
        ("←→", "tie"), ("/", "find"), ("w", "wear"), ("r", "rate"), ("f", "fav"), ("u", "undo"),
        ("?", "help"), ("q", "quit"),
      ],
    ]
    for (index, items) in forms.enumerated() {
      let separator = index == forms.count - 1 ? " " : "  "
      let plain = " " + items.map { "\($0.0) \($0.1)" }.joined(separator: separator)
      if TextCells.width(plain) <= columns || index == forms.count - 1 {
        return " " + items.map { bold + $0.0 + reset + " " + $0.1 }.joined(separator: separator)
      }
    }
    return ""
  }

  static let help = [
    "Keys",
    "",
    "  ← →  Tab  Shift-Tab  the tie before, the tie after",
    "  Home  End            the first tie, the last",
    "  /                    find a tie: a key (R), a name or its start, an id",
    "  w                    wear it, now",
    "  r                    rate it, from 0 to 5",
    "  f                    mark it a favorite, or no longer",
    "  u                    undo your last change",
    "  ?                    this help",
    "  q  Esc               quit",
    "  Ctrl-Z               suspend to the shell (fg comes back)",
  ]
}
