import Foundation

/// Copies an inventory from one store into another of the other engine, row by row: a
/// backup is always a SQLite file, so backing up a PostgreSQL store, or restoring a backup
/// into one, goes through here. (Two SQLite files copy each other with SQLite's backup
/// API instead.)
///
/// Each column is copied as it is stored (a color's archive, a price's text, a date's
/// text), not decoded and encoded again, so that `export` reads the same from either
/// store. Ids are kept, the wears' and the undo log's too, so that `undo` and `history`
/// go on where they were.
enum StoreTransfer {
  /// What a transfer copied.
  struct Copied {
    var ties = 0
    var photos = 0
  }

  static let tables = ["bowTie", "wearEvent", "undoEntry"]

  /// Replaces everything `target` holds with what `source` holds: one consistent read of
  /// `source`, copied in one write transaction on `target`.
  ///
  /// The target's photos that nothing refers to afterwards are left for the engine's
  /// clean-up, after the commit.
  static func replace(contentsOf target: any StoreEngine, with source: any StoreEngine)
    throws(BowTieError) -> Copied
  {
    try source.read { from in
      try target.write(rollingBack: false) { into, photos in
        try replace(into, photos: photos, with: from, readingPhotosFrom: source)
      }
    }
  }

  private static func replace(
    _ target: any SQLConnection, photos: any PhotoWriter, with source: any SQLConnection,
    readingPhotosFrom engine: any StoreEngine
  ) throws -> Copied {
    if let lock = target.dialect.lockForReplacing(tables) { try target.execute(lock) }
    for table in tables.reversed() { try target.execute("DELETE FROM \(table)") }

    var copied = Copied()
    var kept = Set<String>()
    // A photo referred to by several ties, or by a tie and an undo entry, is read once.
    func keep(_ value: SQLValue, size: SQLValue, tie: String) throws {
      guard case .text(let name) = value, !kept.contains(name) else { return }
      let data = try engine.readPhoto(name, expectedSize: Int.decode(size), tie: tie)
      guard try photos.store(data) == name else {
        throw BowTieError.storeUnreadable(
          path: "", reason: "the photo \(name) is not named by its content")
      }
      kept.insert(name)
    }

    let columns = BowTie.storedColumns
    try source.forEachRow(
      "SELECT \(columns.joined(separator: ", ")) FROM bowTie ORDER BY id", []
    ) { row in
      try keep(row["photoFile"], size: row["photoSize"], tie: (try? row.decode("name")) ?? "")
      try target.executeMany(BowTie.insertSQL, columns.map { row[$0] })
      copied.ties += 1
    }
    try copyRows(of: "wearEvent", columns: ["id", "tieId", "wornAt"], from: source, to: target)
    // The wear-count triggers counted each wear again on top of the copied count.
    try target.execute(
      """
      UPDATE bowTie SET timesWorn = timesWorn
        - (SELECT count(*) FROM wearEvent WHERE wearEvent.tieId = bowTie.id)
      WHERE EXISTS (SELECT 1 FROM wearEvent WHERE wearEvent.tieId = bowTie.id)
      """)

    let undoColumns = ["id", "madeAt", "madeBy", "tieId", "change", "photoFile"]
    try source.forEachRow(
      "SELECT \(undoColumns.joined(separator: ", ")) FROM undoEntry ORDER BY id", []
    ) { row in
      try keep(row["photoFile"], size: .null, tie: "")
      try target.executeMany(insert(into: "undoEntry", undoColumns), undoColumns.map { row[$0] })
    }
    for table in ["wearEvent", "undoEntry"] {
      if let catchUp = target.dialect.identityCatchUp(table: table, column: "id") {
        try target.execute(catchUp)
      }
    }
    copied.photos = kept.count
    return copied
  }

  private static func copyRows(
    of table: String, columns: [String], from source: any SQLConnection,
    to target: any SQLConnection
  ) throws {
    let sql = insert(into: table, columns)
    try source.forEachRow(
      "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY id", []
    ) { row in
      try target.executeMany(sql, columns.map { row[$0] })
    }
  }

  private static func insert(into table: String, _ columns: [String]) -> String {
    "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
      + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
  }
}
