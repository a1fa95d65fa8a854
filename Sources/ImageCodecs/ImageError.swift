/// Why a photo cannot be read, drawn or encoded.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The library refused the data; `reason` is its own message ("IDAT: CRC error",
  /// "Premature end of JPEG file", "cannot find startxref"…).
  case unreadable(ImageFormat, reason: String)
  /// A format bowties recognizes but does not decode, or (nil) none it recognizes.
  case unsupported(ImageFormat?)
  /// Valid, but larger than we are willing to decode.
  case tooLarge(width: Int, height: Int)
  /// libpng could not write the scaled copy (out of memory).
  case cannotEncode(reason: String)

  public var description: String {
    switch self {
    case .unreadable(let format, let reason):
      "not a readable \(format.name) \(format == .pdf ? "document" : "image") (\(reason))"
    case .unsupported(let format?):
      "\(format.article) \(format.name) image, which bowties cannot read (PNG and JPEG only)"
    case .unsupported(nil):
      "not a PNG or JPEG image (nor a PDF)"
    case .tooLarge(let width, let height):
      "the image is \(width)×\(height) pixels, more than \(ImageLimits.maximumPixels / 1_000_000) megapixels"
    case .cannotEncode(let reason): "cannot encode the image (\(reason))"
    }
  }
}

/// How much bowties decodes at most.
public enum ImageLimits {
  /// The largest image held decoded: 40 megapixels (160 MB of RGBA). A small file can
  /// claim a huge size (a "decompression bomb"); a tie's photo never needs more.
  public static let maximumPixels = 40_000_000
  /// The largest JPEG accepted, at full size: 200 megapixels, more than any phone
  /// takes. A JPEG is checked a row at a time and drawn scaled down while it is decoded
  /// (libjpeg's DCT scaling), so it is never held at this size.
  public static let maximumJPEGPixels = 200_000_000
}
