import Foundation
import Testing

@testable import ImageCodecs

/// PDFs rasterized by MuPDF: the asset catalog's vector bow ties, and damaged documents.
@Suite("PDF")
struct PDFTests {
  static let red = Fixture.folder.deletingLastPathComponent()
    .appendingPathComponent("BookProject/BowTies/Assets.xcassets/bowties/red.imageset/red.pdf")

  @Test("a 128-point page at 3× is 384×384 pixels: the tie drawn, the page around it clear")
  func rendering() throws {
    let rendering = try PDF.render(try Data(contentsOf: Self.red), scale: 3)
    #expect(rendering.pointsWide == 128 && rendering.pointsHigh == 128)
    let image = rendering.image
    #expect(image.width == 384 && image.height == 384)
    #expect(image[0, 0].alpha == 0, "transparent where nothing is drawn")
    #expect(image[383, 383].alpha == 0)
    // A wing, well inside its outline: the tie's red (239, 48, 36).
    let wing = image[60, 192]
    #expect(wing.alpha == 255)
    #expect(abs(Int(wing.red) - 239) <= 2 && abs(Int(wing.green) - 48) <= 2)
    // Its edge is anti-aliased: partly transparent pixels, in straight alpha.
    let edge = (0..<384).map { image[$0, 192] }.first { $0.alpha > 0 && $0.alpha < 255 }
    #expect(edge != nil)
  }

  @Test(
    "a damaged PDF is an error with MuPDF's reason", arguments: ["garbage.pdf", "truncated.pdf"])
  func damaged(name: String) throws {
    let data = try Fixture.data("corrupt/\(name)")
    #expect {
      try PDF.render(data, scale: 3)
    } throws: { error in
      guard case .unreadable(.pdf, let reason) = error as? ImageError else { return false }
      return !reason.isEmpty
    }
  }

  @Test("a page too large to rasterize is refused before it is drawn")
  func hugePage() throws {
    var text = try String(contentsOf: Self.red, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "/MediaBox [0 0 128 128]", with: "/MediaBox [0 0 9000 9000]")
    #expect {
      try PDF.render(Data(text.utf8), scale: 3)
    } throws: { error in
      guard case .unreadable(.pdf, let reason) = error as? ImageError else { return false }
      return reason.contains("27000×27000 pixels")
    }
  }
}
