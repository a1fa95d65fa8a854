import Foundation

/// One validated tie from a seed file, with its position for messages.
public struct SeedEntry: Sendable {
  /// Zero-based position in the file's array.
  public var index: Int
  public var tie: BowTie {
    didSet { isValidated = false }
  }
  /// Whether the file gave the tie's `id`; if not, the tie is matched by `searchKey`.
  public var hasExplicitID: Bool
  /// Whether the entry's photo was left out (`seed --no-photos`): a tie it replaces
  /// keeps the photo it has.
  public var photoSkipped = false
  /// Whether ``tie`` is still as validated when it was read: seeding checks it again
  /// only if someone changed it since.
  var isValidated: Bool

  init(index: Int, tie: BowTie, hasExplicitID: Bool) {
    self.index = index
    self.tie = tie
    self.hasExplicitID = hasExplicitID
    isValidated = true
  }
}

/// Where a seed file's `imageName`s are looked up.
public enum ImageSource: Sendable {
  /// The `images/` folder beside the plist, then the Xcode asset catalogs (`*.xcassets`)
  /// beside it, as the BowTies project of the Core Data book has them. Names may not lead
  /// outside either.
  case folder(URL)
  /// Photos built into the binary, keyed by file name (the bundled sample data).
  case embedded([String: Data])
  /// No photos: `imageName` and `photoData` are ignored (`seed --no-photos`).
  case skipped
}

/// Reads seed files in the format of the BowTies sample's `SampleData.plist`: an array
/// of dictionaries with `name`, `searchKey`, `rating`, `tintColor` (`red`, `green`,
/// `blue`, 0–255), `imageName`, `lastWorn`, `timesWorn`, `isFavorite`, `url` and `id`.
///
/// Every entry is checked before anything is stored, so a file with one bad entry
/// changes nothing; the error names the entry's index, name and key.
public enum SeedFile {
  /// The largest photo a seed entry may bring.
  public static let maximumPhotoSize = 64 * 1024 * 1024

  static let knownKeys: Set<String> = [
    "id", "name", "searchKey", "rating", "tintColor", "imageName", "lastWorn", "timesWorn",
    "isFavorite", "url", "price", "currency", "photoData",
  ]

  /// The two encodings of the seed format.
  public enum Format: String, CaseIterable, Sendable {
    /// An XML or binary property list, as the app's SampleData.plist.
    case plist
    /// The same array of dictionaries in JSON: dates as ISO 8601 strings, photos base64.
    case json
  }

  /// Parses and validates a whole seed file: an XML or binary property list, or JSON.
  ///
  /// - Parameter source: how to name the file in messages (its path, or "standard input").
  public static func parse(
    _ data: Data, source: String, images: ImageSource, format: Format = .plist
  ) throws(BowTieError) -> [SeedEntry] {
    guard !data.isEmpty else { throw .invalidSeedFile(source: source, reason: "the file is empty") }
    var collector = Collector(images: images)
    // XML plists stream through libxml2, an entry at a time; binary plists, compact
    // already, go through our strict reader, and JSON through JSONDecoder.
    if format == .plist && XMLPlistReader.looksLikeXML(data) {
      let root: XMLPlistReader.Root
      do {
        root = try XMLPlistReader.read(data) { index, item throws(BowTieError) in
          try collector.add(item, index: index)
        }
      } catch {
        if case .invalidSeedFile(_, let reason) = error {
          throw .invalidSeedFile(source: source, reason: reason)
        }
        throw error
      }
      if case .other(let value) = root { throw notAnArray(value, source: source) }
      return collector.entries
    }
    switch format {
    case .json:
      // Not JSONSerialization: on Linux it reads some numbers one unit in the last place
      // off (1.0000000000000002 as 1.0), so an export did not read back as written.
      let root: JSONRoot
      do {
        root = try JSONDecoder().decode(JSONRoot.self, from: data)
      } catch {
        throw .invalidSeedFile(source: source, reason: "not JSON (\(jsonReason(error, data)))")
      }
      switch root {
      case .array(let values):
        for (index, item) in values.enumerated() {
          try collector.add(item, index: index)
        }
        return collector.entries
      case .other(let value):
        throw notAnArray(value, source: source)
      }
    case .plist where data.starts(with: "bplist".utf8):
      // Not PropertyListSerialization: on Linux it crashes on a binary plist holding a
      // set, as a 49-byte file can.
      let root: PropertyListValue
      do {
        root = try BinaryPropertyList.read([UInt8](data), limits: .seedFile(byteCount: data.count))
      } catch {
        throw .invalidSeedFile(source: source, reason: "not a property list (\(error.description))")
      }
      guard case .array(let values) = root else {
        throw notAnArray(PlistValue(root), source: source)
      }
      for (index, item) in values.enumerated() {
        try collector.add(PlistValue(item), index: index)
      }
      return collector.entries
    case .plist:
      // Not PropertyListSerialization for what is left (OpenStep text plists, which the
      // seed format never was): CoreFoundation logs its parse errors on stderr.
      throw .invalidSeedFile(
        source: source, reason: "not a property list (neither XML nor a binary plist)")
    }
  }

