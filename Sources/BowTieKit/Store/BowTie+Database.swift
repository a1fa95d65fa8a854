import Foundation
import GRDB
import GRDBSQLite

// MARK: - Database

extension BowTie: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "bowTie"

  /// The value transformer the model names for `tintColor`, as a Core Data model does.
  /// The store refuses to open until a transformer is registered under this name.
  public static let tintColorTransformerName = ColorAttributeTransformer.name

  /// The table's columns.
  public enum Columns {
    public static let id = Column("id")
    public static let name = Column("name")
    public static let canonicalName = Column("canonicalName")
    public static let searchKey = Column("searchKey")
    public static let canonicalKey = Column("canonicalKey")
    public static let rating = Column("rating")
    public static let timesWorn = Column("timesWorn")
    public static let lastWorn = Column("lastWorn")
    public static let isFavorite = Column("isFavorite")
    public static let url = Column("url")
    public static let tintColor = Column("tintColor")
    public static let photoData = Column("photoData")
    public static let photoFile = Column("photoFile")
    public static let photoSize = Column("photoSize")
    public static let wearsBeforeHistory = Column("wearsBeforeHistory")
    public static let price = Column("price")
    public static let photoFormat = Column("photoFormat")
    public static let photoWidth = Column("photoWidth")
    public static let photoHeight = Column("photoHeight")
  }

  /// Every column but the photo's bytes: what listings fetch.
  static var allColumnsButPhotoBytes: AllColumnsExcluding {
    AllColumnsExcluding([Columns.photoData.name])
  }

  /// Decodes a row, tolerating an undecodable color (kept as ``colorIssue``) but
  /// not a row whose plain attributes are damaged.
  public init(row: Row) throws {
    let idText: String = try Self.decode(row, Columns.id)
    guard let id = UUID(text: idText) else {
      throw BowTieError.storeUnreadable(path: "", reason: "a row's id '\(idText)' is not a UUID")
    }
    self.init(
      id: id,
      name: try Self.decode(row, Columns.name),
      searchKey: try Self.decode(row, Columns.searchKey),
      rating: try Self.decode(row, Columns.rating),
      timesWorn: try Self.decode(row, Columns.timesWorn),
      lastWorn: try (Self.decode(row, Columns.lastWorn) as String?).map(StorageDate.parse),
      isFavorite: try Self.decode(row, Columns.isFavorite),
      url: try (Self.decode(row, Columns.url) as String?).flatMap(URL.init(string:)),
      photoData: try Self.decode(row, Columns.photoData))
    externalPhotoName = try Self.decode(row, Columns.photoFile)
    // A row another tool wrote may have bytes without their size.
    storedPhotoByteCount = try Self.decode(row, Columns.photoSize) ?? photoData?.count
    if let formatText: String = try Self.decode(row, Columns.photoFormat),
      let format = PhotoFormat(rawValue: formatText),
      let width: Int = try Self.decode(row, Columns.photoWidth),
      let height: Int = try Self.decode(row, Columns.photoHeight)
    {
      storedPhotoDescription = PhotoDescription(format: format, width: width, height: height)
    }
    wearsBeforeHistory = try Self.decode(row, Columns.wearsBeforeHistory)
    if let priceText: String = try Self.decode(row, Columns.price) {
      guard let price = Decimal(string: priceText, locale: Locale(identifier: "en_US_POSIX")) else {
        throw BowTieError.storeUnreadable(
          path: "", reason: "a row's price '\(priceText)' is not a number")
      }
      self.price = price
    }
    if let archive: Data = try Self.decode(row, Columns.tintColor) {
      let transformer = try Self.colorTransformer()
      do {
        tintColor = try transformer.color(from: archive)
      } catch {
        colorIssue = error
      }
    }
  }

  public func encode(to container: inout PersistenceContainer) throws {
    for (column, value) in zip(Self.storedColumns, try storedValues()) {
      // A color that could not be decoded is kept as it is rather than erased by a save.
      if column.name == Columns.tintColor.name && colorIssue != nil { continue }
      container[column] = value
    }
  }

  /// Every column a save writes, in the order of ``storedValues()``.
  static let storedColumns: [Column] = [
    Columns.id, Columns.name, Columns.canonicalName, Columns.searchKey, Columns.canonicalKey,
    Columns.rating, Columns.timesWorn, Columns.lastWorn, Columns.isFavorite, Columns.url,
    Columns.tintColor, Columns.photoData, Columns.photoFile, Columns.photoSize,
    Columns.wearsBeforeHistory, Columns.price, Columns.photoFormat, Columns.photoWidth,
    Columns.photoHeight,
  ]

  /// One statement for every new row. GRDB's `insert` builds a dictionary of columns and
  /// the SQL text for each record, which cost more than SQLite's own work when seeding.
  static let insertSQL =
    "INSERT INTO bowTie (\(storedColumns.map(\.name).joined(separator: ", "))) VALUES ("
    + Array(repeating: "?", count: storedColumns.count).joined(separator: ", ") + ")"

  /// What a save writes, column by column, in the order of ``storedColumns``.
  func storedValues() throws -> [(any DatabaseValueConvertible)?] {
    [
      id.text,
      name,
      canonicalName,
      searchKey,
      Self.canonicalKey(searchKey),
      rating,
      timesWorn,
      lastWorn.map(StorageDate.format),
      isFavorite,
      url?.absoluteString,
      try tintColor.map { try Self.colorTransformer().data(from: $0) },
      externalPhotoName == nil ? photoData : nil,
      externalPhotoName,
      photoByteCount,
      wearsBeforeHistory ?? timesWorn,
      price.map(Self.priceText),
      storedPhotoDescription?.format.rawValue,
      storedPhotoDescription?.width,
      storedPhotoDescription?.height,
    ]
  }

  /// Inserts a new row through one cached statement, its values bound through SQLite's C
  /// API (``SQLiteBinding``): a seed of 100,000 ties felt `StatementArguments`.
  func insertRow(_ db: Database) throws {
    try SQLiteBinding.execute(
      db.cachedStatement(sql: Self.insertSQL), with: try storedValues(), in: db)
  }

  /// The registered color transformer, looked up by the name the model gives.
  static func colorTransformer() throws(BowTieError) -> ColorAttributeTransformer {
    let name = tintColorTransformerName
    guard let transformer = ValueTransformer.valueTransformer(forName: name) else {
      throw .transformerNotRegistered(name.rawValue)
    }
    guard let colorTransformer = transformer as? ColorAttributeTransformer else {
      throw .transformerNotRegistered(name.rawValue)
    }
    return colorTransformer
  }

  /// Decodes one column, turning a type mismatch (a row written by another tool)
  /// into a store error instead of GRDB's fatal error.
  private static func decode<Value: DatabaseValueConvertible>(
    _ row: Row, _ column: Column
  ) throws -> Value {
    do {
      return try row.decode(Value.self, forColumn: column.name)
    } catch {
      throw BowTieError.storeUnreadable(
        path: "",
        reason: "a row's \(column.name) cannot be read (\(row[column.name] as DatabaseValue))")
    }
  }
}

