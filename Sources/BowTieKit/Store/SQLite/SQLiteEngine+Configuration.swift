import BowTieModel
import Foundation
import GRDB

// How the SQLite store's connections are configured, and how its schema is brought up to
// date.
extension SQLiteEngine {
  /// How a connection to a store is configured: `prepare` runs as each connection opens;
  /// by default ``prepareStore(_:)``, which a store's own connections want.
  static func configuration(
    busyTimeout: TimeInterval,
    prepare: (@Sendable (Database) throws -> Void)? = prepareStore
  ) -> Configuration {
    var config = Configuration()
    config.busyMode = .timeout(busyTimeout)
    config.label = "BowTies"
    if let prepare { config.prepareDatabase(prepare) }
    return config
  }

  /// A connection that runs `pragmas` as it opens, then reads the schema: the first read,
  /// which GRDB's own check would make next, is made where a failure can name its cause
  /// (``GRDB/Database/namingSystemErrors(_:)``).
  static func configuration(busyTimeout: TimeInterval, pragmas: String) -> Configuration {
    configuration(busyTimeout: busyTimeout) { db in
      try db.namingSystemErrors {
        try db.execute(sql: pragmas)
        _ = try Row.fetchOne(db, sql: "SELECT * FROM sqlite_master LIMIT 1")
      }
    }
  }

  /// Puts a store's file in WAL mode, unless it is another program's database
  /// (``Schema/foreignDatabase(_:)``), whose journal is left as it is.
  ///
  /// Not GRDB's `.wal`: it writes a table into the log whenever the log file is missing,
  /// which it is after every last close, so each `show` would pay for a write transaction
  /// and its fsyncs, and wait for the write lock. Asking for the mode only reads the
  /// header, and a store's file is in WAL mode already: only a file that is not (a new
  /// one, a backup, another program's) is looked at further.
  @Sendable static func prepareStore(_ db: Database) throws {
    try db.namingSystemErrors {
      if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
        if let reason = try Schema.foreignDatabase(db) {
          throw BowTieError.storeUnreadable(path: "", reason: reason)
        }
        try db.execute(sql: "PRAGMA journal_mode = WAL")
      }
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
  }

  /// The file whose lock serializes migrations of the store at `url`.
  static func migrationLock(forStoreAt url: URL) -> URL {
    StoreLocation.externalDataDirectory(forStoreAt: url)
      .deletingLastPathComponent().appendingPathComponent("migration.lock")
  }

  /// Brings the schema up to date, refusing a store from a newer bowties. A database
  /// without a schema is first handed to `fill`, which says whether it filled it.
  ///
  /// - Returns: whether `fill` filled the database.
  @discardableResult
  func migrate(
    lockFile: URL?, fillingEmpty fill: (SQLiteEngine) throws(BowTieError) -> Bool = { _ in false }
  ) throws(BowTieError) -> Bool {
    do {
      let state = try dbWriter.read { db in try Schema.state(db) }
      try state.refuseNewer(path: displayName)
      if state == .current { return false }
      // A file in WAL mode (the app's Core Data store) passed the check as it opened.
      if state == .notAStore, let reason = try dbWriter.read(Schema.foreignDatabase) {
        throw BowTieError.storeUnreadable(path: displayName, reason: reason)
      }
      // GRDB's migrator reads which migrations are applied before it takes the write
      // lock, so two processes could both run one; a file lock serializes them.
      let lock = try lockFile.map { try FileLock(exclusiveAt: $0) }
      defer { lock?.unlock() }
      // Looked at under the lock: of two processes that found the file empty, one fills it.
      if try dbWriter.read(Schema.isEmpty), try fill(self) { return true }
      try Schema.migrator(readingPhotoFile: photos.contents).migrate(dbWriter)
      return false
    } catch {
      throw storeError(error)
    }
  }
}
