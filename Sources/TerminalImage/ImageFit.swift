/// How big an image is drawn: the largest size that keeps its proportions inside a box of
/// character cells.
public struct ImageFit: Equatable, Sendable {
  /// The size to scale the image to, in pixels.
  public var pixelWidth: Int
  public var pixelHeight: Int
  /// The cells it covers.
  public var columns: Int
  public var rows: Int

  public init(pixelWidth: Int, pixelHeight: Int, columns: Int, rows: Int) {
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.columns = columns
    self.rows = rows
  }

  /// Fits a `width × height` image into `maxColumns × maxRows` cells of
  /// `cellWidth × cellHeight` pixels, scaling up or down. Half-blocks are cells of 1×2
  /// pixels, which is also about the shape of a terminal's cells, so proportions hold.
  public static func fitting(
    width: Int, height: Int, maxColumns: Int, maxRows: Int, cellWidth: Int = 1,
    cellHeight: Int = 2
  ) -> ImageFit {
    precondition(maxColumns > 0 && maxRows > 0 && cellWidth > 0 && cellHeight > 0)
    let boxWidth = maxColumns * cellWidth
    let boxHeight = maxRows * cellHeight
    let imageWidth = max(1, width)
    let imageHeight = max(1, height)
    var pixelWidth: Int
    var pixelHeight: Int
    if imageWidth * boxHeight <= imageHeight * boxWidth {
      // Taller than the box: the height decides.
      pixelHeight = boxHeight
      pixelWidth = (imageWidth * boxHeight + imageHeight / 2) / imageHeight
    } else {
      pixelWidth = boxWidth
      pixelHeight = (imageHeight * boxWidth + imageWidth / 2) / imageWidth
    }
    pixelWidth = min(boxWidth, max(1, pixelWidth))
    pixelHeight = min(boxHeight, max(1, pixelHeight))
    return ImageFit(
      pixelWidth: pixelWidth, pixelHeight: pixelHeight,
      columns: (pixelWidth + cellWidth - 1) / cellWidth,
      rows: (pixelHeight + cellHeight - 1) / cellHeight)
  }
}
