import BowTieModel
import Foundation
import GRDB
import GRDBSQLite

#if canImport(Glibc)
  import Glibc
#endif

// How the SQLite engine's failures reach the user: each as the one BowTieError its exit
// code follows from.
extension SQLiteEngine {
  /// Turns any error from GRDB, SQLite or the file system into a ``BowTieError``.
  func storeError(_ error: any Error) -> BowTieError {
    Self.storeError(error, path: displayName)
  }

  static func storeError(_ error: any Error, path: String) -> BowTieError {
    switch error {
    case var error as BowTieError:
      error.fillInStorePath(path)
      return error
    case let error as DatabaseError:
      let reason = error.message ?? "\(error.resultCode)"
      switch error.resultCode {
      case .SQLITE_BUSY, .SQLITE_LOCKED:
        return .storeBusy(path: path)
      case .SQLITE_READONLY:
        return .storeNotWritable(path: path, reason: foreignLog(beside: path) ?? reason)
      case .SQLITE_FULL, .SQLITE_PERM:
        return .storeNotWritable(path: path, reason: reason)
      case .SQLITE_NOTADB, .SQLITE_CORRUPT:
        return .storeUnreadable(
          path: path, reason: "it is not a bowties store or it is damaged (\(reason))")
      default:
        return .storeUnreadable(path: path, reason: reason)
      }
    default:
      return .storeUnreadable(path: path, reason: error.reason)
    }
  }
}

extension Database {
  /// Runs `body`, adding the system's reason to SQLite's "disk I/O error" and "unable to
  /// open database file", which name none: the connection keeps the error number of the
  /// call that failed, such as "no space left on device" on a full disk, where the log or
  /// its index cannot grow, and even a read fails.
  func namingSystemErrors<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_IOERR || error.resultCode == .SQLITE_CANTOPEN
    {
      let code = sqlite3_system_errno(sqliteConnection)
      guard code > 0 else { throw error }
      let reason = String(cString: strerror(code)).lowercased()
      throw DatabaseError(
        resultCode: error.extendedResultCode,
        message: "\(error.message ?? "\(error.resultCode)") (\(reason))",
        sql: error.sql, arguments: error.arguments)
    }
  }
}

extension Database {
  /// Copies this database into `destination` with SQLite's online backup API, and says
  /// why a copy failed: the API reports a failure by its result code, while GRDB takes the
  /// message the destination connection held before the copy was finished, another
  /// call's ("not an error", "no more rows available" on a full disk). Once finished, the
  /// destination holds the copy's own error; else the code's text is the reason. The
  /// system's reason is added when the destination's last call set one.
  func copy(into destination: Database) throws {
    do {
      try backup(to: destination)
    } catch let error as DatabaseError {
      let connection = destination.sqliteConnection
      let code = error.extendedResultCode.rawValue
      var reason =
        sqlite3_extended_errcode(connection) == code
        ? String(cString: sqlite3_errmsg(connection)) : String(cString: sqlite3_errstr(code))
      let system = sqlite3_system_errno(connection)
      if system > 0 { reason += " (\(String(cString: strerror(system)).lowercased()))" }
      throw DatabaseError(resultCode: error.extendedResultCode, message: reason)
    }
  }
}

extension DatabaseReader {
  /// Copies this database into `destination`, as ``Database/copy(into:)`` does.
  func copy(into destination: DatabaseQueue) throws {
    try read { db in try destination.writeWithoutTransaction { try db.copy(into: $0) } }
  }
}

extension SQLiteEngine {
  /// Why an output file (a backup) could not be written: SQLite's own message, without
  /// GRDB's "SQLite error N:" and the statement it ran.
  static func outputReason(_ error: any Error) -> String {
    (error as? DatabaseError)?.message ?? error.reason
  }
}

extension SQLiteEngine {
  /// Why a store this process may write is read-only to it, when that is so because its
  /// log and index (`-wal`, `-shm`) belong to another user: SQLite's own words ("attempt to
  /// write a readonly database") would send the store's owner looking at the store. Such
  /// files are left by a reader that may not write the store (the `sqlite3` shell, an
  /// older bowties), which can neither fold them back nor remove them.
  static func foreignLog(beside path: String) -> String? {
    guard access(path, W_OK) == 0 else { return nil }
    let name = URL(fileURLWithPath: path).lastPathComponent
    var files: [String] = []
    var owner: uid_t?
    var logSize: Int64 = 0
    for suffix in ["-wal", "-shm"] {
      var info = stat()
      guard stat(path + suffix, &info) == 0, access(path + suffix, W_OK) != 0 else { continue }
      files.append(name + suffix)
      owner = info.st_uid
      if suffix == "-wal" { logSize = Int64(info.st_size) }
    }
    guard let owner else { return nil }
    let user = getpwuid(owner).map { "\(String(cString: $0.pointee.pw_name)) (uid \(owner))" }
    let whose = "\(files.joined(separator: " and ")) beside it belong to \(user ?? "uid \(owner)")"
    // A log with frames in it may hold that user's committed changes: removing it would
    // lose them. An empty one, and the index, hold nothing.
    return logSize == 0
      ? "\(whose), left by a program that read the store; they hold nothing: remove them "
        + "once no program has the store open"
      : "\(whose), and the log holds changes: that user must open the store once, with no "
        + "other program on it, to fold them into the store"
  }
}

extension BowTieError {
  /// Row decoding runs without knowing the store's name; the store adds it.
  public mutating func fillInStorePath(_ path: String) {
    if case .storeUnreadable("", let reason) = self {
      self = .storeUnreadable(path: path, reason: reason)
    }
  }
}
