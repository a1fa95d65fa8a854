import BowTieModel
import Foundation
import GRDB

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
      case .SQLITE_READONLY where !canReadInWALMode(path):
        return .storeUnreadable(
          path: path,
          reason: """
            SQLite reads a store in WAL mode through an index file beside it \
            (\(URL(fileURLWithPath: path).lastPathComponent)-shm), and this user may not \
            create one in its folder; copy the store to a folder you can write, or have its \
            owner let you write its folder
            """)
      case .SQLITE_READONLY, .SQLITE_FULL, .SQLITE_PERM:
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

/// Whether SQLite can read the store file at `path` as this user, as far as its WAL index
/// goes: false when the file is there and the index is not, and the folder refuses to have
/// it made (SQLite then refuses every read, "attempt to write a readonly database", as the
/// `sqlite3` shell does). A read-only file system is not this case: there the store opens
/// as immutable (``SQLiteStoreFile/databaseLocation(for:readonly:)``).
private func canReadInWALMode(_ path: String) -> Bool {
  let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
  guard access(path, F_OK) == 0, access(path + "-shm", F_OK) != 0 else { return true }
  return access(folder, W_OK) == 0 || errno != EACCES
}

extension BowTieError {
  /// Row decoding runs without knowing the store's name; the store adds it.
  public mutating func fillInStorePath(_ path: String) {
    if case .storeUnreadable("", let reason) = self {
      self = .storeUnreadable(path: path, reason: reason)
    }
  }
}
