import BowTieModel
import Foundation
import GRDB

// How the SQLite store's connections are configured, and how its schema is brought up to
// date.
extension SQLiteEngine {
  /// How a connection to a store is configured: `prepare` runs as each connection opens;
  /// by default ``prepareStore(_:busyTimeout:)``, which a store's own connections want.
  static func configuration(
    busyTimeout: TimeInterval,
    prepare: (@Sendable (Database) throws -> Void)? = nil
  ) -> Configuration {
    var config = Configuration()
    config.busyMode = .timeout(busyTimeout)
    config.label = "BowTies"
    config.prepareDatabase(prepare ?? { db in try prepareStore(db, busyTimeout: busyTimeout) })
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
  static func prepareStore(_ db: Database, busyTimeout: TimeInterval) throws {
    try db.namingSystemErrors {
      if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
        if let reason = try Schema.foreignDatabase(db) {
          throw BowTieError.storeUnreadable(path: "", reason: reason)
        }
        try switchToWAL(db, busyTimeout: busyTimeout)
      }
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
  }

  /// Puts the file in WAL mode. SQLite makes the change inside the read transaction of the
  /// pragma's own statement, where it calls no busy handler: another connection's lock
  /// fails it at once ("database is locked"), as it does when processes open a file
  /// without a schema together. So a refused change is tried again, as the busy handler
  /// would try a lock, until `busyTimeout` has passed.
  private static func switchToWAL(_ db: Database, busyTimeout: TimeInterval) throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(busyTimeout * 1000))
    while true {
      do {
        try db.execute(sql: "PRAGMA journal_mode = WAL")
        return
      } catch let error as DatabaseError
        where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline
      {
        usleep(10_000)
      }
    }
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
      // A file in WAL mode (the app's Core Data store) passed the check as it opened.
      if state == .notAStore, let reason = try dbWriter.read(Schema.foreignDatabase) {
        throw BowTieError.storeUnreadable(path: displayName, reason: reason)
      }
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