  private static func notAnArray(_ root: PlistValue, source: String) -> BowTieError {
    .invalidSeedFile(
      source: source, reason: "expected an array of tie dictionaries, found \(root.kind)")
  }

  /// Checks entries one by one as they arrive, and that no id or key repeats.
  private struct Collector {
    let images: ImageSource
    var entries: [SeedEntry] = []
    private var ids = RandomUUIDs()
    // The first entry with each id and key, by position and name: all a message needs.
    private var seenIDs: [UUID: (index: Int, name: String)] = [:]
    private var seenKeys: [String: (index: Int, name: String)] = [:]

    init(images: ImageSource) { self.images = images }

    mutating func add(_ item: PlistValue, index: Int) throws(BowTieError) {
      let entry = try SeedFile.parseEntry(item, index: index, images: images, ids: &ids)
      if entry.hasExplicitID, let first = seenIDs[entry.tie.id] {
        throw .invalidSeedEntry(
          index: index, name: entry.tie.name, key: "id",
          reason: "\(entry.tie.id) repeats entry \(first.index) (\(first.name))")
      }
      let key = BowTie.canonicalKey(entry.tie.searchKey)
      if let first = seenKeys[key] {
        throw .invalidSeedEntry(
          index: index, name: entry.tie.name, key: "searchKey",
          reason: "'\(entry.tie.searchKey)' repeats entry \(first.index) (\(first.name))")
      }
      seenIDs[entry.tie.id] = (index, entry.tie.name)
      seenKeys[key] = (index, entry.tie.name)
      entries.append(entry)
    }
  }

  fileprivate static func parseEntry(
    _ item: PlistValue, index: Int, images: ImageSource, ids: inout RandomUUIDs
  ) throws(BowTieError) -> SeedEntry {
    guard case .dictionary(let fields) = item else {
      throw .invalidSeedEntry(
        index: index, name: nil, key: nil, reason: "is \(item.kind), not a dictionary")
    }
    let name: String? =
      if case .string(let text) = fields["name"], !text.isEmpty { text } else { nil }
    let reader = EntryReader(fields: fields, index: index, name: name)
    if !fields.keys.allSatisfy(knownKeys.contains),
      let unknown = fields.keys.filter({ !knownKeys.contains($0) }).sorted().first
    {
      throw reader.failure(
        unknown, "is not a known key (known: \(knownKeys.sorted().joined(separator: ", ")))")
    }
    var tie = BowTie(
      id: ids.next(),
      name: try reader.requiredString("name"),
      searchKey: try reader.requiredString("searchKey"))
    if let idText = try reader.string("id") {
      guard let id = UUID(text: idText) else {
        throw reader.failure("id", "'\(idText)' is not a UUID")
      }
      tie.id = id
    }
    tie.rating = try reader.rating()
    tie.tintColor = try reader.color()
    tie.timesWorn = try reader.timesWorn()
    tie.lastWorn = try reader.date("lastWorn")
    tie.isFavorite = try reader.bool("isFavorite") ?? false
    if let text = try reader.string("url") {
      switch BowTie.checkURL(text) {
      case .success(let url): tie.url = url
      case .failure(let problem): throw reader.failure("url", problem.reason)
      }
    }
    if let price = try reader.price() { (tie.price, tie.currency) = price }
    if let failure = tie.validationFailure {
      throw reader.failure(failure.attribute, failure.reason)
    }
    let imageName = try reader.string("imageName")
    if imageName != nil && fields["photoData"] != nil {
      throw reader.failure("photoData", "cannot be given with imageName: one photo per tie")
    }
    var entry = SeedEntry(index: index, tie: tie, hasExplicitID: fields["id"] != nil)
    if case .skipped = images {
      entry.photoSkipped = imageName != nil || fields["photoData"] != nil
    } else if let imageName {
      entry.tie.setPhoto(try loadImage(imageName, from: images, reader: reader))
    } else if let data = try reader.photoData() {
      do {
        entry.tie.setPhoto(try PhotoIntake.check(data))
      } catch {
        throw reader.failure("photoData", PhotoIntake.reason(error, file: nil))
      }
    }
    entry.isValidated = true
    return entry
  }

