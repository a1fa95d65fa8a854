import Foundation

/// What a photo's header says: its format and its size as seen (after any EXIF rotation).
public struct ImageInfo: Equatable, Sendable {
  public var format: ImageFormat
  public var width: Int
  public var height: Int

  public init(format: ImageFormat, width: Int, height: Int) {
    self.format = format
    self.width = width
    self.height = height
  }
}

/// Photos as stored: PNG and JPEG, told apart by their bytes.
public enum ImageDecoder {
  /// The format and upright size, from the header alone.
  public static func info(_ data: Data) throws(ImageError) -> ImageInfo {
    switch ImageFormat.sniff(data) {
    case .png:
      let size = try PNG.size(of: data)
      return ImageInfo(format: .png, width: size.width, height: size.height)
    case .jpeg:
      let size = try JPEG.header(of: data).uprightSize
      return ImageInfo(format: .jpeg, width: size.width, height: size.height)
    case let other:
      throw .unsupported(other)
    }
  }

  /// Decodes the whole photo (a JPEG a row at a time, keeping nothing), so that one that
  /// would fail later fails now. Returns what ``info(_:)`` does.
  @discardableResult
  public static func check(_ data: Data) throws(ImageError) -> ImageInfo {
    switch ImageFormat.sniff(data) {
    case .png:
      let image = try PNG.decode(data)
      return ImageInfo(format: .png, width: image.width, height: image.height)
    case .jpeg:
      let size = try JPEG.check(data).uprightSize
      return ImageInfo(format: .jpeg, width: size.width, height: size.height)
    case let other:
      throw .unsupported(other)
    }
  }

  /// The photo upright. `needed` maps its upright size to the pixels that will be used
  /// (for a terminal, far fewer than a phone's photo has): a JPEG is then decoded only
  /// that large, or a little larger. A PNG is always decoded whole.
  public static func decode(
    _ data: Data, needed: ((ImageInfo) -> (width: Int, height: Int))? = nil
  ) throws(ImageError) -> RGBAImage {
    switch ImageFormat.sniff(data) {
    case .png:
      return try PNG.decode(data)
    case .jpeg:
      guard let needed else { return try JPEG.decode(data) }
      let header = try JPEG.header(of: data)
      let size = header.uprightSize
      return try JPEG.decode(
        data, atLeast: needed(ImageInfo(format: .jpeg, width: size.width, height: size.height)))
    case let other:
      throw .unsupported(other)
    }
  }
}
