import BowTieModel
import Foundation
import PropertyLists

// MARK: - Database

extension BowTie {
  /// The value transformer the model names for `tintColor`, as a Core Data model does.
  /// The store refuses to open until a transformer is registered under this name.
  public static let tintColorTransformerName = ColorAttributeTransformer.name

  /// The `bowTie` table and its columns, named as the schema names them on both engines
  /// (other tools read them: they never change). Every column list the store's SQL
  /// names is made from these; the migrations alone spell them out, as they were when
  /// each was written.
  enum Columns {
    static let table = "bowTie"

    static let id = "id"
    static let name = "name"
    static let canonicalName = "canonicalName"
    static let searchKey = "searchKey"
    static let canonicalKey = "canonicalKey"
    static let rating = "rating"
    static let timesWorn = "timesWorn"
    static let lastWorn = "lastWorn"
    static let isFavorite = "isFavorite"
    static let url = "url"
    static let tintColor = "tintColor"
    static let photoData = "photoData"
    static let photoFile = "photoFile"
    static let photoSize = "photoSize"
    static let wearsBeforeHistory = "wearsBeforeHistory"
    static let price = "price"
    static let currency = "currency"
    static let photoFormat = "photoFormat"
    static let photoWidth = "photoWidth"
    static let photoHeight = "photoHeight"

    /// Every column, in the order of ``BowTie/storedValues()``: what a save writes.
    static let stored = [
      id, name, canonicalName, searchKey, canonicalKey, rating, timesWorn, lastWorn,
      isFavorite, url, tintColor, photoData, photoFile, photoSize, wearsBeforeHistory, price,
      currency, photoFormat, photoWidth, photoHeight,
    ]

    /// Every column but the photo's bytes: what listings read.
    static let listing = SQL(sql: stored.filter { $0 != photoData }.joined(separator: ", "))

    /// Every column, the photo's bytes included: what reading a whole tie reads.
    static let all = SQL(sql: stored.joined(separator: ", "))
  }

  /// Decodes a row of ``Columns/listing`` or ``Columns/all``, tolerating an undecodable color
  /// (kept as ``colorIssue``) but not a row whose plain attributes are damaged.
  init(row: any SQLRow) throws(BowTieError) {
    let idText: String = try row.decode(Columns.id)
    guard let id = UUID(text: idText) else {
      throw .storeUnreadable(path: "", reason: "a row's id '\(idText)' is not a UUID")
    }
    let lastWorn: String? = try row.decode(Columns.lastWorn)
    let url: String? = try row.decode(Columns.url)
    self.init(
      id: id,
      name: try row.decode(Columns.name),
      searchKey: try row.decode(Columns.searchKey),
      rating: try row.decode(Columns.rating),
      timesWorn: try row.decode(Columns.timesWorn),
      lastWorn: try lastWorn.map { text throws(BowTieError) in try StorageDate.parse(text) },
      isFavorite: try row.decode(Columns.isFavorite),
      url: url.flatMap(URL.init(string:)),
      photoData: try row.decode(Columns.photoData))
    externalPhotoName = try row.decode(Columns.photoFile)
    // A row another tool wrote may have bytes without their size.
    storedPhotoByteCount = try row.decode(Columns.photoSize) ?? photoData?.count
    let formatText: String? = try row.decode(Columns.photoFormat)
    if let formatText, let format = PhotoFormat(rawValue: formatText),
      let width: Int = try row.decode(Columns.photoWidth),
      let height: Int = try row.decode(Columns.photoHeight)
    {
      storedPhotoDescription = PhotoDescription(format: format, width: width, height: height)
    }
    wearsBeforeHistory = try row.decode(Columns.wearsBeforeHistory)
    if let priceText: String = try row.decode(Columns.price) {
      guard let price = Self.storedPrice(priceText) else {
        throw .storeUnreadable(path: "", reason: "a row's price '\(priceText)' is not a number")
      }
      self.price = price
    }
    currency = try row.decode(Columns.currency)
    if let archive: Data = try row.decode(Columns.tintColor) {
      let transformer = try Self.colorTransformer()
      do {
        tintColor = try transformer.color(from: archive)
      } catch {
        colorIssue = error
      }
    }
  }

  /// A price as the `price` column holds it, with a dot whatever the locale; nil for text
  /// that is no number.
  static func storedPrice(_ text: String) -> Decimal? {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
  }

