import BowTieModel
import CNettle
import Foundation

/// Keeps photos above Core Data's external-storage cutoff in files beside the store.
///
/// Files are content-addressed (named by their SHA-256), so identical photos are
/// stored once. Every file operation happens while the caller holds SQLite's write
/// lock, so another process can never see a file vanish between checking for it
/// and referring to it.
///
/// The names come back from the database, which any tool can write, and from backups
/// anyone can hand over: ``file(named:)`` is the one place where a name becomes a path,
/// and it takes only the names this type gives files.
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

  func isExternal(byteCount: Int) -> Bool {
    directory != nil && byteCount > Self.externalThreshold
  }

  /// Whether `name` is a photo file's name: exactly 64 lowercase hexadecimal digits, the
  /// SHA-256 the file is named by. Nothing else, so no name can hold a `/`, a `..` or a NUL.
  static func isFileName(_ name: String) -> Bool {
    let utf8 = name.utf8
    return utf8.count == 64
      && utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// The path of the photo file `name`: the one place a name becomes a path.
  func file(named name: String) throws(BowTieError) -> URL {
    guard let directory else {
      throw .photoUnavailable(
        tie: "", path: name, reason: "cannot be read: the store has no photo folder")
    }
    guard Self.isFileName(name) else {
      throw .photoUnavailable(
        tie: "", path: name,
        reason: "is not a photo file name (64 lowercase hexadecimal digits): "
          + "bowties doctor --repair clears it")
    }
    return directory.appendingPathComponent(name)
  }

  /// Writes `data` under its content name unless an intact copy is already there.
  /// Returns the name, and whether this call created the file.
  func write(_ data: Data, _ changes: PhotoFileChanges) throws(BowTieError) -> (
    name: String, created: Bool
  ) {
    guard directory != nil, let writingMarker else {
      throw .storeNotWritable(path: ":memory:", reason: "an in-memory store has no photo folder")
    }
    let name = Self.contentName(data)
    let file = try file(named: name)
    if let size = fileSize(file), size == data.count {
      return (name, false)
    }
    do {
      try FileSystem.createDirectories(file.deletingLastPathComponent())
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
    let file: URL
    do {
      file = try self.file(named: name)
    } catch {
      throw error.naming(tie: tie)
    }
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

  /// Describes what is wrong with the external photo `name` of the tie `tie`, or nil when
  /// it is there at the recorded size. Cheaper than ``read(_:expectedSize:tie:)``: it
  /// only checks the size.
  func problem(with name: String, expectedSize: Int?, tie: String) -> BowTieError? {
    let file: URL
    do {
      file = try self.file(named: name)
    } catch {
      return error.naming(tie: tie)
    }
    guard let size = fileSize(file) else {
      return .photoUnavailable(tie: tie, path: file.path, reason: "is missing")
    }
    if let expectedSize, expectedSize != size {
      return .photoUnavailable(
        tie: tie, path: file.path, reason: "is damaged (\(size) bytes, expected \(expectedSize))")
    }
    return nil
  }

  /// The path of the photo file `name` when no file is there, for a caller that has no tie
  /// to name; `nil` when it is there, or when `name` is not a photo file's name.
  func missingFile(named name: String) -> String? {
    guard let file = try? file(named: name), fileSize(file) == nil else { return nil }
    return file.path
  }

  /// Removes photo files by name; a file already gone is not an error, and a name that
  /// is not a photo file's name is never made into a path.
  func remove(_ names: some Sequence<String>) {
    for name in names {
      guard let file = try? file(named: name) else { continue }
      _ = unlink(file.path)
    }
  }

  /// Puts the photo file `name` of `source` into this folder: a hard link when both are
  /// on one file system (photo files are never changed once written), else a copy written
  /// atomically. A file already there is kept: content-addressed, it has the same bytes.
  func copy(_ name: String, from source: PhotoStorage) throws {
    let target = try file(named: name)
    if access(target.path, F_OK) == 0 { return }
    let original = try source.file(named: name)
    try FileSystem.createDirectories(target.deletingLastPathComponent())
    if link(original.path, target.path) == 0 { return }
    try FileSystem.writeAtomically(Data(contentsOf: original), to: target)
  }

  /// The bytes of the photo file `name`, or nil when it is missing, unreadable, or `name`
  /// is not a photo file's name: for describing a photo, which needs no more.
  @Sendable func contents(_ name: String) -> Data? {
    guard let file = try? file(named: name) else { return nil }
    return try? Data(contentsOf: file)
  }

  /// A photo's file name: the SHA-256 of its bytes, in hex.
  static func contentName(_ data: Data) -> String {
    var context = sha256_ctx()
    nettle_sha256_init(&context)
    data.withUnsafeBytes { bytes in
      nettle_sha256_update(
        &context, bytes.count, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
    }
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
    nettle_sha256_digest(&context, digest.count, &digest)
    let hex = Array("0123456789abcdef".utf8)
    return String(
      decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
  }

  /// The photo files in the folder: every entry named as ``file(named:)`` accepts.
  func allFileNames() -> [String] {
    folderEntries().filter(Self.isFileName)
  }

  /// Removes what an interrupted ``FileSystem/writeAtomically(_:to:mode:replacing:)`` left in the
  /// folder: its temporary files, which only a live write transaction may still use.
  func removeTemporaryFiles() {
    guard let directory else { return }
    for name in folderEntries() where FileSystem.isTemporaryFileName(name) {
      _ = unlink(directory.appendingPathComponent(name).path)
    }
  }

  /// Every entry of the folder, whatever its name.
  func folderEntries() -> [String] {
    guard let directory else { return [] }
    return (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
  }

  private func fileSize(_ file: URL) -> Int? {
    var info = stat()
    guard stat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(info.st_size)
  }
}

extension BowTieError {
  /// A photo error raised before the tie was known, with the tie's name filled in.
  fileprivate func naming(tie: String) -> BowTieError {
    guard case .photoUnavailable("", let path, let reason) = self else { return self }
    return .photoUnavailable(tie: tie, path: path, reason: reason)
  }
}
