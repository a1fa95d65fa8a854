import Crypto
import Foundation

/// Keeps photos above Core Data's external-storage cutoff in files beside the store.
///
/// Files are content-addressed (named by their SHA-256), so identical photos are
/// stored once. Every file operation happens while the caller holds SQLite's write
/// lock, so another process can never see a file vanish between checking for it
/// and referring to it.
struct PhotoStorage: Sendable {
  /// Photos larger than this many bytes are stored externally (Core Data's 128 KiB).
  static let externalThreshold = 128 * 1024

  /// The `_EXTERNAL_DATA` folder, or nil for an in-memory store, which keeps every
  /// photo inline.
  let directory: URL?

  /// Exists while a transaction may be writing photo files. Found by a later open, it
  /// means a process died between writing a file and committing the row that refers to
  /// it (`kill -9`, Ctrl-C, a crash): the files nothing refers to are then swept.
  var writingMarker: URL? {
    directory?.deletingLastPathComponent().appendingPathComponent("photo-writes-in-progress")
  }

  func isExternal(_ data: Data) -> Bool {
    directory != nil && data.count > Self.externalThreshold
  }

  /// Writes `data` under its content name unless an intact copy is already there.
  /// Returns the name, and whether this call created the file.
  func write(_ data: Data, _ changes: PhotoChanges) throws(BowTieError) -> (
    name: String, created: Bool
  ) {
    guard let directory, let writingMarker else {
      throw .storeNotWritable(path: ":memory:", reason: "an in-memory store has no photo folder")
    }
    let name = Self.contentName(data)
    let file = directory.appendingPathComponent(name)
    if let size = fileSize(file), size == data.count {
      return (name, false)
    }
    do {
      try FileSystem.createDirectories(directory)
      if !changes.markedWriting {
        try FileSystem.writeAtomically(Data(), to: writingMarker)
        changes.markedWriting = true
      }
      try FileSystem.writeAtomically(data, to: file)
    } catch {
      throw .storeNotWritable(path: file.path, reason: error.reason)
    }
    return (name, true)
  }

  /// Reads an external photo, checking its size and content against what the store recorded.
  func read(_ name: String, expectedSize: Int?, tie: String) throws(BowTieError) -> Data {
    let file = url(for: name)
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      let missing = !FileManager.default.fileExists(atPath: file.path)
      throw .photoUnavailable(
        tie: tie, path: file.path, reason: missing ? "is missing" : "cannot be read")
    }
    guard Self.contentName(data) == name, expectedSize == nil || expectedSize == data.count else {
      throw .photoUnavailable(tie: tie, path: file.path, reason: "is damaged (its content changed)")
    }
    return data
  }

  /// The size of an external photo file, or nil when it is missing.
  func size(of name: String) -> Int? { fileSize(url(for: name)) }

  func url(for name: String) -> URL {
    (directory ?? URL(fileURLWithPath: "/nonexistent")).appendingPathComponent(name)
  }

  /// Removes files by name; a file already gone is not an error.
  func remove(_ names: some Sequence<String>) {
    for name in names {
      _ = unlink(url(for: name).path)
    }
  }

  /// A photo's file name: the SHA-256 of its bytes, in hex.
  static func contentName(_ data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
  }

  /// Every file in the photo folder, temporary ones included.
  func allFileNames() -> [String] {
    guard let directory else { return [] }
    return (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
  }

  private func fileSize(_ file: URL) -> Int? {
    var info = stat()
    guard stat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(info.st_size)
  }
}
