import CImageCodecs
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Vector PDFs (what Xcode asset catalogs hold for scalable images) rasterized by MuPDF.
public enum PDF {
  /// A page rendered, and the page's size in points.
  public struct Rendering: Sendable {
    public var image: RGBAImage
    public var pointsWide: Double
    public var pointsHigh: Double
  }

  /// The first page at `scale` pixels a point, on a transparent background. Refused,
  /// before rendering, when that would be more than ``ImageLimits/maximumPixels``.
  public static func render(_ data: Data, scale: Double) throws(ImageError) -> Rendering {
    var message = [CChar](repeating: 0, count: Int(BOWTIES_MESSAGE_SIZE))
    var pixels: UnsafeMutablePointer<UInt8>?
    var width: UInt32 = 0
    var height: UInt32 = 0
    var pointsWide: Float = 0
    var pointsHigh: Float = 0
    defer { free(pixels) }
    let status = data.withUnsafeBytes { raw in
      bowties_pdf_render(
        raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, Float(scale),
        UInt64(ImageLimits.maximumPixels), &pixels, &width, &height, &pointsWide, &pointsHigh,
        &message)
    }
    guard status == 0, let pixels else { throw .unreadable(.pdf, reason: pdfText(message)) }
    let image = RGBAImage(
      width: Int(width), height: Int(height),
      bytes: [UInt8](UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4)))
    return Rendering(image: image, pointsWide: Double(pointsWide), pointsHigh: Double(pointsHigh))
  }

  private static func pdfText(_ message: [CChar]) -> String {
    let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let text = String(decoding: bytes, as: UTF8.self)
    return text.isEmpty ? "unknown MuPDF error" : text
  }
}
