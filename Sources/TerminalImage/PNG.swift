import CLibPNG
import Foundation

/// Why a photo cannot be drawn.
public enum TerminalImageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// libpng refused the data; `reason` is its own message ("Not a PNG file", "IDAT: CRC error"…).
  case unreadablePNG(reason: String)
  /// The PNG is valid but larger than we are willing to decode for a terminal.
  case tooLarge(width: Int, height: Int)
  /// libpng could not write the scaled copy (out of memory).
  case cannotEncode(reason: String)

  public var description: String {
    switch self {
    case .unreadablePNG(let reason): "not a readable PNG image (\(reason))"
    case .tooLarge(let width, let height):
      "the image is \(width)×\(height) pixels, more than \(PNG.maximumPixels / 1_000_000) megapixels"
    case .cannotEncode(let reason): "cannot encode the image (\(reason))"
    }
  }
}

/// PNG through libpng's simplified API: any PNG libpng reads (palette, grey, 16-bit,
/// interlaced, with or without alpha) comes out as 8-bit sRGB ``RGBA``.
public enum PNG {
  /// The largest image decoded: 40 megapixels (160 MB of RGBA). A small PNG can claim a
  /// huge size (a "decompression bomb"); a tie's photo never needs more than this.
  public static let maximumPixels = 40_000_000

  /// Decodes `data`, or throws ``TerminalImageError`` with libpng's reason.
  public static func decode(_ data: Data) throws(TerminalImageError) -> RGBAImage {
    var image = png_image()
    image.version = png_uint_32(bowties_png_image_version)
    defer { png_image_free(&image) }
    let begun = data.withUnsafeBytes { raw in
      png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
    }
    guard begun != 0 else { throw .unreadablePNG(reason: message(of: &image)) }
    let width = Int(image.width)
    let height = Int(image.height)
    guard width * height <= maximumPixels else { throw .tooLarge(width: width, height: height) }
    image.format = png_uint_32(bowties_png_format_rgba)
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    let finished = bytes.withUnsafeMutableBytes { buffer in
      png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(width * 4), nil)
    }
    guard finished != 0 else { throw .unreadablePNG(reason: message(of: &image)) }
    return RGBAImage(width: width, height: height, bytes: bytes)
  }

  /// Encodes `image` as an 8-bit RGBA PNG: what kitty and iTerm2 are sent.
  public static func encode(_ image: RGBAImage) throws(TerminalImageError) -> Data {
    var control = png_image()
    control.version = png_uint_32(bowties_png_image_version)
    control.width = png_uint_32(image.width)
    control.height = png_uint_32(image.height)
    control.format = png_uint_32(bowties_png_format_rgba)
    defer { png_image_free(&control) }
    let stride = png_int_32(image.width * 4)
    let encoded = image.bytes.withUnsafeBytes { pixels -> Data? in
      var size = 0
      // The first call only measures; the second writes.
      guard png_image_write_to_memory(&control, nil, &size, 0, pixels.baseAddress, stride, nil) != 0
      else { return nil }
      var out = Data(count: size)
      let written = out.withUnsafeMutableBytes { buffer in
        png_image_write_to_memory(
          &control, buffer.baseAddress, &size, 0, pixels.baseAddress, stride, nil)
      }
      return written != 0 ? out.prefix(size) : nil
    }
    guard let encoded else { throw .cannotEncode(reason: message(of: &control)) }
    return encoded
  }

  private static func message(of image: inout png_image) -> String {
    let text = withUnsafeBytes(of: &image.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return text.isEmpty ? "unknown libpng error" : text
  }
}
