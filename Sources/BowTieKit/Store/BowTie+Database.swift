import Foundation
import GRDB

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
  }

  /// Every column but the photo's bytes: what listings fetch.
  static var allColumnsButPhotoBytes: AllColumnsExcluding {
    AllColumnsExcluding([Columns.photoData.name])
  }

  /// Decodes a row, tolerating an undecodable color (kept as ``colorIssue``) but
  /// not a row whose plain attributes are damaged.
  public init(row: Row) throws {
    let idText: String = try Self.decode(row, Columns.id)
    guard let id = UUID(uuidString: idText) else {
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
    storedPhotoByteCount = try Self.decode(row, Columns.photoSize)
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
    container[Columns.id] = id.uuidString
    container[Columns.name] = name
    container[Columns.canonicalName] = canonicalName
    container[Columns.searchKey] = searchKey
    container[Columns.canonicalKey] = Self.canonicalKey(searchKey)
    container[Columns.rating] = rating
    container[Columns.timesWorn] = timesWorn
    container[Columns.lastWorn] = lastWorn.map(StorageDate.format)
    container[Columns.isFavorite] = isFavorite
    container[Columns.url] = url?.absoluteString
    // A color that could not be decoded is kept as it is rather than erased by a save.
    if colorIssue == nil {
      container[Columns.tintColor] = try tintColor.map {
        try Self.colorTransformer().data(from: $0)
      }
    }
    container[Columns.photoData] = externalPhotoName == nil ? photoData : nil
    container[Columns.photoFile] = externalPhotoName
    container[Columns.photoSize] = photoByteCount
    container[Columns.wearsBeforeHistory] = wearsBeforeHistory ?? timesWorn
    container[Columns.price] = price.map(Self.priceText)
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