  /// The columns of `row` whose values are there but cannot be read, among those a tie
  /// can do without: its last-worn date, its price and its link. ``Checkup`` clears them
  /// when the row is readable without them.
  static func unreadableOptionalColumns(of row: any SQLRow) -> [String] {
    func readable(_ column: String, _ parse: (String) -> Bool) -> Bool {
      do {
        guard let text = try row.decode(column, as: String?.self) else { return true }
        return parse(text)
      } catch {
        return false
      }
    }
    return [
      (Columns.lastWorn, { (try? StorageDate.parse($0)) != nil }),
      (Columns.price, { storedPrice($0) != nil }),
      (Columns.url, { _ in true }),
    ].filter { !readable($0.0, $0.1) }.map(\.0)
  }

  /// What a save writes, column by column, in the order of ``Columns/stored``.
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

  /// Writes every column of a stored row but its id; a color that could not be decoded is
  /// kept as it is rather than erased by the save.
  func updateRow(_ connection: any SQLConnection) throws {
    var assignments: [SQL] = []
    for (column, value) in zip(Columns.stored, try storedValues()) where column != Columns.id {
      if column == Columns.tintColor && colorIssue != nil { continue }
      assignments.append("\(sql: column) = \(value)")
    }
    try connection.execute(
      "UPDATE bowTie SET \(assignments.joined(separator: ", ")) WHERE id = \(id.text)")
  }

  /// Sets the photo columns of the tie `id` from its photo's header, or to NULL when the
  /// photo cannot be read: for rows whose photo arrived without them (a store before
  /// schema v5, an undo of a change made before it, a row another tool wrote).
  static func describePhoto(
    ofTie id: String, in connection: any SQLConnection, readingPhoto: (String) -> Data?
  ) throws {
    guard
      let row = try connection.fetchOne(
        "SELECT photoData, photoFile FROM bowTie WHERE id = \(id)")
    else { return }
    let inline: Data? = try row.decode(Columns.photoData)
    let file: String? = try row.decode(Columns.photoFile)
    let description = (inline ?? file.flatMap(readingPhoto)).flatMap(PhotoDescription.init(of:))
    let (format, width, height) = (
      description?.format.rawValue, description?.width, description?.height
    )
    try connection.execute(
      """
      UPDATE bowTie SET photoFormat = \(format), photoWidth = \(width), photoHeight = \(height) \
      WHERE id = \(id)
      """)
  }

  /// The registered color transformer, looked up by the name the model gives.
  /// Checks that the color transformer is registered, as a store must before it opens.
  public static func requireColorTransformer() throws(BowTieError) {
    _ = try colorTransformer()
  }

  package static func colorTransformer() throws(BowTieError) -> ColorAttributeTransformer {
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
  static let appOrder = SQL(sql: SummarySQL.appOrder)
}

/// Dates as stored: ISO 8601 UTC text with milliseconds ("2026-11-21T08:00:00.000Z"),
/// readable in the sqlite3 shell and ordered as text. Formatted with the C library
/// rather than DateFormatter, whose ICU set-up would slow every command's start.
package enum StorageDate {
  package static func format(_ date: Date) -> String {
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
  package static func parse(_ text: String) throws(BowTieError) -> Date {
    if let date = parseStored(text) ?? ISO8601.parse(text) { return date }
    throw .storeUnreadable(path: "", reason: "a row's date '\(text)' cannot be read")
  }
}

extension StorageDate {
  /// What ``format(_:)`` writes, "2026-11-21T08:00:00.000Z" (or without the milliseconds),
  /// read without the general parser: `history` reads one for each of millions of wears.
  /// Nil for anything else, which ``ISO8601/parse(_:)`` reads; the same date when both do.
  package static func parseStored(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { bytes -> Date? in
      guard bytes.count == 24 || bytes.count == 20, bytes[bytes.count - 1] == UInt8(ascii: "Z")
      else { return nil }
      func number(_ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<start + count] {
          guard (48...57).contains(byte) else { return nil }
          value = value * 10 + Int(byte - 48)
        }
        return value
      }
      func isByte(_ index: Int, _ character: Unicode.Scalar) -> Bool {
        bytes[index] == UInt8(ascii: character)
      }
      guard isByte(4, "-"), isByte(7, "-"), isByte(10, "T"), isByte(13, ":"), isByte(16, ":"),
        let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
        let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
        (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24,
        minute < 60, second < 60
      else { return nil }
      var fraction = 0.0
      if bytes.count == 24 {
        guard isByte(19, "."), let milliseconds = number(20, 3) else { return nil }
        fraction = Double(milliseconds) / 1000
      }
      let seconds =
        daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3_600
        + minute * 60 + second
      return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar, as `timegm`
  /// counts them (Howard Hinnant's days_from_civil).
  private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
