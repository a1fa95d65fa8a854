import Foundation

/// The formats a photo may come in, told apart by their first bytes.
public enum ImageFormat: String, Sendable, CaseIterable {
  case png, jpeg, pdf
  /// Recognized so that the refusal can say what the file is and how to convert it.
  case heic, avif, gif, webp, tiff, bmp

  /// "PNG", "JPEG", "HEIC"…
  public var name: String { rawValue.uppercased() }

  /// "a" or "an", before ``name``.
  var article: String { self == .avif ? "an" : "a" }

  /// The format `data` starts like, or nil.
  public static func sniff(_ data: Data) -> ImageFormat? {
    func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
      data.count >= offset + bytes.count
        && data[(data.startIndex + offset)..<(data.startIndex + offset + bytes.count)]
          .elementsEqual(bytes)
    }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
    // PDF readers accept the header within the first 1024 bytes, as MuPDF does.
    if data.prefix(1024).firstRange(of: Data("%PDF-".utf8)) != nil { return .pdf }
    if starts(Array("GIF8".utf8)) { return .gif }
    if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
    if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
    if starts(Array("BM".utf8)) && data.count >= 26 { return .bmp }
    // An ISO base media file (an "ftyp" box) whose brand is an image: HEIF or AVIF.
    if starts(Array("ftyp".utf8), at: 4), data.count >= 12 {
      let brand = String(
        decoding: data[(data.startIndex + 8)..<(data.startIndex + 12)], as: UTF8.self)
      if ["avif", "avis"].contains(brand) { return .avif }
      if ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) {
        return .heic
      }
    }
    return nil
  }
}
