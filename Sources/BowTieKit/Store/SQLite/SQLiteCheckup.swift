import BowTieModel
import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#endif

// What `doctor` checks of a SQLite store file before its rows: the file itself, SQLite's
// integrity check and the schema.
extension SQLiteEngine {
  /// Examines the store file at `url` without creating or upgrading it: SQLite's
  /// integrity, the schema version, then the rows, the colors and the photo files
  /// (``BowTieStore/checkContents(_:repairing:)``). With `repairing`, fixes what can be
  /// fixed without guessing, an older schema upgraded among them.
  ///
  /// - Throws: only when the store cannot be examined at all (missing, unreadable).
  static func checkup(at url: URL, repairing: Bool) throws(BowTieError) -> Checkup {
    _ = try BowTie.colorTransformer()
    var checkup = Checkup()
    var repairing = repairing
    var recreate: [SQL] = []
    try refuseAllButFile(at: url)
    guard access(url.path, R_OK) == 0 else {
      throw .storeUnreadable(path: url.path, reason: "permission denied")
    }
    // Read-only unless repairing, and without the migrator: it must not run before the
    // file is known to be sound.
    var unlocked: UnlockedRead?
    do {
      let queue: DatabaseQueue
      if repairing {
        queue = try DatabaseQueue(
          path: url.path,
          configuration: configuration(busyTimeout: BowTieStore.defaultBusyTimeout, pragmas: ""))
      } else {
        (queue, unlocked) = try openForReading(at: url)
      }
      defer { try? queue.close() }
      let integrity = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check")
      }
      // Damage found in a file another process rewrote as it was read is no damage.
      try unlocked?.check()
      if integrity != ["ok"] {
        for line in integrity.prefix(20) { checkup.report(.integrity, nil, line) }
        return checkup
      }
      let schema = try queue.read { db in try Schema.state(db, checkingTables: true) }
      try unlocked?.check()
      // Not another program's database: a store not made yet, which doctor does not make.
      if schema == .notAStore, try queue.read(Schema.isEmpty) {
        checkup.isEmptyFile = true
        checkup.report(
          .schema, nil,
          "an empty SQLite file, no store yet: the next command makes it one, as it makes a "
            + "missing store")
        return checkup
      }
      // Another program's database is named for what it is, as opening it names it: a
      // Core Data store, with the command that imports it.
      if schema == .notAStore, let reason = try queue.read(Schema.foreignDatabase) {
        checkup.report(.schema, nil, reason)
        return checkup
      }
      switch schema {
      case .current, .older:
        let differences = try queue.read(Schema.differences)
        try unlocked?.check()
        // Each statement of a repair, or of an upgrade, would run another program's triggers.
        if differences.contains(where: \.isForeign) { repairing = false }
        for difference in differences {
          let repairs = repairing && difference.recreate != nil
          let advice = difference.recreate != nil && !repairs ? "; --repair makes it again" : ""
          checkup.report(.schemaObject, nil, difference.line + advice, repaired: repairs)
          if repairs, let sql = difference.recreate { recreate.append(sql) }
        }
      case .newer, .notAStore: break
      }
      guard checkup.report(schema: schema, repairing: repairing) else { return checkup }
      if !repairing {
        try BowTieStore(engine: SQLiteEngine(opened: queue, at: url, unlocked: unlocked))
          .checkContents(&checkup, repairing: false)
        return checkup
      }
    } catch let error as DatabaseError
      where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode)
    {
      try unlocked?.check()
      checkup.report(.integrity, nil, "not a SQLite database, or damaged (\(error.message ?? ""))")
      return checkup
    } catch let error as BowTieError {
      throw error
    } catch {
      try unlocked?.check()
      throw storeError(error, path: url.path)
    }
    // Opening it to write migrates an older schema.
    let engine = try open(at: url).engine
    let store = BowTieStore(engine: engine)
    defer { try? store.closeDatabase() }
    try store.checkContents(&checkup, repairing: true)
    // Last, so that the rows are repaired as they stood.
    if !recreate.isEmpty {
      try engine.write(rollingBack: false) { db, _ in
        for sql in recreate { try db.execute(sql) }
      }
    }
    return checkup
  }
}
