import BowTieModel
import Foundation

/// An Xcode asset catalog (`*.xcassets`), read as `UIImage(named:)` finds an image in it:
/// the image set named like the image, in any folder group, its `Contents.json`, and the
/// universal image at the highest scale.
struct AssetCatalog {
  let folder: URL

  /// The catalogs in `folder`, by name.
  static func catalogs(in folder: URL) -> [AssetCatalog] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".xcassets") }.sorted().map {
      AssetCatalog(folder: folder.appendingPathComponent($0, isDirectory: true))
    }
  }

  /// An image set's chosen file, and the scale it is drawn at.
  struct Image: Equatable {
    var file: URL
    /// 1, 2 or 3 (the `scale` of its entry); 1 for a single-scale (vector) image.
    var scale: Double
  }

  enum LookupError: Error, Equatable {
    /// No image set of that name.
    case noImageSet
    /// Several, in different folder groups (Xcode refuses such a catalog too).
    case ambiguous([String])
    /// The set exists but its Contents.json is missing or unreadable, or names no
    /// universal image that is there.
    case unusable(set: URL, reason: String)
  }

  /// The image set `name.imageset`, anywhere under the catalog (folder groups are plain
  /// folders), and its universal image at the highest scale.
  func image(named name: String) throws(LookupError) -> Image {
    let wanted = name + ".imageset"
    var sets: [URL] = []
    let keys: [URLResourceKey] = [.isDirectoryKey, .isSymbolicLinkKey]
    let walker = FileManager.default.enumerator(
      at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
    while let url = walker?.nextObject() as? URL {
      let values = try? url.resourceValues(forKeys: Set(keys))
      guard values?.isDirectory == true, values?.isSymbolicLink != true else { continue }
      // Folder groups, and asset folders that hold image sets (sprite atlases), are
      // searched; an image set holds only its files.
      if url.pathExtension == "imageset" {
        walker?.skipDescendants()
        if url.lastPathComponent == wanted { sets.append(url) }
      }
    }
    guard let set = sets.first else { throw .noImageSet }
    guard sets.count == 1 else {
      throw .ambiguous(sets.map { relativePath(of: $0) }.sorted())
    }
    return try chooseImage(in: set)
  }

  /// `folder group/red.imageset`, for messages.
  func relativePath(of url: URL) -> String {
    let base = folder.standardizedFileURL.path + "/"
    let path = url.standardizedFileURL.path
    return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
  }

  /// The universal image at the highest scale that has a file, ignoring variants for a
  /// dark appearance or other idioms (which `UIImage(named:)` picks only on such devices).
  private func chooseImage(in set: URL) throws(LookupError) -> Image {
    let contentsFile = set.appendingPathComponent("Contents.json")
    let contents: Contents
    do {
      contents = try JSONDecoder().decode(Contents.self, from: Data(contentsOf: contentsFile))
    } catch {
      throw .unusable(set: set, reason: "its Contents.json cannot be read (\(error.reason))")
    }
    let candidates = (contents.images ?? []).compactMap { entry -> Image? in
      guard entry.idiom == "universal", let filename = entry.filename, !filename.isEmpty,
        !filename.contains("/"), !filename.hasPrefix("."), entry.appearances?.isEmpty ?? true
      else { return nil }
      let scale = entry.scale.flatMap { Double($0.dropLast()) } ?? 1
      guard scale > 0, scale.isFinite else { return nil }
      return Image(file: set.appendingPathComponent(filename), scale: scale)
    }
    guard let best = candidates.max(by: { $0.scale < $1.scale }) else {
      throw .unusable(set: set, reason: "its Contents.json names no universal image")
    }
    return best
  }

  /// The part of an image set's `Contents.json` that says which file is which.
  private struct Contents: Decodable {
    struct Entry: Decodable {
      var idiom: String?
      var filename: String?
      /// "1x", "2x", "3x"; absent for a single-scale image (a vector PDF).
      var scale: String?
      var appearances: [Appearance]?
    }

    struct Appearance: Decodable {
      var appearance: String?
      var value: String?
    }

    var images: [Entry]?
  }
}
