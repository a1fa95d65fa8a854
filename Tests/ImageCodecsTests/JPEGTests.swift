import Foundation
import Testing

@testable import ImageCodecs

/// The fixtures `scripts/make-photo-fixtures.py` writes.
enum Fixture {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/Photos")

  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: folder.appendingPathComponent(name))
  }
}

/// The upright picture every orientation fixture shows: 48×32, a colored quarter in each
/// corner.
enum Quarters {
  static let topLeft = RGBA(220, 30, 30, 255)
  static let topRight = RGBA(30, 180, 60, 255)
  static let bottomLeft = RGBA(30, 60, 220, 255)
  static let bottomRight = RGBA(240, 210, 20, 255)

  /// Within JPEG's error of `expected`.
  static func close(_ pixel: RGBA, _ expected: RGBA) -> Bool {
    abs(Int(pixel.red) - Int(expected.red)) <= 24
      && abs(Int(pixel.green) - Int(expected.green)) <= 24
      && abs(Int(pixel.blue) - Int(expected.blue)) <= 24 && pixel.alpha == 255
  }

  static func isUpright(_ image: RGBAImage) -> Bool {
    let (w, h) = (image.width, image.height)
    return close(image[w / 8, h / 8], topLeft) && close(image[w - 1 - w / 8, h / 8], topRight)
      && close(image[w / 8, h - 1 - h / 8], bottomLeft)
      && close(image[w - 1 - w / 8, h - 1 - h / 8], bottomRight)
  }
}

/// JPEG through libjpeg-turbo and libexif: every EXIF orientation drawn upright, DCT
/// scaling, and damaged files as errors.
@Suite("JPEG")
struct JPEGTests {
  @Test("each EXIF orientation, 1 to 8, decodes upright", arguments: 1...8)
  func orientation(value: Int) throws {
    let data = try Fixture.data("orientation-\(value).jpg")
    let header = try JPEG.header(of: data)
    #expect(header.orientation.rawValue == value)
    #expect(header.uprightSize == (48, 32))
    let image = try JPEG.decode(data)
    #expect(image.width == 48 && image.height == 32)
    #expect(Quarters.isUpright(image), "orientation \(value)")
    // Scaled down by libjpeg first, then turned: still upright.
    let small = try JPEG.decode(data, atLeast: (12, 8))
    #expect(small.width == 12 && small.height == 8)
    #expect(Quarters.isUpright(small), "orientation \(value), an eighth of its size")
  }

  @Test("a phone's photo: stored landscape, seen portrait, decoded only as large as needed")
  func phone() throws {
    let data = try Fixture.data("phone.jpg")
    let header = try JPEG.header(of: data)
    #expect(header.width == 640 && header.height == 480 && header.orientation == .right)
    let info = try ImageDecoder.info(data)
    #expect(info == ImageInfo(format: .jpeg, width: 480, height: 640))
    // 48×64 needed: an eighth of 480×640 is 60×80, the smallest libjpeg scale that holds it.
    #expect(JPEG.scaleEighths(for: header, atLeast: (48, 64)) == 1)
    #expect(JPEG.scaleEighths(for: header, atLeast: (61, 64)) == 2)
    #expect(JPEG.scaleEighths(for: header, atLeast: (480, 640)) == 8)
    #expect(JPEG.scaleEighths(for: header, atLeast: (4000, 4000)) == 8)
    let scaled = try ImageDecoder.decode(data) { _ in (48, 64) }
    #expect(scaled.width == 60 && scaled.height == 80)
    let whole = try ImageDecoder.decode(data)
    #expect(whole.width == 480 && whole.height == 640)
    #expect(try ImageDecoder.check(data) == info)
  }

  @Test(
    "a damaged JPEG is an error with libjpeg's reason, never grey filler or a crash",
    arguments: ["truncated.jpg", "garbage.jpg"])
  func damaged(name: String) throws {
    let data = try Fixture.data("corrupt/\(name)")
    #expect(ImageFormat.sniff(data) == .jpeg)
    #expect {
      try ImageDecoder.check(data)
    } throws: { error in
      guard case .unreadable(.jpeg, let reason) = error as? ImageError else { return false }
      return !reason.isEmpty
    }
    #expect(throws: ImageError.self) { try JPEG.decode(data) }
  }

  @Test("a truncated JPEG fails wherever it is cut, and its header alone still reads")
  func everyCut() throws {
    let data = try Fixture.data("phone.jpg")
    // The header's end: the first start-of-scan marker.
    let scan = try #require(data.firstRange(of: Data([0xFF, 0xDA])))
    #expect(throws: ImageError.self) { try JPEG.header(of: data.prefix(scan.lowerBound / 2)) }
    for cut in stride(from: scan.upperBound + 200, to: data.count - 2, by: 4_000) {
      #expect(throws: ImageError.self, "cut at \(cut)") { try ImageDecoder.check(data.prefix(cut)) }
    }
  }

  @Test("a damaged EXIF block: the photo still reads, as stored")
  func damagedEXIF() throws {
    // The upright picture, stored as it is, with an orientation of 6 in an EXIF block
    // whose directory offset points past its end.
    let data = try Fixture.data("corrupt/damaged-exif.jpg")
    let header = try JPEG.header(of: data)
    #expect(header.orientation == .up)
    #expect(Quarters.isUpright(try JPEG.decode(data)))
  }
}

/// Telling formats apart by their bytes, and what is said of those bowties cannot read.
@Suite("Image formats")
struct ImageFormatTests {
  @Test("each fixture is recognized for what it is")
  func sniff() throws {
    #expect(ImageFormat.sniff(try Fixture.data("phone.jpg")) == .jpeg)
    #expect(ImageFormat.sniff(try Fixture.data("corrupt/signature-only.png")) == .png)
    #expect(ImageFormat.sniff(try Fixture.data("corrupt/garbage.pdf")) == .pdf)
    #expect(ImageFormat.sniff(try Fixture.data("corrupt/photo.heic")) == .heic)
    #expect(ImageFormat.sniff(try Fixture.data("corrupt/photo.gif")) == .gif)
    #expect(ImageFormat.sniff(Data("hello".utf8)) == nil)
    #expect(ImageFormat.sniff(Data()) == nil)
  }

  @Test("an unsupported format is refused by name")
  func unsupported() throws {
    #expect(throws: ImageError.unsupported(.heic)) {
      try ImageDecoder.check(try Fixture.data("corrupt/photo.heic"))
    }
    #expect(throws: ImageError.unsupported(.gif)) {
      try ImageDecoder.info(try Fixture.data("corrupt/photo.gif"))
    }
    #expect(
      ImageError.unsupported(.heic).description
        == "a HEIC image, which bowties cannot read (PNG and JPEG only)")
  }
}

/// JPEGs as other software writes them.
@Suite("JPEG variants")
struct JPEGVariantTests {
  @Test(
    "progressive, grey and Adobe CMYK JPEGs decode to the same picture",
    arguments: ["progressive.jpg", "grey.jpg", "cmyk.jpg"])
  func variant(name: String) throws {
    let data = try Fixture.data(name)
    let image = try JPEG.decode(data)
    #expect(image.width == 48 && image.height == 32)
    #expect(try ImageDecoder.check(data) == ImageInfo(format: .jpeg, width: 48, height: 32))
    if name == "grey.jpg" {
      // Each quarter's grey: the same red, green and blue.
      let pixel = image[6, 6]
      #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
    } else {
      #expect(Quarters.isUpright(image), "\(name)")
    }
  }
}
