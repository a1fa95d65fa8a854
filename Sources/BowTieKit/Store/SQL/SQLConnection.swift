import Foundation

/// What one database engine says its own way. Every statement the store runs is written
/// once, in the SQL both engines read; the few things that cannot be said the same way on
/// both are asked of the dialect.
public enum SQLDialect: Sendable, Equatable {
  case sqlite
  case postgresql

  /// What ends a `SELECT` that reads rows a write transaction is about to change, so that
  /// a concurrent writer waits for them: PostgreSQL's row locks. A SQLite write
  /// transaction (`BEGIN IMMEDIATE`) already holds the whole store.
  public var lockingRead: String {
    switch self {
    case .sqlite: ""
    case .postgresql: " FOR UPDATE"
    }
  }

  /// What a transaction that replaces every row runs first, so that no other client
  /// writes in the meantime while readers still see the rows being replaced: on
  /// PostgreSQL a lock on the tables; a SQLite write transaction already holds the store.
  func lockForReplacing(_ tables: [String]) -> String? {
    switch self {
    case .sqlite: nil
    case .postgresql: "LOCK TABLE \(tables.joined(separator: ", ")) IN EXCLUSIVE MODE"
    }
  }

  /// What makes the next id an identity column hands out follow the largest one in
  /// `table`, after rows were inserted with ids of their own. SQLite does so by itself.
  func identityCatchUp(table: String, column: String) -> String? {
    switch self {
    case .sqlite: nil
    case .postgresql:
      "SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'), "
        + "COALESCE(max(\(column)), 0) + 1, false) FROM \(table)"
    }
  }

  /// Whole calendar days from the local day of `lastWorn` to the day bound as
  /// `:asOfDay` (`2026-11-21`), never below 0; NULL for a tie never worn. `:dayShift`
  /// says which days: ``dayShift(for:at:)``.
  ///
  /// SQLite: `julianday` of the two days' starts differ by a whole number. PostgreSQL:
  /// the difference of two `date`s is a whole number of days.
  var daysSinceWorn: String {
    switch self {
    case .sqlite:
      "max(0, CAST(julianday(:asOfDay) - julianday(lastWorn, :dayShift, 'start of day') AS INTEGER))"
    // GREATEST skips NULLs, where SQLite's max() gives NULL: a tie never worn needs its
    // NULL kept. The day is read once, in a subquery: a bound value is text, and the
    // server does not fold text's cast to date (it depends on DateStyle) but would read
    // it again for every row, a sixth of a report's scan of a million ties.
    case .postgresql:
      "CASE WHEN lastWorn IS NOT NULL THEN GREATEST(0, (SELECT CAST(:asOfDay AS date)) "
        + "- CAST(timezone(:dayShift, CAST(lastWorn AS timestamptz)) AS date)) END"
    }
  }

  /// The `:dayShift` for days counted in `timeZone`.
  ///
  /// SQLite: a date modifier, either a fixed offset ("+3600 seconds") for a zone without
  /// daylight-saving time, or `localtime`, SQLite's own reading of the process's zone
  /// (`TZ`), which only the process's own zone can use. PostgreSQL: the zone's name, which
  /// the server's own time zone database reads, or for a fixed offset a POSIX zone, whose
  /// sign is west of Greenwich ("UTC-01:00" is an hour east).
  ///
  /// - Throws: ``BowTieError/invalidValue(_:)`` for a zone SQLite cannot count in.
  func dayShift(for timeZone: TimeZone, at date: Date) throws(BowTieError) -> String {
    let fixed = timeZone.nextDaylightSavingTimeTransition(after: .distantPast) == nil
    let seconds = timeZone.secondsFromGMT(for: date)
    switch self {
    case .sqlite:
      if fixed { return "\(seconds < 0 ? "-" : "+")\(abs(seconds)) seconds" }
      guard timeZone.identifier == TimeZone.current.identifier else {
        throw .invalidValue(
          "days can be counted in the local time zone (\(TimeZone.current.identifier)) or a "
            + "fixed offset, not in \(timeZone.identifier)")
      }
      return "localtime"
    case .postgresql:
      guard fixed else { return timeZone.identifier }
      let west = -seconds
      return
        "UTC\(west < 0 ? "-" : "+")\(abs(west) / 3600):\(abs(west) / 60 % 60):\(abs(west) % 60)"
    }
  }
}

