import BowTieModel
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
    for table in tables.reversed() { try target.execute("DELETE FROM \(sql: table)") }

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

    try copyRows(of: BowTie.Columns.table, BowTie.Columns.stored, from: source, to: target) {
      row in
      try keep(
        row[BowTie.Columns.photoFile], size: row[BowTie.Columns.photoSize],
        tie: (try? row.decode(BowTie.Columns.name)) ?? "")
      copied.ties += 1
    }
    try copyRows(of: WearEvent.Columns.table, WearEvent.Columns.all, from: source, to: target)
    // The wear-count triggers counted each wear again on top of the copied count.
    try target.execute(
      """
      UPDATE bowTie SET timesWorn = timesWorn
        - (SELECT count(*) FROM wearEvent WHERE wearEvent.tieId = bowTie.id)
      WHERE EXISTS (SELECT 1 FROM wearEvent WHERE wearEvent.tieId = bowTie.id)
      """)
    try copyRows(of: UndoEntry.Columns.table, UndoEntry.Columns.all, from: source, to: target) {
      row in try keep(row[UndoEntry.Columns.photoFile], size: .null, tie: "")
    }
    for table in [WearEvent.Columns.table, UndoEntry.Columns.table] {
      if let catchUp = target.dialect.identityCatchUp(table: table, column: "id") {
        try target.execute(catchUp)
      }
    }
    copied.photos = kept.count
    return copied
  }

  /// Copies `columns` of every row of `table`, in the order of their ids, calling `each`
  /// with each row before it is copied.
  private static func copyRows(
    of table: String, _ columns: [String], from source: any SQLConnection,
    to target: any SQLConnection, each: (any SQLRow) throws -> Void = { _ in }
  ) throws {
    try target.insertMany(into: table, columns: columns) { insert in
      try source.forEachRow(
        "SELECT \(sql: columns.joined(separator: ", ")) FROM \(sql: table) ORDER BY id"
      ) { row in
        try each(row)
        try insert(columns.map { row[$0] })
      }
    }
  }
}
