import BowTieModel
import Foundation
import GRDB
import GRDBSQLite

/// A GRDB connection, inside one of its transactions, as the store's code reaches it.
///
/// Every statement is GRDB's cached statement for its SQL: a command runs a handful, and a
/// seed runs the same few a hundred thousand times.
///
/// Rows read (``forEachRow(_:_:)``) and rows inserted by the thousand
/// (``insertMany(into:columns:rows:)``) have their values bound and their statement stepped
/// through SQLite's C API, the store's only raw `sqlite3_*` calls, kept because they are
/// measured hot paths (docs/performance.md, "Seeding"): GRDB's `StatementArguments` (a
/// generic map and a recursion per value) and the row its cursor builds cost more than
/// SQLite's own work for a row found by an index. GRDB's own stepping would add nothing
/// these statements need: the store registers no transaction observer, and none of them
/// begins or ends a transaction.
struct SQLiteConnection: SQLConnection {
  let db: Database

  var dialect: any SQLDialect { SQLiteDialect() }

  func execute(_ sql: SQL) throws {
    if sql.values.isEmpty {
      // Schema changes run several statements at once, which a cached statement cannot.
      try db.execute(sql: sql.text)
      return
    }
    try db.cachedStatement(sql: sql.text).execute(arguments: sql.statementArguments)
  }

