/// How a photo's stored pixels turn upright: the EXIF orientation tag, 1 to 8, as a phone
/// writes it instead of rotating the pixels.
public enum Orientation: Int, Sendable, CaseIterable {
  /// 1: as stored.
  case up = 1
  /// 2: mirrored left to right.
  case upMirrored = 2
  /// 3: turned half a turn.
  case down = 3
  /// 4: mirrored top to bottom.
  case downMirrored = 4
  /// 5: mirrored along the diagonal from the top left (transposed).
  case leftMirrored = 5
  /// 6: to be turned a quarter turn clockwise (a phone held upright).
  case right = 6
  /// 7: mirrored along the other diagonal (transversed).
  case rightMirrored = 7
  /// 8: to be turned a quarter turn counterclockwise.
  case left = 8

  /// Whether the upright photo is as wide as the stored one is high.
  public var swapsWidthAndHeight: Bool { rawValue >= 5 }
}

extension RGBAImage {
  /// The image turned upright as `orientation` says.
  public func oriented(_ orientation: Orientation) -> RGBAImage {
    if orientation == .up { return self }
    let (newWidth, newHeight) = orientation.swapsWidthAndHeight ? (height, width) : (width, height)
    var out = [UInt8](repeating: 0, count: bytes.count)
    let w = width
    let h = height
    bytes.withUnsafeBufferPointer { source in
      out.withUnsafeMutableBufferPointer { target in
        for y in 0..<newHeight {
          for x in 0..<newWidth {
            // Where the upright pixel (x, y) is stored.
            let (sx, sy): (Int, Int)
            switch orientation {
            case .up: (sx, sy) = (x, y)
            case .upMirrored: (sx, sy) = (w - 1 - x, y)
            case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
            case .downMirrored: (sx, sy) = (x, h - 1 - y)
            case .leftMirrored: (sx, sy) = (y, x)
            case .right: (sx, sy) = (y, h - 1 - x)
            case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
            case .left: (sx, sy) = (w - 1 - y, x)
            }
            let from = (sy * w + sx) * 4
            let to = (y * newWidth + x) * 4
            target[to] = source[from]
            target[to + 1] = source[from + 1]
            target[to + 2] = source[from + 2]
            target[to + 3] = source[from + 3]
          }
        }
      }
    }
    return RGBAImage(width: newWidth, height: newHeight, bytes: out)
  }
}
