import BowTieKit
import BowTieModel
import Foundation
import ImageCodecs
import TerminalImage

#if canImport(Glibc)
  import Glibc
#endif

/// Draws a tie's photo on stdout with its details beside it, as the BowTies app shows a
/// tie: beside when the terminal is wide enough for both, above the details otherwise.
struct PhotoDrawing {
  /// The protocol and colors, from ``TerminalGraphics/detect(environment:outputIsTerminal:override:deviceAttributes:)``.
  var graphics: TerminalGraphics
  /// The terminal's width in cells.
  var columns: Int
  /// The most rows the photo may take.
  var maxRows: Int
  /// A cell's size in pixels, for the kitty, iTerm2 and sixel images.
  var cellWidth: Int
  var cellHeight: Int
  /// What partly transparent pixels are mixed with (see ``TerminalBackground``).
  var background: RGB

  /// Columns between the photo and the details.
  static let gap = 2
  /// Narrower than this beside the details, the photo goes above them instead.
  static let minimumColumnsBeside = 16
  /// About a screenful: 24 rows, 48 pixels of half-blocks.
  static let maximumRows = 24

  /// For stdout: the environment, the window's size (`COLUMNS` first, so a script can fix
  /// the width; then the terminal's; then 80), and detection.
  static func forStandardOutput() -> PhotoDrawing {
    let environment = ProcessInfo.processInfo.environment
    let isTerminal = Terminal.standardOutputIsTerminal
    let asked = Terminal.imageOverride(in: environment)
    let override = asked?.override
    if let asked, override == nil {
      let known = TerminalGraphics.Override.allCases.map(\.rawValue).joined(separator: ", ")
      Terminal.warning("BOWTIES_IMAGE_PROTOCOL=\(asked.name) is not one of \(known); ignored")
    }
    // Asking the terminal is only polite when the user is at it: both ends a terminal.
    let mayAsk = isTerminal && Terminal.standardInputIsTerminal
    let graphics = TerminalGraphics.detect(
      environment: environment, outputIsTerminal: isTerminal, override: override,
      deviceAttributes: { mayAsk ? TerminalQueries.primaryDeviceAttributes() : nil })
    let window = isTerminal ? TerminalQueries.windowSize(of: STDOUT_FILENO) : nil
    let fromEnvironment = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    var maxRows = maximumRows
    if let rows = window?.rows, rows > 0 {
      // Keep the photo and the prompt after it on one screen.
      maxRows = min(maximumRows, max(4, rows - 2))
    }
    return PhotoDrawing(
      graphics: graphics, columns: fromEnvironment ?? window?.columns ?? 80, maxRows: maxRows,
      // Without the terminal's word for it, a common cell: 10×20 pixels.
      cellWidth: window?.cellWidth ?? 10, cellHeight: window?.cellHeight ?? 20,
      background: TerminalBackground.from(environment: environment))
  }

  /// The photo with `details` beside or below it, ready to print; nil (after a warning on
  /// stderr) when the tie has no photo or it cannot be read or decoded.
  func compose(_ tie: BowTie, store: BowTieStore, beside details: [String]) -> String? {
    let data: Data
    do {
      guard let stored = try store.photoData(of: tie) else { return nil }
      data = stored
    } catch {
      Terminal.warning(error.localizedDescription)
      return nil
    }
    do {
      let (maxColumns, _) = box(beside: details)
      // Only what will be drawn is decoded: a phone's JPEG, a few columns wide here, at an
      // eighth of its size (libjpeg's DCT scaling).
      let photo = try ImageDecoder.decode(data) { info in
        let fit = fitting(width: info.width, height: info.height, maxColumns: maxColumns)
        return (fit.pixelWidth, fit.pixelHeight)
      }
      return try compose(photo, details: details)
    } catch {
      Terminal.warning("\(tie.name): its photo cannot be shown: \(error)")
      return nil
    }
  }

  /// The most columns the photo may take beside `details`, and whether it goes beside
  /// them (or, too narrow for that, above them).
  private func box(beside details: [String]) -> (maxColumns: Int, beside: Bool) {
    let detailsWidth = details.map(Terminal.visibleWidth).max() ?? 0
    let besideColumns = columns - detailsWidth - Self.gap
    let beside = besideColumns >= Self.minimumColumnsBeside
    return (beside ? besideColumns : max(1, columns), beside)
  }

  /// The size an image is drawn at: cells of 1×2 pixels for half-blocks, else cells of
  /// the terminal's pixels.
  private func fitting(width: Int, height: Int, maxColumns: Int) -> ImageFit {
    graphics.imageProtocol == .halfBlocks
      ? ImageFit.fitting(width: width, height: height, maxColumns: maxColumns, maxRows: maxRows)
      : ImageFit.fitting(
        width: width, height: height, maxColumns: maxColumns, maxRows: maxRows,
        cellWidth: cellWidth, cellHeight: cellHeight)
  }

  func compose(_ photo: RGBAImage, details: [String]) throws(ImageError) -> String {
    let image = photo.trimmingTransparentMargins()
    let (maxColumns, beside) = box(beside: details)
    let fit = fitting(width: image.width, height: image.height, maxColumns: maxColumns)

    if graphics.imageProtocol == .halfBlocks {
      let scaled = image.resized(width: fit.pixelWidth, height: fit.pixelHeight)
      let lines = HalfBlockRenderer(depth: graphics.depth, background: background).render(scaled)
      guard beside else { return (lines + details).map { $0 + "\n" }.joined() }
      let gap = String(repeating: " ", count: Self.gap)
      let blank = String(repeating: " ", count: fit.columns)
      return (0..<max(lines.count, details.count)).map { row in
        let left = row < lines.count ? lines[row] : blank
        return row < details.count ? left + gap + details[row] + "\n" : left + "\n"
      }.joined()
    }

    let scaled = image.resized(width: fit.pixelWidth, height: fit.pixelHeight)
    let payload: String
    switch graphics.imageProtocol {
    case .kitty:
      payload = KittyGraphics.encode(
        png: try PNG.encode(scaled), columns: fit.columns, rows: fit.rows)
    case .iTerm2:
      payload = ITermInlineImage.encode(
        png: try PNG.encode(scaled), columns: fit.columns, rows: fit.rows)
    case .sixel, .halfBlocks:
      payload = Sixel.encode(scaled, background: background)
    }
    return Self.place(
      payload, rows: fit.rows, columns: fit.columns, details: details, beside: beside)
  }

  /// Puts an image that the terminal draws itself at the cursor, and the details beside
  /// or below it. The image's rows are made first (line feeds scroll the screen if it must),
  /// then the cursor goes back up, is saved (`ESC 7`) while the image is drawn, and
  /// restored (`ESC 8`): each protocol leaves the cursor somewhere else after an image,
  /// and this way it does not matter where.
  static func place(
    _ payload: String, rows: Int, columns: Int, details: [String], beside: Bool
  ) -> String {
    var out = String(repeating: "\n", count: rows) + "\u{1B}[\(rows)A\u{1B}7" + payload + "\u{1B}8"
    if beside {
      for row in 0..<max(rows, details.count) {
        if row < details.count { out += "\u{1B}[\(columns + gap + 1)G" + details[row] }
        out += "\n"
      }
    } else {
      out += String(repeating: "\n", count: rows) + details.map { $0 + "\n" }.joined()
    }
    return out
  }
}
