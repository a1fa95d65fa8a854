import BowTieModel
import Foundation

/// The folder `export --output DIR` writes and `seed DIR` reads back: the seed file, and
/// beside it `images/`, holding the photos its `imageName`s name.
public enum ExportFolder {
  /// The seed files `seed DIR` looks for inside a folder, in this order.
  static let seedFileNames = ["SampleData.plist", "SampleData.json"]

  /// The name of the file an export of `format` writes inside the folder.
  static func fileName(for format: ExportFormat) -> String {
    switch format {
    case .plist: "SampleData.plist"
    case .json: "SampleData.json"
    case .csv: "BowTies.csv"
    }
  }

  /// The folder photos named by `imageName` are read from: `images/` beside the seed file
  /// at `file`.
  public static func images(beside file: URL) -> URL {
    images(in: file.deletingLastPathComponent())
  }

  /// The `images/` folder inside `folder`: an export folder's, or, for a seed read from
  /// standard input, the current folder's.
  public static func images(in folder: URL) -> URL {
    folder.appendingPathComponent("images", isDirectory: true)
  }

  /// The seed file an export folder holds, or nil when it holds none.
  static func seedFile(in folder: URL) -> URL? {
    seedFileNames.map { folder.appendingPathComponent($0) }
      .first { FileManager.default.fileExists(atPath: $0.path) }
  }

  /// Whether `export --output` names a folder to write into: an existing folder, or a
  /// path ending in `/`.
  public static func isFolder(_ output: String) -> Bool {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory)
    return (exists && isDirectory.boolValue) || output.hasSuffix("/")
  }
}

extension Exporter {
  /// Writes the export of every tie in `store` into `folder`, laid out as
  /// ``ExportFolder`` says: the photos first, in `images/`, then the seed file that names
  /// them, each written whole or not at all. `warn` is as in
  /// ``write(from:toFolder:to:image:warn:)``. Unless `replacing`, a seed file or photo
  /// already in the folder is refused, as ``AtomicFile`` refuses any output file.
  public func write(
    from store: BowTieStore, intoFolder folder: URL, replacing: Bool, warn: (BowTie) -> Void
  ) throws(BowTieError) -> Summary {
    let images = ExportFolder.images(in: folder)
    let seedFile = folder.appendingPathComponent(folderFileName)
    // Refused before any photo is written beside it.
    if !replacing { try AtomicFile.refuseExisting(seedFile) }
    try AtomicFile.createFolder(images)
    var summary = Summary()
    // The photos are in place before the seed file that names them.
    try AtomicFile.write(to: seedFile, replacing: replacing) { document throws(BowTieError) in
      summary = try write(
        from: store, toFolder: format != .csv, to: &document,
        image: { name, data throws(BowTieError) in
          try AtomicFile.write(data, to: images.appendingPathComponent(name), replacing: replacing)
        }, warn: warn)
    }
    return summary
  }
}
