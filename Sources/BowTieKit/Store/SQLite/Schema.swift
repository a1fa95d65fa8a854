import BowTieModel
import Foundation
import GRDB

/// A SQLite store's schema, versioned with GRDB's migrator. (A PostgreSQL store's is the
/// same tables in that engine's types: the BowTiePostgres module.)
///
/// Migrations use string literals only, never the record's `Columns`, and are never
/// edited once landed: a store must read the same whatever the code looks like today.
/// Nothing is ever erased because the schema changed.
enum Schema {
  /// The migrations, for their names; photo files are not read.
  static var migrator: DatabaseMigrator { migrator(readingPhotoFile: { _ in nil }) }

  /// The migrations, reading external photo files through `readingPhotoFile` (by name).
  static func migrator(readingPhotoFile: @escaping @Sendable (String) -> Data?)
    -> DatabaseMigrator
  {
    var migrator = DatabaseMigrator()

    migrator.registerMigration("v1: bow ties") { db in
      try db.execute(
        sql: """
          CREATE TABLE bowTie (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL CHECK (length(trim(name)) > 0),
            canonicalName TEXT NOT NULL,
            searchKey TEXT NOT NULL CHECK (length(searchKey) > 0),
            canonicalKey TEXT NOT NULL UNIQUE,
            rating REAL NOT NULL CHECK (rating BETWEEN 0 AND 5),
            timesWorn INTEGER NOT NULL DEFAULT 0 CHECK (timesWorn BETWEEN 0 AND 2147483647),
            lastWorn TEXT,
            isFavorite INTEGER NOT NULL DEFAULT 0 CHECK (isFavorite IN (0, 1)),
            url TEXT,
            tintColor BLOB,
            photoData BLOB,
            photoFile TEXT,
            photoSize INTEGER CHECK (photoSize IS NULL OR photoSize >= 0),
            CHECK (photoData IS NULL OR photoFile IS NULL)
          );
          CREATE INDEX bowTie_canonicalName ON bowTie(canonicalName);
          CREATE INDEX bowTie_photoFile ON bowTie(photoFile) WHERE photoFile IS NOT NULL;
          """)
    }

    // Every wear becomes an event. `timesWorn` stays a column, so listings stay cheap,
    // but triggers keep it equal to `wearsBeforeHistory` (the count a seed brought) plus
    // the events: no code path, and no other tool, can move one without the other.
    migrator.registerMigration("v2: wear history and undo log") { db in
      try db.execute(
        sql: """
          ALTER TABLE bowTie ADD COLUMN wearsBeforeHistory INTEGER NOT NULL DEFAULT 0
            CHECK (wearsBeforeHistory >= 0);
          UPDATE bowTie SET wearsBeforeHistory = timesWorn;
          CREATE TABLE wearEvent (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tieId TEXT NOT NULL REFERENCES bowTie(id) ON DELETE CASCADE,
            wornAt TEXT NOT NULL
          );
          CREATE INDEX wearEvent_tieId_wornAt ON wearEvent(tieId, wornAt);
          CREATE INDEX wearEvent_wornAt ON wearEvent(wornAt);
          CREATE TRIGGER wearEvent_afterInsert AFTER INSERT ON wearEvent BEGIN
            UPDATE bowTie SET timesWorn = timesWorn + 1 WHERE id = NEW.tieId;
          END;
          CREATE TRIGGER wearEvent_afterDelete AFTER DELETE ON wearEvent BEGIN
            UPDATE bowTie SET timesWorn = timesWorn - 1 WHERE id = OLD.tieId;
          END;
          CREATE TABLE undoEntry (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            madeAt TEXT NOT NULL,
            tieId TEXT NOT NULL,
            change TEXT NOT NULL
          );
          """)
    }

    // Prices are exact decimals kept as text ("19.99"), never binary floating point.
    // An undo entry may hold the last reference to an external photo (a removed tie's),
    // so it names the file, and photo clean-up looks here too.
    migrator.registerMigration("v3: prices, photos kept for undo") { db in
      try db.execute(
        sql: """
          ALTER TABLE bowTie ADD COLUMN price TEXT CHECK (price IS NULL OR length(price) > 0);
          ALTER TABLE undoEntry ADD COLUMN photoFile TEXT;
          CREATE INDEX undoEntry_photoFile ON undoEntry(photoFile) WHERE photoFile IS NOT NULL;
          """)
    }

    // A seeded tie's lastWorn is the date of a real wear, which the history did not hold:
    // a new store's monthly chart was empty. It becomes one recorded wear, taken from the
    // wears before the history, so timesWorn stays as it was. Ties whose lastWorn is
    // already a recorded wear (`wear` keeps it so) are left alone. It touches nothing v5
    // adds, and the migrator runs every migration a store lacks, so a store that reached
    // v5 first gets this one after.
    migrator.registerMigration("v4: seeded wears as events") { db in
      try db.execute(
        sql: """
          CREATE TEMP TABLE seededWear AS
            SELECT id, lastWorn FROM bowTie
            WHERE lastWorn IS NOT NULL AND wearsBeforeHistory > 0
              AND NOT EXISTS (
                SELECT 1 FROM wearEvent WHERE tieId = bowTie.id AND wornAt = bowTie.lastWorn);
          UPDATE bowTie SET wearsBeforeHistory = wearsBeforeHistory - 1, timesWorn = timesWorn - 1
            WHERE id IN (SELECT id FROM seededWear);
          INSERT INTO wearEvent (tieId, wornAt) SELECT id, lastWorn FROM seededWear;
          DROP TABLE seededWear;
          """)
    }

    // What a photo is (PNG or JPEG) and its size in pixels, so that `show` and
    // `list --json` say so without reading every photo. Photos stored so far were checked
    // for PNG's signature only: each is described from its header, and one that cannot be
    // read (damaged, or missing from the photo folder) keeps NULLs.
    migrator.registerMigration("v5: photo format and size") { db in
      try db.execute(
        sql: """
          ALTER TABLE bowTie ADD COLUMN photoFormat TEXT
            CHECK (photoFormat IS NULL OR length(photoFormat) > 0);
          ALTER TABLE bowTie ADD COLUMN photoWidth INTEGER CHECK (photoWidth IS NULL OR photoWidth > 0);
          ALTER TABLE bowTie ADD COLUMN photoHeight INTEGER
            CHECK (photoHeight IS NULL OR photoHeight > 0);
          """)
      let ids = try String.fetchAll(
        db, sql: "SELECT id FROM bowTie WHERE photoData IS NOT NULL OR photoFile IS NOT NULL")
      for id in ids {
        try BowTie.describePhoto(
          ofTie: id, in: SQLiteConnection(db: db), readingPhoto: readingPhotoFile)
      }
    }

    // Undo takes back the newest change made by the user who asks (`BOWTIES_USER`, else
    // user@host), so each change records who made it. Entries made before say '', which
    // anyone may undo, as anyone could then.
    migrator.registerMigration("v6: undo by user") { db in
      try db.execute(sql: "ALTER TABLE undoEntry ADD COLUMN madeBy TEXT NOT NULL DEFAULT ''")
    }

    // A price is in a currency, an ISO 4217 code beside it. The code's shape is a CHECK;
    // that a price has a currency and a currency a price is kept by triggers, since
    // SQLite checks a new column's CHECK against the rows already there, whose prices
    // have no currency until the UPDATE gives them one. What the user meant by those
    // prices nothing records: they are taken as US dollars (`Currency.unlabelled`, what
    // they showed as in the POSIX locale), and `bowties edit TIE --price "19.99 EUR"`
    // says otherwise.
    migrator.registerMigration("v7: price currency") { db in
      try db.execute(
        sql: """
          ALTER TABLE bowTie ADD COLUMN currency TEXT
            CHECK (currency IS NULL OR currency GLOB '[A-Z][A-Z][A-Z]');
          UPDATE bowTie SET currency = 'USD' WHERE price IS NOT NULL;
          CREATE TRIGGER bowTie_priceCurrency_insert BEFORE INSERT ON bowTie
            WHEN (NEW.price IS NULL) <> (NEW.currency IS NULL)
          BEGIN
            SELECT RAISE(ABORT, 'CHECK constraint failed: a price and its currency go together');
          END;
          CREATE TRIGGER bowTie_priceCurrency_update BEFORE UPDATE OF price, currency ON bowTie
            WHEN (NEW.price IS NULL) <> (NEW.currency IS NULL)
          BEGIN
            SELECT RAISE(ABORT, 'CHECK constraint failed: a price and its currency go together');
          END;
          """)
    }

    // The app's transformer allows UIColor, so its store holds UIKit's UIColor archives:
    // colors stored as bowties' own TieColor archives become the UIColor archive of the
    // same color (`ColorArchiveMigration`). TieColor archives stay readable, so a backup
    // made before still restores (and is migrated as it opens).
    migrator.registerMigration("v8: colors as UIColor archives") { db in
      try ColorArchiveMigration.run(in: SQLiteConnection(db: db))
    }

    // A tie's id is compared as text, so one another tool wrote in lower case (as
    // Python's uuid, uuidgen and PostgreSQL print them) names no row once bowties writes
    // it back in upper case: a wear would break the foreign key, a rating find no tie, a
    // removal remove nothing. UUIDs are the same in either case (RFC 9562), so those ids
    // become upper case, with the wears and undo entries that name them, and triggers
    // refuse a tie id, in a tie or a wear, that is not 36 characters in upper case, as the
    // CHECKs refuse a bad rating. They check length and case, the cause, rather than the
    // whole UUID pattern, which costs every seeded row more (docs/performance.md,
    // "Seeding"); an id that is no UUID at all is `doctor --repair`'s to replace. Foreign
    // keys stay on, deferred to the commit, so that a wear another tool left without its
    // tie cannot stop the upgrade.
    migrator.registerMigration("v9: tie ids in upper case", foreignKeyChecks: .immediate) { db in
      let refusal = "CHECK constraint failed: a tie id is a UUID in upper case"
      let triggers = [("bowTie", "id"), ("wearEvent", "tieId")].flatMap { table, column in
        [("insert", "INSERT"), ("update", "UPDATE OF \(column)")].map { name, event in
          """
          CREATE TRIGGER \(table)_\(column)_\(name) BEFORE \(event) ON \(table)
            WHEN length(NEW.\(column)) <> 36 OR NEW.\(column) <> upper(NEW.\(column))
          BEGIN
            SELECT RAISE(ABORT, '\(refusal)');
          END;
          """
        }
      }
      try db.execute(
        sql: """
          PRAGMA defer_foreign_keys = ON;
          UPDATE wearEvent SET tieId = upper(tieId) WHERE tieId <> upper(tieId);
          UPDATE undoEntry SET tieId = upper(tieId) WHERE tieId <> upper(tieId);
          UPDATE bowTie SET id = upper(id) WHERE id <> upper(id);
          \(triggers.joined(separator: "\n"))
          """)
    }

    // Later migrations are appended here.

    return migrator
  }

