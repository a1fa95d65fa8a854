import Foundation
import PropertyLists

// MARK: - Database

extension BowTie {
  /// The value transformer the model names for `tintColor`, as a Core Data model does.
  /// The store refuses to open until a transformer is registered under this name.
  public static let tintColorTransformerName = ColorAttributeTransformer.name

  /// Every column but the photo's bytes: what listings read.
  static let listingColumns =
    "id, name, canonicalName, searchKey, canonicalKey, rating, timesWorn, lastWorn, "
    + "isFavorite, url, tintColor, photoFile, photoSize, wearsBeforeHistory, price, "
    + "currency, photoFormat, photoWidth, photoHeight"

  /// Every column, the photo's bytes included.
  static let allColumns = listingColumns + ", photoData"

  /// Decodes a row of ``listingColumns`` or ``allColumns``, tolerating an undecodable color
  /// (kept as ``colorIssue``) but not a row whose plain attributes are damaged.
  init(row: any SQLRow) throws(BowTieError) {
    let idText: String = try row.decode("id")
    guard let id = UUID(text: idText) else {
      throw .storeUnreadable(path: "", reason: "a row's id '\(idText)' is not a UUID")
    }
    let lastWorn: String? = try row.decode("lastWorn")
    let url: String? = try row.decode("url")
    self.init(
      id: id,
      name: try row.decode("name"),
      searchKey: try row.decode("searchKey"),
      rating: try row.decode("rating"),
      timesWorn: try row.decode("timesWorn"),
      lastWorn: try lastWorn.map { text throws(BowTieError) in try StorageDate.parse(text) },
      isFavorite: try row.decode("isFavorite"),
      url: url.flatMap(URL.init(string:)),
      photoData: try row.decode("photoData"))
    externalPhotoName = try row.decode("photoFile")
    // A row another tool wrote may have bytes without their size.
    storedPhotoByteCount = try row.decode("photoSize") ?? photoData?.count
    let formatText: String? = try row.decode("photoFormat")
    if let formatText, let format = PhotoFormat(rawValue: formatText),
      let width: Int = try row.decode("photoWidth"),
      let height: Int = try row.decode("photoHeight")
    {
      storedPhotoDescription = PhotoDescription(format: format, width: width, height: height)
    }
    wearsBeforeHistory = try row.decode("wearsBeforeHistory")
    if let priceText: String = try row.decode("price") {
      guard let price = Decimal(string: priceText, locale: Locale(identifier: "en_US_POSIX")) else {
        throw .storeUnreadable(path: "", reason: "a row's price '\(priceText)' is not a number")
      }
      self.price = price
    }
    currency = try row.decode("currency")
    if let archive: Data = try row.decode("tintColor") {
      let transformer = try Self.colorTransformer()
      do {
        tintColor = try transformer.color(from: archive)
      } catch {
        colorIssue = error
      }
    }
  }

  /// Every column a save writes, in the order of ``storedValues()``.
  static let storedColumns = [
    "id", "name", "canonicalName", "searchKey", "canonicalKey", "rating", "timesWorn",
    "lastWorn", "isFavorite", "url", "tintColor", "photoData", "photoFile", "photoSize",
    "wearsBeforeHistory", "price", "currency", "photoFormat", "photoWidth", "photoHeight",
  ]

  /// One statement for every new row.
  static let insertSQL =
    "INSERT INTO bowTie (\(storedColumns.joined(separator: ", "))) VALUES ("
    + Array(repeating: "?", count: storedColumns.count).joined(separator: ", ") + ")"

  /// What a save writes, column by column, in the order of ``storedColumns``.
  func storedValues() throws(BowTieError) -> [SQLValue] {
    let color: Data?
    let transformer = try Self.colorTransformer()
    do {
      color = try tintColor.map { color throws(ArchiveError) in try transformer.data(from: color) }
    } catch {
      throw .invalidTie(
        name: name,
        ValidationFailure(attribute: "tintColor", reason: "cannot be archived (\(error))"))
    }
    return [
      .text(id.text),
      .text(name),
      .text(canonicalName),
      .text(searchKey),
      .text(Self.canonicalKey(searchKey)),
      .real(rating),
      timesWorn.sqlValue,
      lastWorn.map(StorageDate.format).sqlValue,
      isFavorite.sqlValue,
      url?.absoluteString.sqlValue ?? .null,
      color.sqlValue,
      (externalPhotoName == nil ? photoData : nil).sqlValue,
      externalPhotoName.sqlValue,
      photoByteCount.sqlValue,
      (wearsBeforeHistory ?? timesWorn).sqlValue,
      price.map(Self.priceText).sqlValue,
      currency.sqlValue,
      storedPhotoDescription?.format.rawValue.sqlValue ?? .null,
      storedPhotoDescription?.width.sqlValue ?? .null,
      storedPhotoDescription?.height.sqlValue ?? .null,
    ]
  }

  /// Inserts a new row, as one of many alike (``SQLConnection/executeMany(_:_:)``): a
  /// seed inserts 100,000.
  func insertRow(_ connection: any SQLConnection) throws {
    try connection.executeMany(Self.insertSQL, try storedValues())
  }

  /// Writes every column of a stored row but its id; a color that could not be decoded is
  /// kept as it is rather than erased by the save.
  func updateRow(_ connection: any SQLConnection) throws {
    var assignments: [String] = []
    var values: [SQLValue] = []
    for (column, value) in zip(Self.storedColumns, try storedValues()) where column != "id" {
      if column == "tintColor" && colorIssue != nil { continue }
      assignments.append("\(column) = ?")
      values.append(value)
    }
    try connection.execute(
      "UPDATE bowTie SET \(assignments.joined(separator: ", ")) WHERE id = ?",
      SQLArguments(values + [.text(id.text)]))
  }

  /// The registered color transformer, looked up by the name the model gives.
  /// Checks that the color transformer is registered, as a store must before it opens.
  public static func requireColorTransformer() throws(BowTieError) {
    _ = try colorTransformer()
  }

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

  /// Orders ties R O Y G B I V, as the app's segmented control does, then by name.
  static let appOrder = SummarySQL.appOrder
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
  static func parse(_ text: String) throws(BowTieError) -> Date {
    if let date = ISO8601.parse(text) { return date }
    throw .storeUnreadable(path: "", reason: "a row's date '\(text)' cannot be read")
  }
}