  func forEachRow(_ sql: SQL, _ body: (any SQLRow) throws -> Void) throws {
    let statement = try db.cachedStatement(sql: sql.text)
    let handle = statement.sqliteStatement
    try bind(sql.values, to: statement)
    // Reset when done, so that the statement holds no read open; the bytes bound stay
    // SQLite's own copies until the next look-up binds its own.
    defer { sqlite3_reset(handle) }
    let columns = SQLiteStatementRow.Columns(statement)
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else { throw error(code, statement) }
      try body(SQLiteStatementRow(statement: handle, columns: columns))
    }
  }

  /// One prepared `INSERT`, stepped once a row.
  func insertMany(
    into table: String, columns: [String],
    rows: (_ insert: (_ row: [SQLValue]) throws -> Void) throws -> Void
  ) throws {
    let statement = try db.cachedStatement(
      sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
    try rows { values in try step(statement, values) }
  }

  private func step(_ statement: Statement, _ values: [SQLValue]) throws {
    let handle = statement.sqliteStatement
    try bind(values, to: statement)
    let code = sqlite3_step(handle)
    guard code == SQLITE_DONE else {
      let error = error(code, statement)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Resets `statement` and binds `values` to its parameters, in order.
  private func bind(_ values: [SQLValue], to statement: Statement) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    // A value left out would keep the previous row's.
    guard values.count == Int(sqlite3_bind_parameter_count(handle)) else {
      throw DatabaseError(
        resultCode: .SQLITE_RANGE, message: "\(values.count) values for the columns",
        sql: statement.sql)
    }
    for (index, value) in zip(Int32(1)..., values) {
      let code: Int32
      switch value {
      case .null: code = sqlite3_bind_null(handle, index)
      case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
      case .real(let number): code = sqlite3_bind_double(handle, index, number)
      case .text(var text):
        // By its length, not up to a NUL: text may hold one. An empty buffer may have no
        // address, which SQLite would bind as NULL.
        code = text.withUTF8 { utf8 in
          guard let bytes = utf8.baseAddress else {
            return sqlite3_bind_text(handle, index, "", 0, Self.transient)
          }
          return sqlite3_bind_text(handle, index, bytes, Int32(utf8.count), Self.transient)
        }
      case .blob(let data):
        code = data.withUnsafeBytes {
          sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient)
        }
      }
      guard code == SQLITE_OK else { throw error(code, statement) }
    }
  }

  /// For a large seed into an empty store: SQLite builds an index from its rows in one
  /// sort, faster than it grows it by inserts in random order (a random UUID, a name, a
  /// date per row). The unique ones (`id`, `canonicalKey`) stay: seeding relies on them.
  /// Inside the seed's transaction, no other connection ever sees the store without
  /// them, and a failed seed rolls the drop back too.
  func suspendIndexes() throws -> [SQL] {
    let indexes = try Row.fetchAll(
      db,
      sql: """
        SELECT name, sql FROM sqlite_master
        WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('bowTie', 'wearEvent')
        ORDER BY name
        """)
    for index in indexes {
      let name: String = index["name"]
      try db.execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
    }
    return indexes.map { SQL(sql: $0["sql"]) }
  }

  /// `SQLITE_TRANSIENT`, which C defines as a cast Swift does not import: SQLite copies the
  /// bytes before the call returns.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  /// The error of a raw call in ``insertMany(into:columns:rows:)``, as GRDB would have
  /// thrown it.
  private func error(_ code: Int32, _ statement: Statement) -> DatabaseError {
    DatabaseError(
      resultCode: ResultCode(rawValue: code),
      message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
  }
}

/// The row a statement stands on, read straight from SQLite: for the loops over every tie
/// or wear, where GRDB's generic decoding of each value by name cost more than SQLite's
/// own work for the row (docs/performance.md, "list --json and history").
struct SQLiteStatementRow: SQLRow {
  /// The statement's column names and where each is, found once for all its rows: shared
  /// by them, so that the indexes by lowercased name are made at most once.
  final class Columns {
    let names: [String]
    /// The indexes by lowercased name, made at the first name not found as it is: a row
    /// asked for a column it does not have (a listing has no photo bytes) would otherwise
    /// lowercase every name of the row, once a row. A look-up whose names are all found
    /// (a tie read by its key) never makes them.
    private var lowercasedIndexes: [String: Int32]?

    init(_ statement: Statement) {
      names = statement.columnNames
    }

    /// The column's index; like GRDB, whatever the case of its name. A row has a few
    /// columns, asked for by the names the statement gave them: comparing names one by one
    /// costs less than hashing the name, once per column of every row.
    func index(of name: String) -> Int32? {
      if let index = names.firstIndex(of: name) { return Int32(index) }
      if lowercasedIndexes == nil {
        lowercasedIndexes = Dictionary(
          names.enumerated().map { ($1.lowercased(), Int32($0)) },
          uniquingKeysWith: { first, _ in first })
      }
      return lowercasedIndexes?[name.lowercased()]
    }
  }

  let statement: SQLiteStatement
  let columns: Columns

  subscript(_ column: String) -> SQLValue {
    columns.index(of: column).map(value) ?? .null
  }

  subscript(_ index: Int) -> SQLValue {
    index >= 0 && index < columns.names.count ? value(Int32(index)) : .null
  }

  var columnNames: [String] { columns.names }

  private func value(_ index: Int32) -> SQLValue {
    SQLValue(DatabaseValue(sqliteStatement: statement, index: index))
  }
}

/// A GRDB row, read as the store's code reads rows on either engine.
struct SQLiteRow: SQLRow {
  let row: Row

  subscript(_ column: String) -> SQLValue {
    (row[column] as DatabaseValue?).map(SQLValue.init) ?? .null
  }

  subscript(_ index: Int) -> SQLValue {
    index < row.count ? SQLValue(row[index] as DatabaseValue) : .null
  }

  var columnNames: [String] { Array(row.columnNames) }
}

extension SQLValue {
  init(_ value: DatabaseValue) {
    switch value.storage {
    case .null: self = .null
    case .int64(let number): self = .integer(number)
    case .double(let number): self = .real(number)
    case .string(let text): self = .text(text)
    case .blob(let data): self = .blob(data)
    }
  }

  var databaseValue: DatabaseValue {
    switch self {
    case .null: .null
    case .integer(let number): number.databaseValue
    case .real(let number): number.databaseValue
    case .text(let text): text.databaseValue
    case .blob(let data): data.databaseValue
    }
  }
}

extension SQL {
  /// The values, bound in order to the text's `?`s.
  var statementArguments: StatementArguments {
    StatementArguments(values.map(\.databaseValue))
  }
}