  // MARK: Photos

  private static func loadImage(
    _ imageName: String, from source: ImageSource, reader: EntryReader
  ) throws(BowTieError) -> CheckedPhoto {
    // A plain file name only: no folders, no "..", no hidden files, nothing outside images/.
    guard !imageName.isEmpty, !imageName.hasPrefix("."), !imageName.contains("/"),
      !imageName.contains("\\"), !imageName.contains("\0"), imageName.utf8.count <= 255
    else {
      throw reader.failure("imageName", "'\(imageName)' must be a plain file name inside images/")
    }
    let candidates =
      imageName.contains(".")
      ? [imageName]
      : [imageName] + PhotoFormat.allCases.flatMap(\.fileExtensions).map { "\(imageName).\($0)" }
    switch source {
    case .skipped:
      throw reader.failure("imageName", "photos are skipped")
    case .embedded(let photos):
      for candidate in candidates {
        if let data = photos[candidate] {
          return try check(data, path: "images/\(candidate)", reader: reader)
        }
      }
      throw .seedImageUnreadable(
        index: reader.index, name: reader.name, path: "images/\(imageName)",
        reason: "no such image")
    case .folder(let folder):
      for candidate in candidates {
        let file = folder.appendingPathComponent(candidate)
        var info = stat()
        guard lstat(file.path, &info) == 0 else { continue }
        return try readImage(file, inside: folder, reader: reader)
      }
      // As UIImage(named:) finds "red.png" or "red": the image set "red".
      let setName =
        imageName.contains(".") ? (imageName as NSString).deletingPathExtension : imageName
      let catalogs = AssetCatalog.catalogs(in: folder.deletingLastPathComponent())
      for catalog in catalogs {
        let image: AssetCatalog.Image
        do {
          image = try catalog.image(named: setName)
        } catch {
          switch error {
          case .noImageSet: continue
          case .ambiguous(let sets):
            throw reader.failure(
              "imageName",
              "\(catalog.folder.path) has more than one image set named \(setName): \(sets.joined(separator: ", "))"
            )
          case .unusable(let set, let reason):
            throw .seedImageUnreadable(
              index: reader.index, name: reader.name, path: set.path, reason: reason)
          }
        }
        // An image drawn at 3× (the size the app shows it at on a 3× screen) from a
        // PDF in a slot of this scale.
        return try readImage(
          image.file, inside: catalog.folder, reader: reader, pdfScale: 3 / image.scale)
      }
      throw .seedImageMissing(
        index: reader.index, name: reader.name, imageName: imageName,
        lookedIn: [folder.path + "/"] + catalogs.map { "\($0.folder.path) (image set \(setName))" },
        catalogsFound: !catalogs.isEmpty)
    }
  }

