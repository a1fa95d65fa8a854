import BowTieModel
import Foundation
import GRDB

extension SQLiteEngine: ChangeWatchingEngine {
  func watchChanges() throws(BowTieError) -> any StoreChangeWatch {
    do {
      return try SQLiteChangeWatch(engine: self)
    } catch {
      throw storeError(error)
    }
  }
}

/// Watches a SQLite store through `PRAGMA data_version` on the store's own connection:
/// SQLite changes the number when another connection commits, and reading it costs no
/// disk access. The store's file is also checked to be still there, and the same file.
final class SQLiteChangeWatch: StoreChangeWatch {
  private let engine: SQLiteEngine
  private var version: Int
  /// The file when the watch began; nil in memory.
  private let file: StoreFileState?

  var descriptor: Int32? { nil }
  /// Four times a second: a change shows within a quarter of a second, and each look is a
  /// few microseconds.
  var interval: Int32 { 250 }

  init(engine: SQLiteEngine) throws {
    self.engine = engine
    version = try Self.dataVersion(engine)
    file = engine.displayName.hasPrefix("/") ? StoreFileState(path: engine.displayName) : nil
  }

  func changed() throws(BowTieError) -> Bool {
    if let file {
      guard let now = StoreFileState(path: engine.displayName) else {
        throw .storeUnreadable(
          path: engine.displayName, reason: "it was removed while bowties had it open")
      }
      guard now.isSameFile(as: file) else {
        throw .storeUnreadable(
          path: engine.displayName,
          reason: "it was replaced by another file while bowties had it open")
      }
      // A file read without locks has no data version that moves: any write is a change
      // under the reader, and so is a log beside it.
      try engine.unlocked?.checkStillCurrent(now)
    }
    let current: Int
    do {
      current = try Self.dataVersion(engine)
    } catch {
      throw engine.storeError(error)
    }
    defer { version = current }
    return current != version
  }

  private static func dataVersion(_ engine: SQLiteEngine) throws -> Int {
    try engine.dbWriter.writeWithoutTransaction { db in
      try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }
  }
}
