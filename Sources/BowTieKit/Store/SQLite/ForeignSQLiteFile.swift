import BowTieModel
import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#endif

/// A SQLite file another program wrote, such as the iOS app's Core Data store, read without
/// changing it or anything beside it.
///
/// SQLite cannot read a store in WAL mode where it lies and leave it as it was: a
/// read-only connection still writes the `-shm` index (and creates one where there is
/// none), a connection that can write checkpoints the `-wal` into the file when it closes,
/// and `immutable=1` ignores the `-wal`, where a store copied from a running app keeps its
/// latest rows (https://sqlite.org/wal.html). So the file and its `-wal`, `-shm` and
/// `-journal` are copied into a folder of this process's own and read there, and the
/// folder removed: the originals are only ever opened for reading.
enum ForeignSQLiteFile {
  /// What a file is, by its first bytes.
  enum Kind: Sendable, Equatable {
    /// A SQLite 3 database.
    case database
    /// A SQLite write-ahead log, the `-wal` beside a database.
    case writeAheadLog
    case other
  }

  /// The 16 bytes every SQLite 3 database file starts with.
  private static let header = Array("SQLite format 3\0".utf8)
  /// A write-ahead log's first four bytes, big-endian 0x377F0682 or 0x377F0683.
  private static let walMagic: [UInt8] = [0x37, 0x7F, 0x06]

  /// What `data`, the start of a file, is.
  static func kind(of data: some Collection<UInt8>) -> Kind {
    if data.starts(with: header) { return .database }
    if data.starts(with: walMagic), data.count >= 4,
      [0x82, 0x83].contains(data[data.index(data.startIndex, offsetBy: 3)])
    {
      return .writeAheadLog
    }
    return .other
  }

  /// What the file at `url` is, by its first bytes; `.other` for anything that is not a
  /// readable regular file.
  static func kind(of url: URL) -> Kind {
    let file = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard file >= 0 else { return .other }
    defer { close(file) }
    var info = stat()
    guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .other }
    var bytes = [UInt8](repeating: 0, count: header.count)
    let count = Glibc.read(file, &bytes, bytes.count)
    return count > 0 ? kind(of: bytes.prefix(count)) : .other
  }

  /// The copy as `body` reads it: its SQL, and what SQLite's catalog says of its tables,
  /// so that no reader outside this folder speaks SQLite's own SQL.
  struct Contents {
    let connection: any SQLConnection

    /// Whether the file has a table `name`, its case ignored as SQLite ignores it (ASCII).
    func hasTable(_ name: String) throws -> Bool {
      try connection.fetchValue(
        """
        SELECT count(*) > 0 FROM sqlite_master
          WHERE type = 'table' AND name = \(name) COLLATE NOCASE
        """, as: Bool.self) ?? false
    }

    /// The names of table `name`'s columns, in their order; none for a table that does
    /// not exist.
    func columnNames(of name: String) throws -> [String] {
      try connection.fetchValues("SELECT name FROM pragma_table_info(\(name))", as: String.self)
    }
  }

  /// Runs `body` in one read transaction on a private copy of the database at `url`, with
  /// its `-wal`, `-shm` and `-journal` where they are.
  ///
  /// The connection refuses SQL functions that the file's own schema names, as SQLite's
  /// `trusted_schema=OFF` does: a generated column or a view of a hostile file runs none.
  ///
  /// - Parameter name: how messages name the file (the path as the user gave it).
  /// - Throws: ``BowTieError/inputUnreadable(path:reason:)`` when a file cannot be read;
  ///   ``BowTieError/outputUnwritable(path:reason:)`` when the copy cannot be written;
  ///   ``BowTieError/invalidSeedFile(source:reason:)`` when SQLite cannot read the copy;
  ///   what `body` throws.
  static func read<T>(
    copyOf url: URL, named name: String, _ body: (Contents) throws -> T
  ) throws(BowTieError) -> T {
    let folder = try privateFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("store.sqlite")
    for suffix in SQLiteStoreFile.fileSuffixes {
      try copyFile(
        url.path + suffix, to: copy.path + suffix, named: name + suffix, required: suffix.isEmpty)
    }
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA trusted_schema = OFF") }
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue(path: copy.path, configuration: configuration)
    } catch {
      throw unreadable(error, name: name)
    }
    defer { try? queue.close() }
    do {
      return try queue.read { db in try body(Contents(connection: SQLiteConnection(db: db))) }
    } catch let error as BowTieError {
      throw error
    } catch {
      throw unreadable(error, name: name)
    }
  }

  private static func unreadable(_ error: any Error, name: String) -> BowTieError {
    let reason = (error as? DatabaseError)?.message ?? "\(error)"
    return .invalidSeedFile(source: name, reason: "not a readable SQLite database (\(reason))")
  }

  /// Copies the file at `source` byte for byte into a new file `target` only this user
  /// can read. A missing file that is not `required` is skipped.
  private static func copyFile(
    _ source: String, to target: String, named name: String, required: Bool
  ) throws(BowTieError) {
    // O_NONBLOCK: a FIFO in the file's place must not hang the open.
    let input = open(source, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard input >= 0 else {
      if errno == ENOENT && !required { return }
      throw .inputUnreadable(path: name, reason: POSIXError.current.reason)
    }
    defer { close(input) }
    var info = stat()
    guard fstat(input, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw .inputUnreadable(path: name, reason: "it is not a regular file")
    }
    let output = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard output >= 0 else { throw copyFailure(target) }
    defer { close(output) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .inputUnreadable(path: name, reason: POSIXError.current.reason)
      }
      if count == 0 { return }
      var written = 0
      while written < count {
        let step = buffer.withUnsafeBytes {
          Glibc.write(output, $0.baseAddress! + written, count - written)
        }
        if step < 0 {
          if errno == EINTR { continue }
          throw copyFailure(target)
        }
        written += step
      }
    }
  }

  private static func copyFailure(_ target: String) -> BowTieError {
    .outputUnwritable(
      path: (target as NSString).deletingLastPathComponent,
      reason: "\(POSIXError.current.reason) (a private copy of the store is read there; "
        + "set TMPDIR to another folder)")
  }

  /// A new folder in the temporary folder (`TMPDIR`) that only this user can enter.
  private static func privateFolder() throws(BowTieError) -> URL {
    let temporary = NSTemporaryDirectory()
    var template = Array(
      (temporary as NSString).appendingPathComponent("bowties-import.XXXXXX").utf8CString)
    guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw .outputUnwritable(
        path: temporary,
        reason: "\(POSIXError.current.reason) (a private copy of the store is read there; "
          + "set TMPDIR to another folder)")
    }
    return URL(fileURLWithPath: String(cString: path), isDirectory: true)
  }
}
