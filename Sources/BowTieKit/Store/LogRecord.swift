import GRDB

/// A record of a table that only grows by one row per change, keyed by its row id
/// (`id INTEGER PRIMARY KEY`): the wear events and the undo log.
protocol LogRecord: MutablePersistableRecord {
  var id: Int64? { get set }
}

extension LogRecord {
  /// Inserts the record, with the columns its `encode(to:)` writes, and takes its new
  /// row id: what `insert(_:)` does, without GRDB first reading the table's schema to
  /// find its primary key.
  ///
  /// A process runs one command, so GRDB's schema cache never outlives its first use:
  /// every `wear`, `rate` and `favorite` paid for that reading (`PRAGMA` queries, and
  /// conformance scans), for a key the table's definition in `Schema.swift` already
  /// gives. With the updates in SQL (`BowTieStore.set(_:to:of:in:)`), doing without it
  /// took a `wear` from 17.6 M to 13.8 M instructions.
  mutating func append(to db: Database) throws {
    let values = try databaseDictionary
    let columns = values.keys.sorted()
    // Loops, not `joined(separator:)` (nor GRDB's `databaseQuestionMarks`, which joins):
    // the first use of that generic on a type costs a scan of every protocol conformance,
    // about 277,000 instructions, 4 % of a `wear`.
    var sql = "INSERT INTO \(Self.databaseTableName.quotedDatabaseIdentifier) ("
    var placeholders = ""
    for (index, column) in columns.enumerated() {
      let separator = index == 0 ? "" : ", "
      sql += separator + column.quotedDatabaseIdentifier
      placeholders += separator + "?"
    }
    sql += ") VALUES (" + placeholders + ")"
    try db.execute(sql: sql, arguments: StatementArguments(columns.map { values[$0] }))
    id = db.lastInsertedRowID
  }
}

extension WearEvent: LogRecord {}
extension UndoEntry: LogRecord {}
