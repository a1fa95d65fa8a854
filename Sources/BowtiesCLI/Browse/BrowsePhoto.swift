import BowTieKit
import BowTieModel
import Foundation
import ImageCodecs
import TerminalImage

/// A tie's photo drawn for the browse screen, in a box of cells: lines of half-blocks, part
/// of the text, or an image the terminal draws itself (sixel, kitty, iTerm2), placed apart.
enum BrowsePhoto: Equatable {
  case lines([String], columns: Int)
  case image(payload: String, removal: String, columns: Int, rows: Int)

  var columns: Int {
    switch self {
    case .lines(_, let columns), .image(_, _, let columns, _): columns
    }
  }

  /// Draws photos the way `show` does (``PhotoDrawing``: the protocol, the colors, the
  /// cells' size), keeping the last few: moving back and forth between ties draws each
  /// once. ``forget()`` drops them when the store changed, as a photo may have.
  final class Renderer {
    let drawing: PhotoDrawing
    private var cache: [Key: BrowsePhoto] = [:]
    private var order: [Key] = []

    private struct Key: Hashable {
      var tie: UUID
      var columns: Int
      var rows: Int
    }

    init(drawing: PhotoDrawing) {
      self.drawing = drawing
    }

    /// The photo of `tie` fitted in `columns` × `rows` cells; nil without a photo.
    ///
    /// - Throws: what keeps the photo from being read or decoded, for the screen to say.
    func render(_ tie: BowTie, store: BowTieStore, columns: Int, rows: Int) throws -> BrowsePhoto? {
      guard tie.photoByteCount != nil else { return nil }
      let key = Key(tie: tie.id, columns: columns, rows: rows)
      if let cached = cache[key] { return cached }
      guard let data = try store.photoData(of: tie) else { return nil }
      let halfBlocks = drawing.graphics.imageProtocol == .halfBlocks
      func fit(_ width: Int, _ height: Int) -> ImageFit {
        halfBlocks
          ? ImageFit.fitting(width: width, height: height, maxColumns: columns, maxRows: rows)
          : ImageFit.fitting(
            width: width, height: height, maxColumns: columns, maxRows: rows,
            cellWidth: drawing.cellWidth, cellHeight: drawing.cellHeight)
      }
      let decoded = try ImageDecoder.decode(data) { info in
        let fit = fit(info.width, info.height)
        return (fit.pixelWidth, fit.pixelHeight)
      }
      let image = decoded.trimmingTransparentMargins()
      let fitted = fit(image.width, image.height)
      let scaled = image.resized(width: fitted.pixelWidth, height: fitted.pixelHeight)
      let photo: BrowsePhoto
      switch drawing.graphics.imageProtocol {
      case .halfBlocks:
        let lines = HalfBlockRenderer(depth: drawing.graphics.depth, background: drawing.background)
          .render(scaled)
        photo = .lines(lines, columns: fitted.columns)
      case .kitty:
        photo = .image(
          payload: KittyGraphics.encode(
            png: try PNG.encode(scaled), columns: fitted.columns, rows: fitted.rows),
          removal: "\u{1B}_Ga=d,q=2\u{1B}\\", columns: fitted.columns, rows: fitted.rows)
      case .iTerm2:
        photo = .image(
          payload: ITermInlineImage.encode(
            png: try PNG.encode(scaled), columns: fitted.columns, rows: fitted.rows),
          removal: "", columns: fitted.columns, rows: fitted.rows)
      case .sixel:
        photo = .image(
          payload: Sixel.encode(scaled, background: drawing.background), removal: "",
          columns: fitted.columns, rows: fitted.rows)
      }
      cache[key] = photo
      order.append(key)
      if order.count > 16 { cache[order.removeFirst()] = nil }
      return photo
    }

    func forget() {
      cache.removeAll()
      order.removeAll()
    }
  }
}