  /// Reads a photo file, which must resolve inside `folder`, and checks it.
  private static func readImage(
    _ file: URL, inside folder: URL, reader: EntryReader, pdfScale: Double = PhotoIntake.pdfScale
  ) throws(BowTieError) -> CheckedPhoto {
    // A symbolic link may still point outside the folder: compare resolved paths.
    let resolvedFolder = folder.resolvingSymlinksInPath().path
    let resolved = file.resolvingSymlinksInPath().path
    guard resolved.hasPrefix(resolvedFolder + "/") else {
      throw reader.failure(
        "imageName", "'\(file.lastPathComponent)' leads outside \(folder.lastPathComponent)/")
    }
    var info = stat()
    guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      let missing = lstat(file.path, &info) != 0
      throw .seedImageUnreadable(
        index: reader.index, name: reader.name, path: file.path,
        reason: missing ? "no such file" : "not a regular file")
    }
    guard info.st_size <= maximumPhotoSize else {
      throw reader.failure(
        "imageName", "'\(file.lastPathComponent)' is larger than \(maximumPhotoSize >> 20) MiB")
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: resolved))
    } catch {
      throw .seedImageUnreadable(
        index: reader.index, name: reader.name, path: file.path, reason: error.reason)
    }
    return try check(data, path: file.path, reader: reader, pdfScale: pdfScale)
  }

  private static func check(
    _ data: Data, path: String, reader: EntryReader, pdfScale: Double = PhotoIntake.pdfScale
  ) throws(BowTieError) -> CheckedPhoto {
    do {
      return try PhotoIntake.check(data, pdfScale: pdfScale)
    } catch {
      throw .seedImageUnreadable(
        index: reader.index, name: reader.name, path: path,
        reason: PhotoIntake.reason(error, file: (path as NSString).lastPathComponent))
    }
  }

  /// Why `data` is not JSON. JSONDecoder says only "not valid JSON", and calls a number it
  /// cannot represent a type mismatch; JSONSerialization says where and what, so it is
  /// asked, only for a file already refused.
  private static func jsonReason(_ error: any Error, _ data: Data) -> String {
    do {
      _ = try JSONSerialization.jsonObject(with: data)
    } catch {
      let nsError = error as NSError
      if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return debug }
      return nsError.localizedDescription
    }
    if case .dataCorrupted(let context) = error as? DecodingError {
      return context.debugDescription
    }
    return "\(error)"
  }
}

/// Reads typed values out of one entry, phrasing every failure with the entry's context.
private struct EntryReader {
  let fields: [String: PlistValue]
  let index: Int
  let name: String?

  func failure(_ key: String, _ reason: String) -> BowTieError {
    .invalidSeedEntry(index: index, name: name, key: key, reason: reason)
  }

  func requiredString(_ key: String) throws(BowTieError) -> String {
    guard let value = try string(key) else { throw failure(key, "is missing") }
    return value
  }

  func string(_ key: String) throws(BowTieError) -> String? {
    guard let raw = fields[key] else { return nil }
    guard case .string(let text) = raw else {
      throw failure(key, "must be a string, found \(raw.kind)")
    }
    return text
  }

  func bool(_ key: String) throws(BowTieError) -> Bool? {
    switch fields[key] {
    case nil: return nil
    case .bool(let flag): return flag
    // The app read these with `as! Bool`, which accepts 0 and 1.
    case .integer(let number) where number == 0 || number == 1: return number == 1
    case let raw?: throw failure(key, "must be a boolean, found \(raw.kind)")
    }
  }

  func rating() throws(BowTieError) -> Double {
    guard let raw = fields["rating"] else { throw failure("rating", "is missing") }
    switch raw {
    // -0 (a plist can hold it) as 0: JSON writes it "-0", which reads back as the integer
    // 0, so an exported rating of -0 changed when seeded again.
    case .real(let value): return value == 0 ? 0 : value
    case .integer(let value): return Double(value)
    case let other: throw failure("rating", "must be a number, found \(other.kind)")
    }
  }

  /// A price as a string ("19.99", exact) or a number; a real is read through its
  /// shortest decimal form, so `<real>19.99</real>` is 19.99 and not 19.989999…. Its
  /// currency is `currency` (what export writes), or follows the amount in the string
  /// ("19.99 EUR", as typed on a command line); a price with neither is in
  /// ``Currency/unlabelled``, as seed files written before prices had a currency meant.
  func price() throws(BowTieError) -> (amount: Decimal, currency: String)? {
    var currency = try string("currency")
    guard var raw = fields["price"] else {
      if currency != nil { throw failure("currency", "is given without a price") }
      return nil
    }
    if case .string(let value) = raw {
      let parts = value.split(separator: " ", omittingEmptySubsequences: true)
      if parts.count == 2 {
        guard currency == nil else {
          throw failure("currency", "is given twice: in price '\(value)' and as currency")
        }
        raw = .string(String(parts[0]))
        currency = String(parts[1])
      }
    }
    let code = currency ?? Currency.unlabelled
    if let problem = Currency.problem(code) { throw failure("currency", problem) }
    return (try amount(raw), code)
  }

