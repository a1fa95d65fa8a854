import BowTieModel
import Foundation

/// Where `seed` reads from: the built-in samples, a file, an export folder, or standard
/// input; and which format that is, when it is not said.
public struct SeedInput: Sendable {
  /// A path, `-` for standard input, or nil for the built-in sample ties.
  public var argument: String?
  /// The format, when the user said; else from the file's name or its first character.
  public var format: SeedFile.Format?
  /// Whether photos are read (`--no-photos` says not).
  public var photos = true

  public init(argument: String?, format: SeedFile.Format?, photos: Bool) {
    self.argument = argument
    self.format = format
    self.photos = photos
  }

  /// Reads and checks every entry; nothing is stored.
  public func entries() throws(BowTieError) -> [SeedEntry] {
    guard let argument else { return try SampleData.entries(photos: photos) }
    let currentFolder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    if argument == "-" {
      let data = try InputFile.readDocument(
        .standardInput, named: "standard input", limit: SeedFile.maximumSize
      ) { SeedFile.startsDocument($0, format: format ?? Self.sniff($0)) }
      if ForeignSQLiteFile.kind(of: data.prefix(16)) == .database {
        throw BowTieError.invalidSeedFile(
          source: "standard input",
          reason: "a SQLite database; give its path instead, so that its -wal and its photos "
            + "are read with it")
      }
      return try SeedFile.parse(
        data, source: "standard input",
        images: photos ? .folder(ExportFolder.images(in: currentFolder)) : .skipped,
        format: format ?? Self.sniff(data))
    }
    var file = URL(fileURLWithPath: argument, relativeTo: currentFolder).standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
      throw BowTieError.inputUnreadable(path: argument, reason: "no such file")
    }
    if isDirectory.boolValue {
      // An export folder: its seed file, and images/ beside it. Else the folder an app
      // keeps its Core Data store in, such as Library/Application Support/.
      if let inside = ExportFolder.seedFile(in: file) {
        file = inside
      } else if let entries = try CoreDataStore.entries(
        inFolder: file, argument: argument, photos: photos)
      {
        return entries
      } else {
        throw BowTieError.inputUnreadable(
          path: argument,
          reason: "it is a folder without SampleData.plist, SampleData.json or a SQLite store")
      }
    } else {
      // The app's Core Data store, by its content, whatever its name.
      switch ForeignSQLiteFile.kind(of: file) {
      case .database:
        return try CoreDataStore.entries(at: file, name: argument, photos: photos)
      case .writeAheadLog:
        throw BowTieError.invalidSeedFile(
          source: argument,
          reason: "the -wal file of a SQLite store; give the store itself, the file beside it")
      case .other: break
      }
    }
    // Export writes CSV too, and a round trip through it is the first thing to try.
    if format == nil, file.pathExtension.lowercased() == "csv" {
      throw BowTieError.invalidSeedFile(
        source: argument,
        reason: "seed reads plists, JSON and Core Data stores, not CSV, which export writes "
          + "for spreadsheets (export --format plist or json writes what seed reads back)")
    }
    let handle = try InputFile.open(file.path, named: argument)
    defer { try? handle.close() }
    let isJSON = file.pathExtension.lowercased() == "json"
    func detected(_ data: Data) -> SeedFile.Format { format ?? (isJSON ? .json : Self.sniff(data)) }
    let data = try InputFile.readDocument(handle, named: argument, limit: SeedFile.maximumSize) {
      SeedFile.startsDocument($0, format: detected($0))
    }
    return try SeedFile.parse(
      data, source: argument,
      images: photos ? .folder(ExportFolder.images(beside: file)) : .skipped,
      format: detected(data))
  }

  /// JSON starts with "[" or "{" after white space; anything else is taken for a plist,
  /// which ``SeedFile/parse(_:source:images:format:)`` tells apart as XML or binary.
  static func sniff(_ data: Data) -> SeedFile.Format {
    let first = data.prefix(64).first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    return first == UInt8(ascii: "[") || first == UInt8(ascii: "{") ? .json : .plist
  }
}
