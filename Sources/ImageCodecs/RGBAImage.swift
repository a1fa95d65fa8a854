/// An sRGB color without alpha, as a terminal draws it.
public struct RGB: Hashable, Sendable, CustomStringConvertible {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8

  public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  public var description: String { "RGB(\(red), \(green), \(blue))" }
}

/// One pixel: sRGB with straight (not premultiplied) alpha, as libpng delivers it.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8
  public var alpha: UInt8

  public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  public var description: String { "RGBA(\(red), \(green), \(blue), \(alpha))" }

  /// Below this alpha a pixel is left to the terminal's own background (no color at all):
  /// at 15/255 the pixel would change what is behind it by at most 6%, which no one sees,
  /// and leaving it out keeps soft shadows from drawing a box of guessed background.
  public static let visibleAlpha: UInt8 = 16

  /// The color this pixel shows over `background`, or nil when it is transparent enough
  /// to leave the terminal's background showing (see ``visibleAlpha``).
  public func composited(over background: RGB) -> RGB? {
    guard alpha >= Self.visibleAlpha else { return nil }
    if alpha == 255 { return RGB(red, green, blue) }
    let a = Int(alpha)
    func blend(_ value: UInt8, _ under: UInt8) -> UInt8 {
      UInt8((Int(value) * a + Int(under) * (255 - a) + 127) / 255)
    }
    return RGB(
      blend(red, background.red), blend(green, background.green), blend(blue, background.blue))
  }
}

/// A bitmap of ``RGBA`` pixels, rows top to bottom, four bytes a pixel.
public struct RGBAImage: Equatable, Sendable {
  public let width: Int
  public let height: Int
  /// `width × height × 4` bytes: red, green, blue, straight alpha.
  public private(set) var bytes: [UInt8]

  /// - Precondition: `bytes.count == width * height * 4`.
  public init(width: Int, height: Int, bytes: [UInt8]) {
    precondition(width >= 0 && height >= 0 && bytes.count == width * height * 4)
    self.width = width
    self.height = height
    self.bytes = bytes
  }

  /// An image of one color.
  public init(width: Int, height: Int, filledWith pixel: RGBA) {
    let one = [pixel.red, pixel.green, pixel.blue, pixel.alpha]
    self.init(
      width: width, height: height,
      bytes: [UInt8]((0..<(width * height)).lazy.flatMap { _ in one }))
  }

