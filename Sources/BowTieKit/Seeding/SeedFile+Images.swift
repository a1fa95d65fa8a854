import BowTieModel
import Foundation

/// Where a seed file's `imageName`s are looked up.
public enum ImageSource: Sendable {
  /// The `images/` folder beside the plist, then the Xcode asset catalogs (`*.xcassets`)
  /// beside it, as the BowTies project of the Core Data book has them. Names may not lead
  /// outside either.
  case folder(URL)
  /// Photos built into the binary, keyed by file name (the bundled sample data).
  case embedded([String: Data])
  /// No photos: `imageName` and `photoData` are ignored (`seed --no-photos`).
  case skipped
}

// Loading the photo an entry names by `imageName`, from images/, an asset catalog or the
// photos built into the binary, and checking it.
extension SeedFile {
  static func loadImage(
    _ imageName: String, from source: ImageSource, reader: EntryReader
  ) throws(BowTieError) -> CheckedPhoto {
    // A plain file name only: no folders, no "..", no hidden files, nothing outside images/.
    guard !imageName.isEmpty, !imageName.hasPrefix("."), !imageName.contains("/"),
      !imageName.contains("\\"), !imageName.contains("\0"), imageName.utf8.count <= 255
    else {
      throw reader.failure("imageName", "'\(imageName)' must be a plain file name inside images/")
    }
    let candidates =
      imageName.contains(".")
      ? [imageName]
      : [imageName] + PhotoFormat.allCases.flatMap(\.fileExtensions).map { "\(imageName).\($0)" }
    switch source {
    case .skipped:
      throw reader.failure("imageName", "photos are skipped")
    case .embedded(let photos):
      for candidate in candidates {
        if let data = photos[candidate] {
          return try check(data, path: "images/\(candidate)", reader: reader)
        }
      }
      throw .seedImageUnreadable(
        index: reader.index, name: reader.name, path: "images/\(imageName)",
        reason: "no such image")
    case .folder(let folder):
      for candidate in candidates {
        let file = folder.appendingPathComponent(candidate)
        var info = stat()
        guard lstat(file.path, &info) == 0 else { continue }
        return try readImage(file, inside: folder, reader: reader)
      }
      // As UIImage(named:) finds "red.png" or "red": the image set "red".
      let setName =
        imageName.contains(".") ? (imageName as NSString).deletingPathExtension : imageName
      let catalogs = AssetCatalog.catalogs(in: folder.deletingLastPathComponent())
      for catalog in catalogs {
        let image: AssetCatalog.Image
        do {
          image = try catalog.image(named: setName)
        } catch {
          switch error {
          case .noImageSet: continue
          case .ambiguous(let sets):
            throw reader.failure(
              "imageName",
              "\(catalog.folder.path) has more than one image set named \(setName): \(sets.joined(separator: ", "))"
            )
          case .unusable(let set, let reason):
            throw .seedImageUnreadable(
              index: reader.index, name: reader.name, path: set.path, reason: reason)
          }
        }
        // An image drawn at 3× (the size the app shows it at on a 3× screen) from a
        // PDF in a slot of this scale.
        return try readImage(
          image.file, inside: catalog.folder, reader: reader, pdfScale: 3 / image.scale)
      }
      throw .seedImageMissing(
        index: reader.index, name: reader.name, imageName: imageName,
        lookedIn: [folder.path + "/"] + catalogs.map { "\($0.folder.path) (image set \(setName))" },
        catalogsFound: !catalogs.isEmpty)
    }
  }

  /// Reads a photo file, which must resolve inside `folder`, and checks it.
  private static func readImage(
    _ file: URL, inside folder: URL, reader: EntryReader, pdfScale: Double = PhotoIntake.pdfScale
  ) throws(BowTieError) -> CheckedPhoto {
    // A symbolic link may still point outside the folder: compare resolved paths.
    let resolvedFolder = folder.resolvingSymlinksInPath().path
    let resolved = file.resolvingSymlinksInPath().path
    guard resolved.hasPrefix(resolvedFolder + "/") else {
      throw reader.failure(
        "imageName", "'\(file.lastPathComponent)' leads outside \(folder.lastPathComponent)/")
    }
    var info = stat()
    guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      let missing = lstat(file.path, &info) != 0
      throw .seedImageUnreadable(
        index: reader.index, name: reader.name, path: file.path,
        reason: missing ? "no such file" : "not a regular file")
    }
    guard info.st_size <= maximumPhotoSize else {
      throw reader.failure(
        "imageName", "'\(file.lastPathComponent)' is larger than \(maximumPhotoSize >> 20) MiB")
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: resolved))
    } catch {
      throw .seedImageUnreadable(
        index: reader.index, name: reader.name, path: file.path, reason: error.reason)
    }
    return try check(data, path: file.path, reader: reader, pdfScale: pdfScale)
  }

  private static func check(
    _ data: Data, path: String, reader: EntryReader, pdfScale: Double = PhotoIntake.pdfScale
  ) throws(BowTieError) -> CheckedPhoto {
    do {
      return try PhotoIntake.check(data, pdfScale: pdfScale)
    } catch {
      throw .seedImageUnreadable(
        index: reader.index, name: reader.name, path: path,
        reason: PhotoIntake.reason(error, file: (path as NSString).lastPathComponent))
    }
  }
}