/// Runs statements with their values bound through SQLite's C API, for the inserts a
/// seed makes once per tie (``BowTie/insertRow(_:)``): binding through
/// `StatementArguments` (a generic map and a recursion per value) cost more than SQLite's
/// own work for the row. The statements stay GRDB's, cached and finalized with the
/// connection; GRDB's conversions still decide each value's storage.
enum SQLiteBinding {
  /// `SQLITE_TRANSIENT`, which C defines as a cast Swift does not import: SQLite copies the
  /// bytes before the call returns.
  static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  /// Binds `values` to `statement`'s parameters, in order, and steps it once.
  static func execute(
    _ statement: Statement, with values: [(any DatabaseValueConvertible)?], in db: Database
  ) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    for (index, value) in zip(Int32(1)..., values) {
      let code: Int32
      switch value?.databaseValue.storage ?? .null {
      case .null: code = sqlite3_bind_null(handle, index)
      case .int64(let number): code = sqlite3_bind_int64(handle, index, number)
      case .double(let number): code = sqlite3_bind_double(handle, index, number)
      case .string(let text):
        code = sqlite3_bind_text(handle, index, text, -1, transient)
      case .blob(let data):
        code = data.withUnsafeBytes {
          sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), transient)
        }
      }
      guard code == SQLITE_OK else { throw error(code, statement, db) }
    }
    let code = sqlite3_step(handle)
    guard code == SQLITE_DONE else {
      let error = error(code, statement, db)
      sqlite3_reset(handle)
      throw error
    }
  }

  private static func error(_ code: Int32, _ statement: Statement, _ db: Database)
    -> DatabaseError
  {
    DatabaseError(
      resultCode: ResultCode(rawValue: code),
      message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
  }
}

// MARK: - Requests

extension DerivableRequest<BowTie> {
  /// Orders ties R O Y G B I V, as the app's segmented control does, then by name.
  func orderedLikeTheApp() -> Self {
    // An expression rather than raw SQL, so that GRDB can reverse it for --reverse.
    order(
      SQL(
        """
        CASE upper(searchKey) WHEN 'R' THEN 0 WHEN 'O' THEN 1 WHEN 'Y' THEN 2 WHEN 'G' THEN 3
          WHEN 'B' THEN 4 WHEN 'I' THEN 5 WHEN 'V' THEN 6 ELSE 7 END
        """
      ).sqlExpression,
      BowTie.Columns.canonicalName,
      BowTie.Columns.canonicalKey)
  }
}

/// Dates as stored: ISO 8601 UTC text with milliseconds ("2026-11-21T08:00:00.000Z"),
/// readable in the sqlite3 shell and ordered as text. Formatted with the C library
/// rather than DateFormatter, whose ICU set-up would slow every command's start.
enum StorageDate {
  static func format(_ date: Date) -> String {
    var seconds = date.timeIntervalSince1970
    var millis = Int((seconds - seconds.rounded(.down)) * 1000 + 0.5)
    seconds.round(.down)
    if millis >= 1000 {
      millis -= 1000
      seconds += 1
    }
    return ISO8601.utcText(seconds: time_t(seconds), milliseconds: millis)
  }

  /// Parses what ``format(_:)`` writes, and the plainer forms other tools write
  /// ("2026-11-21 08:00:00", "2026-11-21T08:00:00Z").
  static func parse(_ text: String) throws -> Date {
    if let date = ISO8601.parse(text) { return date }
    throw BowTieError.storeUnreadable(path: "", reason: "a row's date '\(text)' cannot be read")
  }
}