  /// How the store in `db` stands against these migrations: the one place that reads
  /// which are applied (GRDB's `grdb_migrations`), and whether its tables are there.
  ///
  /// - Parameter checkingTables: whether to look for the tables when the record says the
  ///   schema is current too, as `doctor` does; every command asks as it opens the store,
  ///   and trusts a complete record (a statement less, docs/performance.md, "The engine
  ///   boundary").
  static func state(_ db: Database, checkingTables: Bool = false) throws -> SchemaState {
    let migrator = migrator
    let state = SchemaState(
      applied: try migrator.appliedIdentifiers(db), known: migrator.migrations)
    switch state {
    case .newer: return state
    case .current where !checkingTables: return state
    default: break
    }
    // One statement, rather than GRDB's tableExists, which reads the whole schema.
    let names = ownTables.map { "'\($0.lowercased())'" }.joined(separator: ", ")
    let tables = try Int.fetchOne(
      db,
      sql: """
        SELECT count(*) FROM sqlite_master
        WHERE type = 'table' AND lower(name) IN (\(names))
        """)
    return tables == ownTables.count ? state : .notAStore
  }

  /// A way the schema of a store differs from what its migrations make.
  struct Difference {
    /// One line for `doctor`: "trigger t on wearEvent is not one of bowties' own".
    var line: String
    /// Another program's object, or one of bowties' that another program changed.
    var isForeign: Bool
    /// The SQL that makes a missing index, trigger or view again.
    var recreate: SQL?
  }

