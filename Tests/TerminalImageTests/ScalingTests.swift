import Testing

@testable import ImageCodecs
@testable import TerminalImage

/// Area-averaging, alpha and the size an image is drawn at.
@Suite("Scaling and compositing")
struct ScalingTests {
  @Test("each target pixel covers whole-number shares of the source pixels under it")
  func coverage() {
    let threeToTwo = RGBAImage.coverage(source: 3, target: 2)
    #expect(threeToTwo.map(\.first) == [0, 1])
    #expect(threeToTwo.map(\.weights) == [[2, 1], [1, 2]])
    let oneToThree = RGBAImage.coverage(source: 1, target: 3)
    #expect(oneToThree.map(\.first) == [0, 0, 0])
    #expect(oneToThree.map(\.weights) == [[1], [1], [1]])
    for (source, target) in [(128, 47), (47, 128), (1000, 3), (5, 5)] {
      #expect(
        RGBAImage.coverage(source: source, target: target).allSatisfy {
          $0.weights.reduce(0, +) == source
        })
    }
  }

  @Test("a black-and-white checkerboard halves to mid grey, not to black or white")
  func averaging() {
    var board = RGBAImage(width: 4, height: 4, filledWith: RGBA(0, 0, 0, 255))
    for y in 0..<4 {
      for x in 0..<4 where (x + y) % 2 == 0 { board[x, y] = RGBA(255, 255, 255, 255) }
    }
    let half = board.resized(width: 2, height: 2)
    #expect(half.width == 2 && half.height == 2)
    for y in 0..<2 {
      for x in 0..<2 { #expect(half[x, y] == RGBA(128, 128, 128, 255)) }
    }
  }

  @Test("averaging is premultiplied: a transparent pixel's color does not bleed in")
  func premultiplied() {
    var image = RGBAImage(width: 2, height: 1, filledWith: RGBA(255, 0, 0, 0))
    image[1, 0] = RGBA(0, 0, 255, 255)
    #expect(image.resized(width: 1, height: 1)[0, 0] == RGBA(0, 0, 255, 128))
  }

  @Test("a fractional ratio weights the pixel on the boundary by its share")
  func fractional() {
    var image = RGBAImage(width: 3, height: 1, filledWith: RGBA(0, 0, 0, 255))
    image[0, 0] = RGBA(255, 255, 255, 255)
    let scaled = image.resized(width: 2, height: 1)
    // Left: ⅔ white + ⅓ black; right: all black.
    #expect(scaled[0, 0] == RGBA(170, 170, 170, 255))
    #expect(scaled[1, 0] == RGBA(0, 0, 0, 255))
  }

  @Test("scaling up repeats pixels; the same size is the same image")
  func upAndSame() {
    let image = RGBAImage(width: 1, height: 1, filledWith: RGBA(1, 2, 3, 200))
    #expect(
      image.resized(width: 3, height: 2)
        == RGBAImage(width: 3, height: 2, filledWith: RGBA(1, 2, 3, 200)))
    #expect(image.resized(width: 1, height: 1) == image)
  }

  @Test("trimming drops fully transparent margins only")
  func trimming() {
    var image = RGBAImage(width: 5, height: 4, filledWith: RGBA(9, 9, 9, 0))
    image[1, 1] = RGBA(255, 0, 0, 1)
    image[3, 2] = RGBA(0, 255, 0, 255)
    let trimmed = image.trimmingTransparentMargins()
    #expect(trimmed.width == 3 && trimmed.height == 2)
    #expect(trimmed[0, 0] == RGBA(255, 0, 0, 1))
    #expect(trimmed[2, 1] == RGBA(0, 255, 0, 255))
    let empty = RGBAImage(width: 2, height: 2, filledWith: RGBA(0, 0, 0, 0))
    #expect(empty.trimmingTransparentMargins() == empty)
  }

  @Test("alpha is mixed with the background; nearly transparent pixels are left out")
  func compositing() {
    let black = RGB(0, 0, 0)
    let white = RGB(255, 255, 255)
    #expect(RGBA(255, 0, 0, 128).composited(over: black) == RGB(128, 0, 0))
    #expect(RGBA(255, 0, 0, 128).composited(over: white) == RGB(255, 127, 127))
    #expect(RGBA(10, 20, 30, 255).composited(over: white) == RGB(10, 20, 30))
    #expect(RGBA(255, 255, 255, 15).composited(over: black) == nil)
    #expect(RGBA(255, 255, 255, 16).composited(over: black) == RGB(16, 16, 16))
  }

  @Test("the drawn size keeps the proportions inside the box, in half-blocks and in pixels")
  func fitting() {
    // A square in 100×24 cells of half-blocks: 48 pixels tall, so 48 wide, 24 rows.
    #expect(
      ImageFit.fitting(width: 128, height: 128, maxColumns: 100, maxRows: 24)
        == ImageFit(pixelWidth: 48, pixelHeight: 48, columns: 48, rows: 24))
    // The trimmed red tie beside the details at 100 columns: the width decides.
    #expect(
      ImageFit.fitting(width: 124, height: 80, maxColumns: 47, maxRows: 24)
        == ImageFit(pixelWidth: 47, pixelHeight: 30, columns: 47, rows: 15))
    // A tall, thin image: the height decides; an odd pixel height still takes its row.
    #expect(
      ImageFit.fitting(width: 10, height: 100, maxColumns: 80, maxRows: 24)
        == ImageFit(pixelWidth: 5, pixelHeight: 48, columns: 5, rows: 24))
    #expect(
      ImageFit.fitting(width: 30, height: 7, maxColumns: 30, maxRows: 24)
        == ImageFit(pixelWidth: 30, pixelHeight: 7, columns: 30, rows: 4))
    // Cells of 10×20 pixels, for sixel and kitty.
    #expect(
      ImageFit.fitting(
        width: 124, height: 80, maxColumns: 47, maxRows: 24, cellWidth: 10, cellHeight: 20)
        == ImageFit(pixelWidth: 470, pixelHeight: 303, columns: 47, rows: 16))
  }
}
