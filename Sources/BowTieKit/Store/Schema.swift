import GRDB

/// The store's schema, versioned with GRDB's migrator.
///
/// Migrations use string literals only, never the record's `Columns`, and are never
/// edited once landed: a store must read the same whatever the code looks like today.
/// Nothing is ever erased because the schema changed.
enum Schema {
  static var migrator: DatabaseMigrator {
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

    // Later migrations are appended here.

    return migrator
  }
}
