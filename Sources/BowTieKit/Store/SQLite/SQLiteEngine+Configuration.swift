import BowTieModel
import Foundation
import GRDB

// How the SQLite store's connections are configured, and how its schema is brought up to
// date.
extension SQLiteEngine {
  // Not GRDB's `.wal`: it writes a table into the log whenever the log file is missing,
  // which it is after every last close, so each `show` would pay for a write transaction
  // and its fsyncs, and wait for the write lock. The pragma only reads the header when the
  // file is in WAL mode already.
  static func configuration(
    busyTimeout: TimeInterval,
    pragmas: String = "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL"
  ) -> Configuration {
    var config = Configuration()
    config.busyMode = .timeout(busyTimeout)
    config.label = "BowTies"
    if !pragmas.isEmpty {
      config.prepareDatabase { db in try db.execute(sql: pragmas) }
    }
    return config
  }

  /// The file whose lock serializes migrations of the store at `url`.
  static func migrationLock(forStoreAt url: URL) -> URL {
    StoreLocation.externalDataDirectory(forStoreAt: url)
      .deletingLastPathComponent().appendingPathComponent("migration.lock")
  }

  /// Brings the schema up to date, refusing a store from a newer bowties.
  func migrate(lockFile: URL?) throws(BowTieError) {
    do {
      let state = try dbWriter.read { db in try Schema.state(db) }
      try state.refuseNewer(path: displayName)
      if state == .current { return }
      // GRDB's migrator reads which migrations are applied before it takes the write
      // lock, so two processes could both run one; a file lock serializes them.
      let lock = try lockFile.map { try FileLock(exclusiveAt: $0) }
      defer { lock?.unlock() }
      try Schema.migrator(readingPhotoFile: photos.contents).migrate(dbWriter)
    } catch {
      throw storeError(error)
    }
  }
}