  /// What the schema of the bowties store in `db` holds that no migration makes, lacks of
  /// what its applied migrations made, or holds changed: another program's trigger would
  /// run inside bowties' own statements. Each index, trigger and view is compared by the
  /// SQL SQLite keeps for it with what the migrations make of a new database, one after
  /// another; tables by name only, since an upgrade alters their SQL. SQLite's own objects
  /// (`sqlite_stat1`, automatic indexes) aside. Empty for a schema with migrations this
  /// bowties does not know.
  static func differences(_ db: Database) throws -> [Difference] {
    let migrator = migrator
    let applied = try migrator.appliedIdentifiers(db)
    guard applied.isSubset(of: migrator.migrations) else { return [] }
    // Each object any migration makes: which made it first, and each SQL it ever had.
    let made = try DatabaseQueue()
    var madeBy: [String: String] = [:]
    var texts: [String: Set<String?>] = [:]
    var last: [String: SchemaObject] = [:]
    for migration in migrator.migrations {
      try migrator.migrate(made, upTo: migration)
      last = try made.read(objects)
      for (key, object) in last {
        if madeBy[key] == nil { madeBy[key] = migration }
        texts[key, default: []].insert(object.sql)
      }
    }
    let present = try objects(db)
    var differences: [Difference] = []
    for (key, object) in present.sorted(by: { $0.key < $1.key }) {
      guard let known = texts[key] else {
        differences.append(
          Difference(line: "\(object) is not one of bowties' own", isForeign: true))
        continue
      }
      if object.type != "table" && !known.contains(object.sql) {
        differences.append(
          Difference(line: "\(object) is not as bowties made it", isForeign: true))
      }
    }
    for (key, object) in last.sorted(by: { $0.key < $1.key })
    where present[key] == nil && madeBy[key].map(applied.contains) == true {
      let recreate = object.type == "table" ? nil : object.sql.map { SQL(sql: $0) }
      differences.append(
        Difference(line: "\(object) is missing", isForeign: false, recreate: recreate))
    }
    return differences
  }