  private func amount(_ raw: PlistValue) throws(BowTieError) -> Decimal {
    let text: String
    switch raw {
    case .string(let value): text = value
    case .integer(let value): text = String(value)
    case .real(let value) where value.isFinite: text = "\(value)"
    case let other: throw failure("price", "must be an amount, found \(other.kind)")
    }
    do {
      return try BowTie.parsePrice(text)
    } catch {
      throw failure(
        "price",
        "'\(text)' is not an amount from 0 to \(BowTie.maximumPrice) with at most \(BowTie.maximumPriceScale) decimals"
      )
    }
  }

  /// A date: a plist date, or an ISO 8601 string (JSON has no dates).
  func date(_ key: String) throws(BowTieError) -> Date? {
    guard let raw = fields[key] else { return nil }
    switch raw {
    case .date(let date): return date
    case .string(let text):
      guard let date = ISO8601.parse(text) else {
        throw failure(key, "'\(text)' is not an ISO 8601 date")
      }
      return date
    case let other: throw failure(key, "must be a date, found \(other.kind)")
    }
  }

  /// Photo bytes given inline: plist data, or base64 text in JSON.
  func photoData() throws(BowTieError) -> Data? {
    guard let raw = fields["photoData"] else { return nil }
    let data: Data
    switch raw {
    case .data(let bytes): data = bytes
    case .string(let text):
      guard let bytes = Data(base64Encoded: text) else {
        throw failure("photoData", "is not base64 data")
      }
      data = bytes
    case let other: throw failure("photoData", "must be data, found \(other.kind)")
    }
    guard data.count <= SeedFile.maximumPhotoSize else {
      throw failure("photoData", "is larger than \(SeedFile.maximumPhotoSize >> 20) MiB")
    }
    // Empty data is no image: the tie has no photo.
    return data.isEmpty ? nil : data
  }

  func timesWorn() throws(BowTieError) -> Int32 {
    guard let raw = fields["timesWorn"] else { return 0 }
    let value: Int64
    switch raw {
    case .integer(let number): value = number
    case .real(let number) where number == number.rounded() && abs(number) < 1e18:
      value = Int64(number)
    case let other: throw failure("timesWorn", "must be a whole number, found \(other.kind)")
    }
    guard value >= 0 else { throw failure("timesWorn", "\(value) is negative") }
    guard value <= Int64(Int32.max) else {
      throw failure("timesWorn", "\(value) is above the largest count, \(Int32.max)")
    }
    return Int32(value)
  }

  /// The color, if the entry has one (an export of a tie whose color was unreadable has none).
  func color() throws(BowTieError) -> TieColor? {
    guard let raw = fields["tintColor"] else { return nil }
    guard case .dictionary(let components) = raw else {
      throw failure("tintColor", "must be a dictionary of red, green and blue, found \(raw.kind)")
    }
    if components.count != 3,
      let unknown = components.keys.filter({ !["red", "green", "blue"].contains($0) }).sorted()
        .first
    {
      throw failure("tintColor", "has an unknown key '\(unknown)' (expected red, green, blue)")
    }
    func channel(_ channel: String) throws(BowTieError) -> UInt8 {
      guard let value = components[channel] else {
        throw failure("tintColor", "is missing \(channel)")
      }
      guard case .integer(let number) = value else {
        throw failure("tintColor", "\(channel) must be a whole number 0–255, found \(value.kind)")
      }
      guard (0...255).contains(number) else {
        throw failure("tintColor", "\(channel) \(number) is outside 0–255")
      }
      return UInt8(number)
    }
    return TieColor(red: try channel("red"), green: try channel("green"), blue: try channel("blue"))
  }
}

