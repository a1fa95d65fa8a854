import ArgumentParser
import BowTieKit
import Foundation

/// The attributes `add` and `edit` both set.
struct AttributeOptions: ParsableArguments {
  @Option(
    name: .customLong("key"),
    help: ArgumentHelp("A short unique handle such as R (up to 16 characters).", valueName: "key"))
  var searchKey: String?

  @Option(help: ArgumentHelp("#RRGGBB, #RGB, r,g,b or a CSS color name.", valueName: "color"))
  var color: String?

  // Values are taken even when they start with "-", so "-1" gets a clear refusal.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("From 0 to 5, with a dot: 4.5.", valueName: "rating"))
  var rating: String?

  @Option(help: ArgumentHelp("Where to buy it: an absolute URL.", valueName: "url"))
  var url: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("What it cost, with a dot: 19.99.", valueName: "amount"))
  var price: String?

  @Option(help: ArgumentHelp("A PNG photo of the tie.", valueName: "file.png"))
  var photo: String?

  func validate() throws {
    _ = try ExitStatus.validating(values)
  }

  /// The typed values, checked: what a bad value would be refused for, it is refused here.
  func values() throws(BowTieError) -> Values {
    var values = Values()
    values.tintColor = try color.map(TieColor.parse)
    values.rating = try rating.map(BowTie.parseRating)
    values.price = try price.map(BowTie.parsePrice)
    values.url = try url.map(BowTie.parseURL)
    _ = try searchKey.map(BowTie.parseSearchKey)
    return values
  }

  /// Reads the photo file, which must be a PNG image.
  func photoData() throws(BowTieError) -> Data? {
    guard let photo else { return nil }
    return try PhotoFile.read(photo)
  }

  struct Values {
    var tintColor: TieColor?
    var rating: Double?
    var price: Decimal?
    var url: URL?
  }
}

/// Photo files given on the command line.
enum PhotoFile {
  static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

  /// Reads a PNG from a file or a pipe (`<(…)`), refusing anything over the size limit.
  static func read(_ path: String) throws(BowTieError) -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .inputUnreadable(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue else {
      throw .inputUnreadable(path: path, reason: "it is a directory")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw .inputUnreadable(path: path, reason: "permission denied or unreadable")
    }
    defer { try? handle.close() }
    let limit = SeedFile.maximumPhotoSize
    let data: Data
    do {
      data = try handle.read(upToCount: limit + 1) ?? Data()
    } catch {
      throw .inputUnreadable(path: path, reason: "it cannot be read")
    }
    guard data.count <= limit else {
      throw .invalidValue("\(path) is larger than \(limit >> 20) MiB")
    }
    guard data.prefix(8) == pngSignature else { throw .invalidValue("\(path) is not a PNG image") }
    return data
  }
}
