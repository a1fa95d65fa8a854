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

extension BowTieError {
  /// Row decoding runs without knowing the store's name; the store adds it.
  public mutating func fillInStorePath(_ path: String) {
    if case .storeUnreadable("", let reason) = self {
      self = .storeUnreadable(path: path, reason: reason)
    }
  }
}