/// A connection inside one transaction: SQL in, rows out. The store's code reaches the
/// database through this alone, on either engine.
///
/// Statements use `?` for positional values and `:name` for named ones; a literal in
/// the SQL text holds neither.
public protocol SQLConnection {
  var dialect: SQLDialect { get }

  /// Runs a statement that returns no rows.
  func execute(_ sql: String, _ arguments: SQLArguments) throws

  /// Runs a statement, calling `body` with each row as it comes: a result of any size
  /// costs no memory, and `body` may run other statements. The row is valid only during
  /// the call (``SQLRow/snapshot()``).
  func forEachRow(_ sql: String, _ arguments: SQLArguments, _ body: (any SQLRow) throws -> Void)
    throws

  /// Runs a statement whose result is known to be small (a few rows, a count) and returns
  /// it whole: an engine across a network reads it in one exchange.
  func fetchRows(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRowSnapshot]

  /// Runs a statement that returns no rows with positional `values`, as one of many
  /// alike: a seed's inserts, once per tie. An engine may bind them its fastest way, and
  /// may run them later, in batches, within the same transaction: before any other
  /// statement runs (the commit among them), so that it sees them, and grouped by
  /// statement in the order each was first given, so that a row may rely on rows of a
  /// statement given before its own (a wear on its tie). An error in a row may then be
  /// thrown by a later call.
  func executeMany(_ sql: String, _ values: [SQLValue]) throws

  /// Before loading many rows into empty tables: drops the secondary indexes an engine
  /// builds faster once, from all the rows, than row by row, and returns the statements
  /// that build them again, for the end of the same transaction. None where that does
  /// not pay.
  func suspendIndexes() throws -> [String]
}

extension SQLConnection {
  public func executeMany(_ sql: String, _ values: [SQLValue]) throws {
    try execute(sql, SQLArguments(values))
  }

  public func suspendIndexes() throws -> [String] { [] }

  public func fetchRows(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRowSnapshot] {
    var rows: [SQLRowSnapshot] = []
    try forEachRow(sql, arguments) { rows.append($0.snapshot()) }
    return rows
  }

  public func execute(_ sql: String) throws {
    try execute(sql, SQLArguments())
  }

  /// The first row, kept; nil when there is none.
  public func fetchOne(_ sql: String, _ arguments: SQLArguments = SQLArguments()) throws
    -> SQLRowSnapshot?
  {
    try fetchRows(sql, arguments).first
  }

  /// Every row, mapped as it comes.
  public func fetchAll<T>(
    _ sql: String, _ arguments: SQLArguments = SQLArguments(), _ transform: (any SQLRow) throws -> T
  ) throws -> [T] {
    try fetchRows(sql, arguments).map(transform)
  }

  /// The first column of the first row, as `Value`; nil when there is no row or it is NULL.
  public func fetchValue<Value: SQLValueDecodable>(
    _ sql: String, _ arguments: SQLArguments = SQLArguments(), as type: Value.Type = Value.self
  ) throws -> Value? {
    guard let row = try fetchOne(sql, arguments), row[0] != .null else { return nil }
    guard let value = Value.decode(row[0]) else {
      throw BowTieError.storeUnreadable(path: "", reason: "a value cannot be read (\(row[0]))")
    }
    return value
  }

  /// The first column of every row, as `Value`; NULLs are skipped.
  public func fetchValues<Value: SQLValueDecodable>(
    _ sql: String, _ arguments: SQLArguments = SQLArguments(), as type: Value.Type = Value.self
  ) throws -> [Value] {
    try fetchRows(sql, arguments).compactMap { row in
      row[0] == .null ? nil : Value.decode(row[0])
    }
  }
}
