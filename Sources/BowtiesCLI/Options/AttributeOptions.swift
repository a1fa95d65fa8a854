import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

/// The attributes `add` and `edit` both set.
struct AttributeOptions: ParsableArguments {
  @Option(
    name: .customLong("key"),
    help: ArgumentHelp("A short unique handle such as R (up to 16 characters).", valueName: "key"))
  var searchKey: SearchKeyArgument?

  @Option(
    help: ArgumentHelp(
      "#RRGGBB, #RRGGBBAA (with opacity), #RGB, r,g,b or a CSS color name.", valueName: "color"))
  var color: TieColor?

  // Values are taken even when they start with "-", so "-1" gets a clear refusal.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("From 0 to 5, with a dot: 4.5.", valueName: "rating"))
  var rating: RatingArgument?

  @Option(
    help: ArgumentHelp("Where to buy it: an absolute URL.", valueName: "url"))
  var url: URLArgument?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "What it cost, with a dot, and its ISO 4217 currency: \"19.99 EUR\". Without a "
        + "currency, LC_MONETARY's (US dollars in the C locale).",
      valueName: "amount"))
  var price: PriceArgument?

  @Option(
    help: ArgumentHelp(
      "A photo of the tie: PNG or JPEG, stored as it is (a PDF is rasterized into a PNG); "
        + "- reads it from standard input.",
      valueName: "file"),
    completion: .file())
  var photo: String?

  func validate() throws {
    try ValidationError.checkPath(photo, named: "--photo")
  }

  /// Reads and checks the photo file.
  func checkedPhoto() throws(BowTieError) -> CheckedPhoto? {
    guard let photo else { return nil }
    return try PhotoFile.read(photo)
  }
}

/// Photo files given on the command line.
enum PhotoFile {
  /// Reads a photo from a file or a pipe (`<(…)`), refusing anything over the size limit,
  /// and decodes it whole: a file that is no usable photo is refused here (exit 66), not
  /// stored to fail at the next `show`.
  static func read(_ path: String) throws(BowTieError) -> CheckedPhoto {
    if path == "-" {
      // As `photo --output -` refuses to write to one: a photo is not typed in.
      guard !Terminal.standardInputIsTerminal else {
        throw .usage("not reading a photo from a terminal: redirect stdin, or give a file")
      }
      return try check(FileHandle.standardInput, named: "standard input")
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .inputUnreadable(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue else {
      throw .inputUnreadable(path: path, reason: "it is a directory")
    }
    let handle = try InputFile.open(path, named: path)
    defer { try? handle.close() }
    return try check(handle, named: path)
  }

  private static func check(_ handle: FileHandle, named name: String) throws(BowTieError)
    -> CheckedPhoto
  {
    let limit = SeedFile.maximumPhotoSize
    let data = try InputFile.read(handle, named: name, upTo: limit + 1)
    guard data.count <= limit else {
      throw .inputUnreadable(path: name, reason: "it is larger than \(limit >> 20) MiB")
    }
    do {
      return try PhotoIntake.check(data)
    } catch {
      throw .inputUnreadable(
        path: name, reason: PhotoIntake.reason(error, file: name))
    }
  }
}
