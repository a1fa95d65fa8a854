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
  /// The `images/` folder beside the plist. Names may not lead outside it.
  case folder(URL)
  /// Photos built into the binary, keyed by file name (the bundled sample data).
  case embedded([String: Data])
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
    "isFavorite", "url", "price", "photoData",
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
    // XML plists stream through libxml2, an entry at a time; binary plists and JSON,
    // compact already, go through Foundation.
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
    let root: Any
    do {
      switch format {
      case .plist:
        root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
      case .json:
        root = try JSONSerialization.jsonObject(with: data)
      }
    } catch {
      let kind = format == .json ? "JSON" : "a property list"
      throw .invalidSeedFile(source: source, reason: "not \(kind) (\(plistReason(error)))")
    }
    // Converted an entry at a time, so the document is not held twice.
    guard let items = root as? [Any] else {
      throw notAnArray(PlistValue(foundation: root), source: source)
    }
    for (index, item) in items.enumerated() {
      try collector.add(PlistValue(foundation: item), index: index)
    }
    return collector.entries
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
    tie.price = try reader.price()
    if let failure = tie.validationFailure {
      throw reader.failure(failure.attribute, failure.reason)
    }
    if let imageName = try reader.string("imageName") {
      guard fields["photoData"] == nil else {
        throw reader.failure("photoData", "cannot be given with imageName: one photo per tie")
      }
      tie.photoData = try loadImage(imageName, from: images, reader: reader)
    } else {
      tie.photoData = try reader.photoData()
    }
    return SeedEntry(index: index, tie: tie, hasExplicitID: fields["id"] != nil)
  }

  // MARK: Photos

  private static func loadImage(
    _ imageName: String, from source: ImageSource, reader: EntryReader
  ) throws(BowTieError) -> Data {
    // A plain file name only: no folders, no "..", no hidden files, nothing outside images/.
    guard !imageName.isEmpty, !imageName.hasPrefix("."), !imageName.contains("/"),
      !imageName.contains("\\"), !imageName.contains("\0"), imageName.utf8.count <= 255
    else {
      throw reader.failure("imageName", "'\(imageName)' must be a plain file name inside images/")
    }
    let candidates = imageName.contains(".") ? [imageName] : [imageName, imageName + ".png"]
    switch source {
    case .embedded(let photos):
      for candidate in candidates {
        if let data = photos[candidate] { return data }
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
      throw .seedImageUnreadable(
        index: reader.index, name: reader.name,
        path: folder.appendingPathComponent(candidates.last ?? imageName).path,
        reason: "no such file")
    }
  }

  private static func readImage(
    _ file: URL, inside folder: URL, reader: EntryReader
  ) throws(BowTieError) -> Data {
    // A symbolic link may still point outside the folder: compare resolved paths.
    let resolvedFolder = folder.resolvingSymlinksInPath().path
    let resolved = file.resolvingSymlinksInPath().path
    guard resolved.hasPrefix(resolvedFolder + "/") else {
      throw reader.failure("imageName", "'\(file.lastPathComponent)' leads outside images/")
    }
    var info = stat()
    guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw .seedImageUnreadable(
        index: reader.index, name: reader.name, path: file.path, reason: "not a regular file")
    }
    guard info.st_size <= maximumPhotoSize else {
      throw reader.failure(
        "imageName", "'\(file.lastPathComponent)' is larger than \(maximumPhotoSize >> 20) MiB")
    }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: resolved))
    } catch {
      throw .seedImageUnreadable(
        index: reader.index, name: reader.name, path: file.path, reason: error.reason)
    }
  }

  private static func plistReason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return debug }
    return nsError.localizedDescription
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
    case .real(let value): return value
    case .integer(let value): return Double(value)
    case let other: throw failure("rating", "must be a number, found \(other.kind)")
    }
  }

  /// A price as a string ("19.99", exact) or a number; a real is read through its
  /// shortest decimal form, so `<real>19.99</real>` is 19.99 and not 19.989999….
  func price() throws(BowTieError) -> Decimal? {
    guard let raw = fields["price"] else { return nil }
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
    return data
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

/// A property-list (or JSON) value, typed: what both readers hand the entry reader.
///
/// Foundation returns numbers as `NSNumber` and booleans as `Bool`, and lets an
/// `NSNumber` cast to `Bool`; ``init(foundation:)`` looks at the concrete type, keeping
/// `<integer>1</integer>` and `<true/>` apart. The streaming XML reader builds these
/// directly, with no `Any` and no dynamic casts.
indirect enum PlistValue {
  case bool(Bool), integer(Int64), real(Double), string(String), date(Date), data(Data)
  case array([PlistValue]), dictionary([String: PlistValue]), other(String)

  /// Sorts a value Foundation's property-list or JSON parser returned.
  init(foundation value: Any) {
    // Exact types first: an NSNumber would also cast to Bool, Int and Double.
    if type(of: value) == Bool.self, let flag = value as? Bool {
      self = .bool(flag)
    } else if type(of: value) == Int.self, let number = value as? Int {
      self = .integer(Int64(number))
    } else if type(of: value) == Int64.self, let number = value as? Int64 {
      self = .integer(number)
    } else if type(of: value) == Double.self, let number = value as? Double {
      self = .real(number)
    } else if let text = value as? String {
      self = .string(text)
    } else if let date = value as? Date {
      self = .date(date)
    } else if let data = value as? Data {
      self = .data(data)
    } else if let array = value as? [Any] {
      self = .array(array.map(PlistValue.init(foundation:)))
    } else if let dictionary = value as? [String: Any] {
      self = .dictionary(dictionary.mapValues(PlistValue.init(foundation:)))
    } else if let number = value as? NSNumber {
      switch String(cString: number.objCType) {
      case "c", "B": self = .bool(number.boolValue)
      case "d", "f": self = .real(number.doubleValue)
      case "Q" where number.uint64Value > UInt64(Int64.max): self = .other("an integer too large")
      default: self = .integer(number.int64Value)
      }
    } else if value is NSNull {
      self = .other("null")
    } else {
      self = .other("\(type(of: value))")
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
