import Foundation
import Testing

@testable import ImageCodecs

/// Decoding through libpng: sizes, pixel values, and every kind of bad input as a thrown
/// error (never a crash or a message on stderr).
@Suite("PNG")
struct PNGTests {
  /// 3×2 RGBA written by Pillow: red, half-transparent green, transparent blue; then
  /// (10,20,30), white, and black at alpha 64.
  static let rgba = Data(
    base64Encoded:
      "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAH0lEQVR4nAXBsQEAIAzAIObOzt7iaf08gkiWmHOrwvuAZQn0q0wnNgAAAABJRU5ErkJggg=="
  )!
  /// 2×2 palette image with a tRNS chunk: index 0 is (200,100,50), index 1 transparent.
  static let palette = Data(
    base64Encoded:
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACAQMAAABIeJ9nAAAABlBMVEXIZDIAAABuTMSxAAAAAnRSTlP/AOW3MEoAAAAMSURBVHicY3BgcgAAAQgAgxiGi84AAAAASUVORK5CYII="
  )!
  /// 2×1 16-bit grey: 0 and 65535.
  static let grey16 = Data(
    base64Encoded:
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABEAAAAACB2fwVAAAADUlEQVR4nGNgYPj/HwADAgH/5ncLrgAAAABJRU5ErkJggg=="
  )!

  static func sample(_ name: String) throws -> Data {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return try Data(contentsOf: root.appendingPathComponent("images/\(name).png"))
  }

  @Test("an RGBA PNG decodes to its pixels, with straight alpha")
  func rgbaPixels() throws {
    let image = try PNG.decode(Self.rgba)
    #expect(image.width == 3 && image.height == 2)
    #expect(image[0, 0] == RGBA(255, 0, 0, 255))
    #expect(image[1, 0] == RGBA(0, 255, 0, 128))
    #expect(image[2, 0].alpha == 0)
    #expect(image[0, 1] == RGBA(10, 20, 30, 255))
    #expect(image[1, 1] == RGBA(255, 255, 255, 255))
    #expect(image[2, 1] == RGBA(0, 0, 0, 64))
  }

  @Test("a palette PNG with transparency and a 16-bit grey PNG come out as 8-bit RGBA")
  func otherFormats() throws {
    let palette = try PNG.decode(Self.palette)
    #expect(palette.width == 2 && palette.height == 2)
    #expect(palette[0, 0] == RGBA(200, 100, 50, 255))
    #expect(palette[1, 0].alpha == 0)
    #expect(palette[0, 1].alpha == 0)
    #expect(palette[1, 1] == RGBA(200, 100, 50, 255))
    let grey = try PNG.decode(Self.grey16)
    #expect(grey.width == 2 && grey.height == 1)
    #expect(grey[0, 0] == RGBA(0, 0, 0, 255))
    #expect(grey[1, 0] == RGBA(255, 255, 255, 255))
  }

  @Test("the sample red tie: 128×128, transparent corners, known colors, trimmed to its bow")
  func sampleTie() throws {
    let image = try PNG.decode(try Self.sample("red"))
    #expect(image.width == 128 && image.height == 128)
    #expect(image[0, 0].alpha == 0)
    #expect(image[64, 64] == RGBA(199, 46, 37, 255))
    #expect(image[20, 64] == RGBA(234, 53, 41, 255))
    // Pillow's getbbox: (2, 26, 126, 106).
    let trimmed = image.trimmingTransparentMargins()
    #expect(trimmed.width == 124 && trimmed.height == 80)
    #expect(trimmed[62, 38] == image[64, 64])
  }

  @Test("a file that is not a PNG is refused with libpng's reason")
  func notPNG() {
    #expect {
      try PNG.decode(Data("this is not a picture of a bow tie".utf8))
    } throws: { error in
      guard case .unreadable(.png, let reason) = error as? ImageError else { return false }
      return !reason.isEmpty
    }
    #expect(throws: ImageError.self) { try PNG.decode(Data()) }
  }

  @Test("a truncated PNG is refused")
  func truncated() throws {
    let red = try Self.sample("red")
    for length in [8, 33, 60, red.count / 2, red.count - 13] {
      #expect(throws: ImageError.self, "\(length) bytes") {
        try PNG.decode(red.prefix(length))
      }
    }
  }

  @Test("a PNG whose image data fails its CRC is refused, and libpng says CRC")
  func badCRC() throws {
    var red = try Self.sample("red")
    let idat = try #require(red.firstRange(of: Data("IDAT".utf8)))
    let length = red[(idat.lowerBound - 4)..<idat.lowerBound].reduce(0) { $0 << 8 | Int($1) }
    // The CRC that follows the chunk's data.
    red[idat.upperBound + length] ^= 0xFF
    #expect {
      try PNG.decode(red)
    } throws: { error in
      guard case .unreadable(.png, let reason) = error as? ImageError else { return false }
      return reason.localizedCaseInsensitiveContains("CRC")
    }
  }

  @Test("damaged compressed data is refused")
  func damagedData() throws {
    var red = try Self.sample("red")
    let idat = try #require(red.firstRange(of: Data("IDAT".utf8)))
    for offset in 2..<40 { red[idat.upperBound + offset] ^= 0x5A }
    #expect(throws: ImageError.self) { try PNG.decode(red) }
  }

  @Test("a PNG claiming a size past the limit is refused before any pixel is allocated")
  func tooLarge() throws {
    var data = Self.rgba
    // IHDR's width and height, then a new CRC over the chunk type and data.
    let ihdr = 12
    for (offset, value) in [(ihdr + 4, UInt32(20_000)), (ihdr + 8, UInt32(20_000))] {
      withUnsafeBytes(of: value.bigEndian) { data.replaceSubrange(offset..<(offset + 4), with: $0) }
    }
    let crc = crc32(data[ihdr..<(ihdr + 17)])
    withUnsafeBytes(of: crc.bigEndian) { data.replaceSubrange((ihdr + 17)..<(ihdr + 21), with: $0) }
    #expect(throws: ImageError.tooLarge(width: 20_000, height: 20_000)) {
      try PNG.decode(data)
    }
  }

  @Test("what PNG.encode writes, libpng reads back unchanged")
  func roundTrip() throws {
    let image = try PNG.decode(Self.rgba)
    let encoded = try PNG.encode(image)
    #expect(encoded.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    #expect(try PNG.decode(encoded) == image)
  }

  /// PNG's CRC-32 (ISO 3309), for forging a header in the test above.
  private func crc32(_ bytes: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
