import BowTieModel
import Foundation

/// What one engine says its own way. Every statement the store runs is written once, in
/// the SQL both engines read; the few things that cannot be said the same way on both
/// are asked of the engine's dialect, which the engine itself provides.
public protocol SQLDialect: Sendable {
  /// What ends a `SELECT` that reads rows a write transaction is about to change, so that
  /// a concurrent writer waits for them; empty where the write transaction already holds
  /// the whole store.
  var lockingRead: SQL { get }

  /// What a transaction that replaces every row of `tables` runs first, so that no other
  /// client writes in the meantime while readers still see the rows being replaced; nil
  /// where the write transaction already holds the store.
  func lockForReplacing(_ tables: [String]) -> SQL?

  /// What makes the next id an identity column hands out follow the largest one in
  /// `table`, after rows were inserted with ids of their own; nil where the engine does so
  /// by itself.
  func identityCatchUp(table: String, column: String) -> SQL?

  /// Whole calendar days from the local day of `lastWorn` to `asOfDay` (`2026-11-21`),
  /// never below 0; NULL for a tie never worn. `dayShift` says which days
  /// (``dayShift(for:at:)``).
  func daysSinceWorn(asOfDay: String, dayShift: String) -> SQL

  /// What ``daysSinceWorn(asOfDay:dayShift:)`` takes to count days in `timeZone`.
  ///
  /// - Throws: ``BowTieError/invalidValue(_:)`` for a zone the engine cannot count in.
  func dayShift(for timeZone: TimeZone, at date: Date) throws(BowTieError) -> String
}

/// A connection inside one transaction: SQL in, rows out. The store's code reaches the
/// database through this alone, on either engine.
public protocol SQLConnection {
  var dialect: any SQLDialect { get }

  /// Runs a statement that returns no rows.
  func execute(_ sql: SQL) throws

  /// Runs a statement, calling `body` with each row as it comes: a result of any size
  /// costs no memory, and `body` may run other statements. The row is valid only during
  /// the call (``SQLRow/snapshot()``).
  func forEachRow(_ sql: SQL, _ body: (any SQLRow) throws -> Void) throws

  /// Runs a statement whose result is known to be small (a few rows, a count) and returns
  /// it whole: an engine across a network reads it in one exchange.
  func fetchRows(_ sql: SQL) throws -> [SQLRowSnapshot]

  /// Inserts rows into `columns` of `table`, as many as `rows` hands to `insert`, each
  /// one value for each column: a seed's ties and their wears, a whole inventory copied
  /// from another store.
  ///
  /// An engine loads them its fastest way: SQLite steps one prepared statement a row;
  /// PostgreSQL sends them by `COPY`, in batches. `rows` may run other statements between
  /// rows (a look-up, a photo's insert): rows given before a statement are in the table
  /// when it runs. Rows given to several nested calls reach their tables in the order the
  /// calls began, so that a row may rely on a row of an outer call (a wear on its tie).
  /// An error in a row may be thrown by a later call or statement of the transaction,
  /// which then fails as a whole.
  func insertMany(
    into table: String, columns: [String],
    rows: (_ insert: (_ row: [SQLValue]) throws -> Void) throws -> Void
  ) throws

  /// Before loading many rows into empty tables: drops the secondary indexes an engine
  /// builds faster once, from all the rows, than row by row, and returns the statements
  /// that build them again, for the end of the same transaction. None where that does
  /// not pay.
  func suspendIndexes() throws -> [SQL]
}

extension SQLConnection {
  public func suspendIndexes() throws -> [SQL] { [] }

  public func fetchRows(_ sql: SQL) throws -> [SQLRowSnapshot] {
    var rows: [SQLRowSnapshot] = []
    try forEachRow(sql) { rows.append($0.snapshot()) }
    return rows
  }

  /// The first row, kept; nil when there is none.
  public func fetchOne(_ sql: SQL) throws -> SQLRowSnapshot? {
    try fetchRows(sql).first
  }

  /// Every row, mapped as it comes.
  public func fetchAll<T>(_ sql: SQL, _ transform: (any SQLRow) throws -> T) throws -> [T] {
    try fetchRows(sql).map(transform)
  }

  /// The first column of the first row, as `Value`; nil when there is no row or it is NULL.
  public func fetchValue<Value: SQLValueDecodable>(
    _ sql: SQL, as type: Value.Type = Value.self
  ) throws -> Value? {
    guard let row = try fetchOne(sql), row[0] != .null else { return nil }
    guard let value = Value.decode(row[0]) else {
      throw BowTieError.storeUnreadable(path: "", reason: "a value cannot be read (\(row[0]))")
    }
    return value
  }

  /// The first column of every row, as `Value`; NULLs are skipped.
  public func fetchValues<Value: SQLValueDecodable>(
    _ sql: SQL, as type: Value.Type = Value.self
  ) throws -> [Value] {
    try fetchRows(sql).compactMap { row in
      row[0] == .null ? nil : Value.decode(row[0])
    }
  }
}
