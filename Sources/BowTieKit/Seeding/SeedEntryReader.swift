import BowTieModel
import Foundation
import PropertyLists

// Reading one seed entry: its keys, each value typed and checked, into a validated tie.

extension SeedFile {
  static func parseEntry(
    _ item: PropertyListValue, index: Int, images: ImageSource, ids: inout RandomUUIDs
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
    // Seeding records it as a wear, which `wear --date` would refuse.
    if let lastWorn = tie.lastWorn, BowTie.isAfterToday(lastWorn) {
      throw reader.failure("lastWorn", "is after today: a wear is today or earlier")
    }
    // A last wear is a wear: without a count, it is the one, so that the tie is not
    // listed as never worn and as worn since. A count of 0 given with it is kept, since
    // an export of a store that holds one (from another program) writes it so.
    if tie.lastWorn != nil && fields["timesWorn"] == nil { tie.timesWorn = 1 }
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
}

/// Reads typed values out of one entry, phrasing every failure with the entry's context.
struct EntryReader {
  let fields: [String: PropertyListValue]
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

  private func amount(_ raw: PropertyListValue) throws(BowTieError) -> Decimal {
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

  /// The color, if the entry has one (an export of a tie whose color was unreadable has
  /// none): `red`, `green` and `blue`, and `alpha` for a color that is not opaque, 0–255.
  func color() throws(BowTieError) -> TieColor? {
    guard let raw = fields["tintColor"] else { return nil }
    guard case .dictionary(let components) = raw else {
      throw failure("tintColor", "must be a dictionary of red, green and blue, found \(raw.kind)")
    }
    // Three or four keys with the alpha are all a valid color has: what 100,000 seeded
    // colors are, checked without a filter's allocations.
    let known = ["red", "green", "blue", "alpha"]
    if !(components.count == 3 || components.count == 4 && components["alpha"] != nil),
      let unknown = components.keys.filter({ !known.contains($0) }).sorted().first
    {
      throw failure(
        "tintColor", "has an unknown key '\(unknown)' (expected red, green, blue, alpha)")
    }
    func channel(_ channel: String) throws(BowTieError) -> UInt8? {
      guard let value = components[channel] else { return nil }
      guard case .integer(let number) = value else {
        throw failure("tintColor", "\(channel) must be a whole number 0–255, found \(value.kind)")
      }
      guard (0...255).contains(number) else {
        throw failure("tintColor", "\(channel) \(number) is outside 0–255")
      }
      return UInt8(number)
    }
    func required(_ name: String) throws(BowTieError) -> UInt8 {
      guard let value = try channel(name) else { throw failure("tintColor", "is missing \(name)") }
      return value
    }
    return TieColor(
      red8: try required("red"), green8: try required("green"), blue8: try required("blue"),
      alpha8: try channel("alpha") ?? 255)
  }
}
