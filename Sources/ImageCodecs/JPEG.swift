import CImageCodecs
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// JPEG through libjpeg-turbo, with the EXIF orientation read by libexif.
public enum JPEG {
  /// What the header says: the size as stored, and how to turn it upright.
  public struct Header: Equatable, Sendable {
    /// The size as stored, before ``orientation`` is applied.
    public var width: Int
    public var height: Int
    public var orientation: Orientation

    /// The size as the photo is seen, after ``orientation``.
    public var uprightSize: (width: Int, height: Int) {
      orientation.swapsWidthAndHeight ? (height, width) : (width, height)
    }
  }

  /// Reads the header and the EXIF orientation, without decoding the image.
  public static func header(of data: Data) throws(ImageError) -> Header {
    var header = bowties_jpeg_header()
    var message = [CChar](repeating: 0, count: Int(BOWTIES_MESSAGE_SIZE))
    let status = data.withUnsafeBytes { raw in
      bowties_jpeg_read_header(
        raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &header, &message)
    }
    guard status == 0 else { throw .unreadable(.jpeg, reason: text(message)) }
    return Header(
      width: Int(header.width), height: Int(header.height),
      orientation: Orientation(rawValue: Int(header.orientation)) ?? .up)
  }

  /// Decodes every row of the image without keeping it: the whole file is checked, at
  /// the memory cost of one row. Returns the header.
  @discardableResult
  public static func check(_ data: Data) throws(ImageError) -> Header {
    let header = try header(of: data)
    var width: UInt32 = 0
    var height: UInt32 = 0
    try run(data, scaleEighths: 8, pixels: nil, &width, &height)
    return header
  }

  /// Decodes the image upright, as small as it can while still at least `minimum` pixels
  /// in each direction (upright), using libjpeg's DCT scaling (1/8 to 8/8): a 12-megapixel
  /// photo drawn in 100 columns is decoded at an eighth of its size, which skips most of
  /// the work. Without `minimum`, at full size.
  public static func decode(
    _ data: Data, atLeast minimum: (width: Int, height: Int)? = nil
  ) throws(ImageError) -> RGBAImage {
    let header = try header(of: data)
    let eighths = minimum.map { scaleEighths(for: header, atLeast: $0) } ?? 8
    var width: UInt32 = 0
    var height: UInt32 = 0
    var pixels: UnsafeMutablePointer<UInt8>?
    defer { free(pixels) }
    try run(data, scaleEighths: eighths, pixels: &pixels, &width, &height)
    guard let pixels else { throw .unreadable(.jpeg, reason: "no pixels") }
    let count = Int(width) * Int(height) * 4
    let image = RGBAImage(
      width: Int(width), height: Int(height),
      bytes: [UInt8](UnsafeBufferPointer(start: pixels, count: count)))
    return image.oriented(header.orientation)
  }

  /// The smallest scale, in eighths, whose output is at least `minimum` (upright).
  static func scaleEighths(for header: Header, atLeast minimum: (width: Int, height: Int)) -> Int {
    let needed =
      header.orientation.swapsWidthAndHeight ? (minimum.height, minimum.width) : minimum
    for eighths in 1...8 {
      // libjpeg rounds the scaled size up.
      let width = (header.width * eighths + 7) / 8
      let height = (header.height * eighths + 7) / 8
      if width >= needed.0 && height >= needed.1 { return eighths }
    }
    return 8
  }

  private static func run(
    _ data: Data, scaleEighths: Int, pixels: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?,
    _ width: inout UInt32, _ height: inout UInt32
  ) throws(ImageError) {
    var message = [CChar](repeating: 0, count: Int(BOWTIES_MESSAGE_SIZE))
    let limit = UInt64(ImageLimits.maximumJPEGPixels)
    let status = data.withUnsafeBytes { raw in
      bowties_jpeg_decode(
        raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, Int32(scaleEighths),
        limit, pixels, &width, &height, &message)
    }
    guard status == 0 else { throw .unreadable(.jpeg, reason: text(message)) }
    // The scaled image must fit what is held in memory at once.
    if pixels != nil, Int(width) * Int(height) > ImageLimits.maximumPixels {
      free(pixels?.pointee)
      pixels?.pointee = nil
      throw .tooLarge(width: Int(width), height: Int(height))
    }
  }

  static func text(_ message: [CChar]) -> String {
    let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let text = String(decoding: bytes, as: UTF8.self)
    return text.isEmpty ? "unknown libjpeg error" : text
  }
}