  /// A table, index, trigger or view, as `sqlite_master` describes it.
  private struct SchemaObject: CustomStringConvertible {
    var type: String
    var name: String
    var table: String
    var sql: String?

    var description: String {
      type == "index" || type == "trigger" ? "\(type) \(name) on \(table)" : "\(type) \(name)"
    }
  }

  /// The objects of the schema in `db` by type and name, SQLite's own aside.
  private static func objects(_ db: Database) throws -> [String: SchemaObject] {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT type, name, tbl_name, sql FROM sqlite_master
        WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
        """)
    var objects: [String: SchemaObject] = [:]
    for row in rows {
      let object = SchemaObject(type: row[0], name: row[1], table: row[2], sql: row[3])
      objects["\(object.type) \(object.name)"] = object
    }
    return objects
  }

  /// Whether the database has no schema at all: a file just made, which becomes a store.
  static func isEmpty(_ db: Database) throws -> Bool {
    try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM sqlite_master)") == true
  }

  /// The tables every bowties store has, by which a file is told to be one.
  static let ownTables = ["bowTie", "grdb_migrations"]

  /// Why the database in `db` is another program's rather than a bowties store, or nil: it
  /// has tables, and not bowties' own. Such a file is refused before anything is written
  /// to it, its journal mode included; a file without tables (new, or empty) becomes a
  /// store.
  static func foreignDatabase(_ db: Database) throws -> String? {
    let tables = try String.fetchAll(
      db,
      sql: """
        SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
        ORDER BY name
        """)
    let present = Set(tables.map { $0.lowercased() })
    let missing = ownTables.filter { !present.contains($0.lowercased()) }
    guard !tables.isEmpty, let firstMissing = missing.first else { return nil }
    if tables.contains("Z_METADATA") {
      return "it is a Core Data store, not a bowties store (bowties seed FILE imports its ties)"
    }
    if missing.count < ownTables.count {
      return "it is not a bowties store or it is damaged (it has no \(firstMissing) table)"
    }
    let named = tables.prefix(3).joined(separator: ", ") + (tables.count > 3 ? ", …" : "")
    return "it is not a bowties store: a SQLite database whose tables are \(named)"
  }
}