  public subscript(x: Int, y: Int) -> RGBA {
    get {
      let i = (y * width + x) * 4
      return RGBA(bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
    }
    set {
      let i = (y * width + x) * 4
      bytes[i] = newValue.red
      bytes[i + 1] = newValue.green
      bytes[i + 2] = newValue.blue
      bytes[i + 3] = newValue.alpha
    }
  }

  /// The image without its fully transparent margins, so that a photo cut out on a
  /// transparent background fills the cells it is given. A fully transparent image is
  /// returned as it is.
  public func trimmingTransparentMargins() -> RGBAImage {
    var minX = width
    var minY = height
    var maxX = -1
    var maxY = -1
    bytes.withUnsafeBufferPointer { pixels in
      for y in 0..<height {
        var row = y * width * 4 + 3
        for x in 0..<width {
          if pixels[row] != 0 {
            minX = min(minX, x)
            maxX = max(maxX, x)
            minY = min(minY, y)
            maxY = y
          }
          row += 4
        }
      }
    }
    guard maxX >= 0 else { return self }
    if minX == 0, minY == 0, maxX == width - 1, maxY == height - 1 { return self }
    return cropped(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
  }

  /// The rectangle at (`x`, `y`) of the given size, which must lie inside the image.
  public func cropped(x: Int, y: Int, width newWidth: Int, height newHeight: Int) -> RGBAImage {
    precondition(x >= 0 && y >= 0 && x + newWidth <= width && y + newHeight <= height)
    var out = [UInt8]()
    out.reserveCapacity(newWidth * newHeight * 4)
    for row in y..<(y + newHeight) {
      let start = (row * width + x) * 4
      out.append(contentsOf: bytes[start..<(start + newWidth * 4)])
    }
    return RGBAImage(width: newWidth, height: newHeight, bytes: out)
  }

  /// The image scaled to `newWidth × newHeight` by area averaging: each new pixel is the
  /// average of the source area it covers, weighted by how much of each source pixel
  /// falls inside it, so a large photo does not turn to noise when it shrinks to 48
  /// columns. Colors are averaged premultiplied by alpha (a transparent pixel's color
  /// must not bleed into its neighbours' edges). The weights are exact integers and the
  /// sums 64-bit, so every build, debug or release, gives the same bytes.
  public func resized(width newWidth: Int, height newHeight: Int) -> RGBAImage {
    precondition(newWidth > 0 && newHeight > 0)
    if newWidth == width, newHeight == height { return self }
    guard width > 0, height > 0 else {
      return RGBAImage(width: newWidth, height: newHeight, filledWith: RGBA(0, 0, 0, 0))
    }
    let columns = Self.coverage(source: width, target: newWidth)
    let rows = Self.coverage(source: height, target: newHeight)
    // Horizontal pass: per source row and new column, Σ weight·alpha and Σ weight·alpha·color.
    var horizontal = [Int](repeating: 0, count: newWidth * height * 4)
    bytes.withUnsafeBufferPointer { source in
      horizontal.withUnsafeMutableBufferPointer { out in
        for y in 0..<height {
          let rowStart = y * width
          for (newX, span) in columns.enumerated() {
            var alpha = 0
            var red = 0
            var green = 0
            var blue = 0
            for (offset, weight) in span.weights.enumerated() {
              let i = (rowStart + span.first + offset) * 4
              let a = Int(source[i + 3]) * weight
              alpha += a
              red += Int(source[i]) * a
              green += Int(source[i + 1]) * a
              blue += Int(source[i + 2]) * a
            }
            let o = (y * newWidth + newX) * 4
            out[o] = red
            out[o + 1] = green
            out[o + 2] = blue
            out[o + 3] = alpha
          }
        }
      }
    }
    // Vertical pass, then back to straight alpha.
    let area = width * height
    var result = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
    horizontal.withUnsafeBufferPointer { source in
      result.withUnsafeMutableBufferPointer { out in
        for (newY, span) in rows.enumerated() {
          for x in 0..<newWidth {
            var alpha = 0
            var red = 0
            var green = 0
            var blue = 0
            for (offset, weight) in span.weights.enumerated() {
              let i = ((span.first + offset) * newWidth + x) * 4
              red += source[i] * weight
              green += source[i + 1] * weight
              blue += source[i + 2] * weight
              alpha += source[i + 3] * weight
            }
            let o = (newY * newWidth + x) * 4
            out[o + 3] = UInt8(min(255, (alpha + area / 2) / area))
            if alpha > 0 {
              out[o] = UInt8(min(255, (red + alpha / 2) / alpha))
              out[o + 1] = UInt8(min(255, (green + alpha / 2) / alpha))
              out[o + 2] = UInt8(min(255, (blue + alpha / 2) / alpha))
            }
          }
        }
      }
    }
    return RGBAImage(width: newWidth, height: newHeight, bytes: result)
  }

  /// Which source pixels each target pixel covers, and by how much. In units of
  /// 1/`target` of a source pixel, target pixel j covers [j·source, (j+1)·source) and
  /// source pixel i covers [i·target, (i+1)·target): the overlaps are whole numbers, and
  /// each target pixel's weights add up to `source`.
  static func coverage(source: Int, target: Int) -> [(first: Int, weights: [Int])] {
    (0..<target).map { j in
      let start = j * source
      let end = start + source
      let first = start / target
      let last = (end - 1) / target
      let weights = (first...last).map { i in min((i + 1) * target, end) - max(i * target, start) }
      return (first, weights)
    }
  }
}