/// A property-list (or JSON) value, typed: what every reader hands the entry reader.
///
/// The streaming XML reader, the binary reader (``init(_:)``) and JSONDecoder
/// (``init(from:)``) build these directly, with no `Any` and no dynamic casts, so
/// `<integer>1</integer>` and `<true/>` stay apart.
indirect enum PlistValue {
  case bool(Bool), integer(Int64), real(Double), string(String), date(Date), data(Data)
  case array([PlistValue]), dictionary([String: PlistValue]), other(String)

  /// Sorts a value our binary property-list reader returned.
  init(_ value: PropertyListValue) {
    switch value {
    case .bool(let flag): self = .bool(flag)
    case .int(let number): self = .integer(number)
    case .real(let number): self = .real(number)
    case .string(let text): self = .string(text)
    case .data(let bytes): self = .data(Data(bytes))
    case .date(let seconds): self = .date(Date(timeIntervalSinceReferenceDate: seconds))
    case .uid: self = .other("an object reference (UID)")
    case .array(let elements): self = .array(elements.map(PlistValue.init))
    case .dict(let fields): self = .dictionary(fields.mapValues(PlistValue.init))
    }
  }

  /// "a string ('abc')", "a number (7.5)": what a message says was found.
  var kind: String {
    switch self {
    case .bool(let flag): return "a boolean (\(flag))"
    case .integer(let number): return "an integer (\(number))"
    case .real(let number): return "a number (\(number))"
    case .string(let text): return "a string ('\(text.prefix(40))')"
    case .date: return "a date"
    case .data: return "data"
    case .array: return "an array"
    case .dictionary: return "a dictionary"
    case .other(let description): return description
    }
  }
}

// MARK: - JSON

/// A JSON seed file's root: the items of its array, or the value found instead.
private enum JSONRoot: Decodable {
  case array([PlistValue])
  case other(PlistValue)

  init(from decoder: any Decoder) throws {
    guard var container = try? decoder.unkeyedContainer() else {
      self = .other(try PlistValue(from: decoder))
      return
    }
    var items: [PlistValue] = []
    items.reserveCapacity(container.count ?? 0)
    while !container.isAtEnd {
      // Entries are dictionaries: tried as one first, since every miss throws an error.
      if let entry = try? container.decode(JSONDictionary.self) {
        items.append(.dictionary(entry.fields))
      } else {
        items.append(try container.decode(PlistValue.self))
      }
    }
    self = .array(items)
  }
}

/// A JSON object, each value tried first as the type its key holds in a seed entry.
///
/// Decodable can only ask "is it a String?", "is it a Bool?"… and each "no" is a thrown
/// error: asked in the usual order, a tie's values cost a dozen of them, which made
/// JSONDecoder slower than JSONSerialization.
private struct JSONDictionary: Decodable {
  var fields: [String: PlistValue]

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    let keys = container.allKeys
    fields = .init(minimumCapacity: keys.count)
    for key in keys {
      let expected: PlistValue?
      switch key.stringValue {
      case "rating":
        expected = (try? container.decode(Double.self, forKey: key)).map(PlistValue.real)
      case "timesWorn", "red", "green", "blue":
        expected = (try? container.decode(Int64.self, forKey: key)).map(PlistValue.integer)
      case "isFavorite":
        expected = (try? container.decode(Bool.self, forKey: key)).map(PlistValue.bool)
      case "tintColor":
        expected = (try? container.decode(JSONDictionary.self, forKey: key)).map {
          PlistValue.dictionary($0.fields)
        }
      default: expected = (try? container.decode(String.self, forKey: key)).map(PlistValue.string)
      }
      fields[key.stringValue] = try expected ?? container.decode(PlistValue.self, forKey: key)
    }
  }
}

extension PlistValue: Decodable {
  /// Any JSON value. Integers stay integers (`Int64` is tried before `Double`); `null` is
  /// ``other(_:)``, which the entry reader refuses by name.
  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .other("null")
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? container.decode(Int64.self) {
      self = .integer(number)
    } else if let number = try? container.decode(Double.self) {
      self = .real(number)
    } else if let items = try? container.decode([PlistValue].self) {
      self = .array(items)
    } else {
      self = .dictionary(try container.decode(JSONDictionary.self).fields)
    }
  }
}
