import Foundation
import ImageCodecs

/// The formats a tie's photo is stored in: the bytes the user gave, as Core Data's Binary
/// Data attribute keeps them.
public enum PhotoFormat: String, Sendable, Codable, CaseIterable {
  case png, jpeg

  /// "PNG", "JPEG".
  public var name: String { rawValue.uppercased() }

  /// The extension a file of this format is written with.
  public var fileExtension: String { self == .png ? "png" : "jpg" }

  /// Every extension a file of this format may carry, in lowercase.
  public var fileExtensions: [String] { self == .png ? ["png"] : ["jpg", "jpeg", "jpe"] }
}

/// What is known of a stored photo without decoding it again: kept beside it in the store.
public struct PhotoDescription: Equatable, Sendable {
  public var format: PhotoFormat
  /// The size as the photo is seen (a JPEG's EXIF orientation applied), in pixels.
  public var width: Int
  public var height: Int

  public init(format: PhotoFormat, width: Int, height: Int) {
    self.format = format
    self.width = width
    self.height = height
  }

  /// What the header of `data` says, or nil when it is not a PNG or JPEG that can be read.
  public init?(of data: Data) {
    guard let info = try? ImageDecoder.info(data), let format = PhotoFormat(info.format) else {
      return nil
    }
    self.init(format: format, width: info.width, height: info.height)
  }
}

extension PhotoFormat {
  init?(_ format: ImageFormat) {
    switch format {
    case .png: self = .png
    case .jpeg: self = .jpeg
    default: return nil
    }
  }
}

/// Photo bytes that passed ``PhotoIntake/check(_:)``: what is stored, and what it is.
public struct CheckedPhoto: Equatable, Sendable {
  public let data: Data
  public let description: PhotoDescription
}

/// Every photo on its way into the store, from `add` and `edit`, a seed's `imageName`,
/// `photoData` or asset catalog, is decoded whole first: one that does not decode is
/// refused there, not found broken at the next `show`.
public enum PhotoIntake {
  /// A PDF is drawn at three pixels a point, the size an app on a 3× screen shows it at.
  public static let pdfScale = 3.0

  /// Checks `data`: a PNG or JPEG is decoded whole and kept as it is; a PDF (an asset
  /// catalog's vector image) is rasterized into a PNG, as `UIImage.pngData()` would.
  ///
  /// - Parameter pdfScale: pixels per point for a PDF.
  public static func check(_ data: Data, pdfScale: Double = pdfScale) throws(ImageError)
    -> CheckedPhoto
  {
    if ImageFormat.sniff(data) == .pdf {
      let rendering = try PDF.render(data, scale: pdfScale)
      let png = try PNG.encode(rendering.image)
      return CheckedPhoto(
        data: png,
        description: PhotoDescription(
          format: .png, width: rendering.image.width, height: rendering.image.height))
    }
    let info = try ImageDecoder.check(data)
    guard let format = PhotoFormat(info.format) else { throw .unsupported(info.format) }
    return CheckedPhoto(
      data: data,
      description: PhotoDescription(format: format, width: info.width, height: info.height))
  }

  /// Why a photo was refused, in one line; for a format bowties does not read, with a
  /// command that converts `file` into one it does.
  public static func reason(_ error: ImageError, file: String?) -> String {
    guard case .unsupported(let format?) = error else { return error.description }
    let stem = file.map { ($0 as NSString).deletingPathExtension } ?? "photo"
    let input = file ?? "photo.\(format.rawValue)"
    switch format {
    case .heic, .avif:
      // No HEIF decoder in Debian links into the static binary (docs/performance.md, "HEIC").
      return "\(error.description); convert it first: heif-convert \(input) \(stem).jpg"
    default:
      return "\(error.description); convert it first: convert \(input) \(stem).png"
    }
  }
}

extension BowTie {
  /// What is known of the photo: its format and size. Nil without a photo, or for one
  /// that is not a readable PNG or JPEG (stored by another tool, or before photos were
  /// checked).
  public var photoDescription: PhotoDescription? { storedPhotoDescription }

  /// Sets the photo to checked bytes, and what they are.
  public mutating func setPhoto(_ photo: CheckedPhoto?) {
    photoData = photo?.data
    storedPhotoDescription = photo?.description
  }

  /// Takes `stored`'s photo as it is in the store (inline bytes or its external file).
  package mutating func keepPhoto(of stored: BowTie) {
    photoData = stored.photoData
    storedPhotoByteCount = stored.storedPhotoByteCount
    storedPhotoDescription = stored.storedPhotoDescription
    externalPhotoName = stored.externalPhotoName
  }
}
