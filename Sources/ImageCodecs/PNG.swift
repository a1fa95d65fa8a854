import CLibPNG
import Foundation

/// PNG through libpng's simplified API: any PNG libpng reads (palette, grey, 16-bit,
/// interlaced, with or without alpha) comes out as 8-bit sRGB ``RGBA``.
public enum PNG {
  /// The largest image decoded (see ``ImageLimits/maximumPixels``).
  public static var maximumPixels: Int { ImageLimits.maximumPixels }

  /// The image's size, from its header, without decoding it.
  public static func size(of data: Data) throws(ImageError) -> (width: Int, height: Int) {
    var image = png_image()
    image.version = png_uint_32(bowties_png_image_version)
    defer { png_image_free(&image) }
    let begun = data.withUnsafeBytes { raw in
      png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
    }
    guard begun != 0 else { throw .unreadable(.png, reason: message(of: &image)) }
    return (Int(image.width), Int(image.height))
  }

  /// Decodes `data`, or throws ``ImageError`` with libpng's reason.
  public static func decode(_ data: Data) throws(ImageError) -> RGBAImage {
    var image = png_image()
    image.version = png_uint_32(bowties_png_image_version)
    defer { png_image_free(&image) }
    let begun = data.withUnsafeBytes { raw in
      png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
    }
    guard begun != 0 else { throw .unreadable(.png, reason: message(of: &image)) }
    let width = Int(image.width)
    let height = Int(image.height)
    guard width * height <= maximumPixels else { throw .tooLarge(width: width, height: height) }
    image.format = png_uint_32(bowties_png_format_rgba)
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    let finished = bytes.withUnsafeMutableBytes { buffer in
      png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(width * 4), nil)
    }
    guard finished != 0 else { throw .unreadable(.png, reason: message(of: &image)) }
    return RGBAImage(width: width, height: height, bytes: bytes)
  }

  /// Encodes `image` as an 8-bit RGBA PNG: what kitty and iTerm2 are sent, and what a
  /// PDF photo is stored as.
  public static func encode(_ image: RGBAImage) throws(ImageError) -> Data {
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
