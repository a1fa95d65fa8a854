import Foundation
import PropertyLists

/// One bow tie: the single entity of the BowTies model.
///
/// A plain value. Its database mapping lives in `BowTie+Database.swift`;
/// the store validates it with ``validate()`` before every save.
public struct BowTie: Identifiable, Equatable, Sendable {
  public var id: UUID
  /// The display name, e.g. "Red Bow Tie". Never empty.
  public var name: String
  /// A short handle such as "R", unique among ties regardless of case.
  public var searchKey: String
  /// How much the owner likes the tie, 0…5 inclusive.
  public var rating: Double
  public var timesWorn: Int32
  public var lastWorn: Date?
  public var isFavorite: Bool
  /// Where the tie can be bought.
  public var url: URL?
  /// What the tie cost: exact, in ``currency``.
  public var price: Decimal?
  /// The price's ISO 4217 currency code ("EUR"): set exactly when ``price`` is.
  public var currency: String?
  /// The tie's color. `nil` either because the tie has none or because the stored
  /// archive could not be decoded; ``colorIssue`` tells which.
  public var tintColor: TieColor?
  /// The photo's bytes (PNG or JPEG, as the user gave them). Photos above
  /// ``PhotoStorage/externalThreshold`` live in a file beside the store; listing fetches
  /// leave this `nil` and only report ``photoByteCount`` and ``photoDescription``.
  /// Set checked bytes with ``setPhoto(_:)``; bytes set here are checked when saved.
  public var photoData: Data? {
    didSet {
      storedPhotoByteCount = nil
      storedPhotoDescription = nil
    }
  }

  /// Why the stored color could not be read, when it could not. Set by fetches only.
  public package(set) var colorIssue: ArchiveError?
  /// Why the photo kept outside the row cannot be had (its file missing or changed), when
  /// it cannot: set by the store where it hands a tie out to be shown, so that what shows
  /// it need not ask the store again.
  public package(set) var photoIssue: BowTieError?
  /// The photo's size as recorded in the store, for fetches that skip the bytes; nil once
  /// new bytes are set.
  package var storedPhotoByteCount: Int?
  /// The photo's format and size, as recorded in the store or found by the intake check.
  package var storedPhotoDescription: PhotoDescription?
  /// The content-addressed file that holds the photo, when it is stored externally.
  package var externalPhotoName: String?
  /// The wears a seed brought, before the wear history began; `timesWorn` is this plus
  /// the recorded wear events. Nil for a tie not yet stored.
  package var wearsBeforeHistory: Int32?

  public init(
    id: UUID = UUID(),
    name: String,
    searchKey: String,
    rating: Double = 0,
    timesWorn: Int32 = 0,
    lastWorn: Date? = nil,
    isFavorite: Bool = false,
    url: URL? = nil,
    price: Decimal? = nil,
    currency: String? = nil,
    tintColor: TieColor? = nil,
    photoData: Data? = nil
  ) {
    self.id = id
    self.name = name
    self.searchKey = searchKey
    self.rating = rating
    self.timesWorn = timesWorn
    self.lastWorn = lastWorn
    self.isFavorite = isFavorite
    self.url = url
    self.price = price
    self.currency = currency
    self.tintColor = tintColor
    self.photoData = photoData
  }

  /// The size of the photo in bytes, or nil when the tie has none.
  public var photoByteCount: Int? { photoData?.count ?? storedPhotoByteCount }

  /// The name folded for look-ups, so "cafe" finds "Café Bow Tie". Derived, never set.
  public var canonicalName: String { Self.canonicalize(name) }

  /// Folds case, diacritics and width, composes (NFC), and collapses runs of white space.
  public static func canonicalize(_ text: String) -> String {
    // Printable ASCII words between single spaces, most names and every key, need only
    // lowercasing: a shortcut that seeding a large plist feels.
    let utf8 = text.utf8
    var afterSpace = true  // so that a leading space leaves the shortcut
    let isPlainASCII = utf8.allSatisfy { byte in
      let space = byte == 0x20
      defer { afterSpace = space }
      return (0x20...0x7E).contains(byte) && !(space && afterSpace)
    }
    if isPlainASCII && !afterSpace { return text.lowercased() }
    if utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
      return text.lowercased().split(separator: " ").joined(separator: " ")
    }
    return text.folding(
      options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil
    )
    // Folding leaves Hangul as it came, precomposed (가) or as jamo (as macOS file names
    // hold it), and SQLite compares bytes: composed, the two are one key and one name, as
    // they already are to Swift's == (and so to the seed parser's check for repeated keys).
    .precomposedStringWithCanonicalMapping
    .split(whereSeparator: \.isWhitespace)
    .joined(separator: " ")
  }
}

// MARK: - Validation

extension BowTie {
  /// The inclusive range of ratings, as in the app's rating control.
  public static let ratingRange: ClosedRange<Double> = 0...5
  /// Longest accepted search key, in characters.
  public static let maximumSearchKeyLength = 16
  /// Longest accepted name, in characters.
  public static let maximumNameLength = 200

  /// Checks every attribute, reporting the first that fails and why.
  public func validate() throws(BowTieError) {
    if let failure = validationFailure {
      throw .invalidTie(name: name, failure)
    }
  }

  /// The first attribute that fails validation, or nil when the tie is valid.
  public var validationFailure: ValidationFailure? {
    if let reason = Self.nameProblem(name) {
      return ValidationFailure(attribute: "name", reason: reason)
    }
    if let reason = Self.searchKeyProblem(searchKey) {
      return ValidationFailure(attribute: "searchKey", reason: reason)
    }
    if let reason = Self.ratingProblem(rating) {
      return ValidationFailure(attribute: "rating", reason: reason)
    }
    if timesWorn < 0 {
      return ValidationFailure(attribute: "timesWorn", reason: "\(timesWorn) is negative")
    }
    if let tintColor, !tintColor.isFinite {
      return ValidationFailure(
        attribute: "tintColor", reason: "has a component that is not a number")
    }
    // A NaN date (a binary plist can hold one) is inside every range, since Date's <= holds
    // both ways; stored, it would trap in the conversion to text.
    if let lastWorn, lastWorn.timeIntervalSinceReferenceDate.isNaN {
      return ValidationFailure(attribute: "lastWorn", reason: "is not a date (NaN)")
    }
    if let lastWorn, !Self.lastWornRange.contains(lastWorn) {
      return ValidationFailure(attribute: "lastWorn", reason: "is outside the years 1 to 9999")
    }
    if let url, let reason = Self.urlProblem(url) {
      return ValidationFailure(attribute: "url", reason: reason)
    }
    if let price, let reason = Self.priceProblem(price) {
      return ValidationFailure(attribute: "price", reason: reason)
    }
    switch (price, currency) {
    case (nil, nil): break
    case (_?, nil):
      return ValidationFailure(attribute: "currency", reason: "is missing for the price")
    case (nil, _?):
      return ValidationFailure(attribute: "currency", reason: "is given without a price")
    case (_?, let code?):
      if let reason = Currency.shapeProblem(code) {
        return ValidationFailure(attribute: "currency", reason: reason)
      }
    }
    return nil
  }

  static func nameProblem(_ name: String) -> String? {
    // Printable ASCII has no control characters and one character a byte.
    let utf8 = name.utf8
    if utf8.count <= maximumNameLength, utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
      return utf8.allSatisfy { $0 == 0x20 } ? "is empty" : nil
    }
    return generalNameProblem(name)
  }

  static func generalNameProblem(_ name: String) -> String? {
    if name.allSatisfy(\.isWhitespace) { return "is empty" }
    if name.count > maximumNameLength { return "is longer than \(maximumNameLength) characters" }
    if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      return "contains control characters"
    }
    if let scalar = firstNoncharacter(name) { return "contains the noncharacter \(scalar)" }
    return nil
  }

  /// Noncharacters (U+FFFE, U+FFFF, U+FDD0…) are not text to interchange: XML cannot hold
  /// U+FFFE or U+FFFF at all, so a tie named with one exported to a plist nothing could read.
  private static func firstNoncharacter(_ text: String) -> String? {
    text.unicodeScalars.first(where: \.properties.isNoncharacterCodePoint).map {
      "U+" + String($0.value, radix: 16, uppercase: true)
    }
  }

  static func searchKeyProblem(_ key: String) -> String? {
    // Printable ASCII other than the space: one character a byte, none of them refused.
    let utf8 = key.utf8
    if (1...maximumSearchKeyLength).contains(utf8.count),
      utf8.allSatisfy({ (0x21...0x7E).contains($0) })
    {
      return nil
    }
    return generalSearchKeyProblem(key)
  }

  static func generalSearchKeyProblem(_ key: String) -> String? {
    if key.isEmpty { return "is empty" }
    if key.count > maximumSearchKeyLength {
      return "'\(key.excerpt)' is longer than \(maximumSearchKeyLength) characters"
    }
    if key.contains(where: { $0.isWhitespace || $0.unicodeScalars.contains { $0.value < 0x20 } }) {
      return "'\(key.excerpt)' contains white space or control characters"
    }
    if let scalar = firstNoncharacter(key) {
      return "'\(key.excerpt)' contains the noncharacter \(scalar)"
    }
    return nil
  }

  static func ratingProblem(_ rating: Double) -> String? {
    guard rating.isFinite else { return "\(rating) is not a number from 0 to 5" }
    guard ratingRange.contains(rating) else {
      return "\(formatRating(rating)) is outside 0…5"
    }
    return nil
  }

  /// Why `url` is not a purchase link; `typed` is how the user wrote it, for the message
  /// (URL(string:) percent-encodes what it cannot take).
  static func urlProblem(_ url: URL, typed: String? = nil) -> String? {
    if let scheme = url.scheme, !scheme.isEmpty, url.host != nil || scheme == "mailto" {
      return nil
    }
    let text = typed ?? url.absoluteString
    // A link copied without its scheme (www.example.com/tie) is the usual mistake.
    if url.scheme == nil, URL(string: "https://" + text)?.host?.contains(".") == true {
      return "'\(text.excerpt)' is not an absolute URL: did you mean 'https://\(text.excerpt)'?"
    }
    if url.scheme != nil {
      return "'\(text.excerpt)' is not an absolute URL with a host (https://…)"
    }
    return "'\(text.excerpt)' is not an absolute URL"
  }

  /// Parses a purchase link once, returning the URL or why it is refused.
  package static func checkURL(_ text: String) -> Result<URL, ValidationFailure> {
    let reason: String
    if let url = URL(string: text) {
      guard let problem = urlProblem(url, typed: text) else { return .success(url) }
      reason = problem
    } else {
      reason = "'\(text.excerpt)' is not an absolute URL"
    }
    return .failure(ValidationFailure(attribute: "url", reason: reason))
  }

  /// Whether `date` is after today, in the user's time zone: no wear can be, whether typed
  /// (`wear --date`, `edit --last-worn`) or read from a seed.
  public static func isAfterToday(_ date: Date) -> Bool {
    let calendar = Calendar.current
    guard
      let tomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: Date()))
    else { return false }
    // As numbers, so that a NaN date (which validation names) is no date after today:
    // Date's own >= holds for it.
    return date.timeIntervalSinceReferenceDate >= tomorrow.timeIntervalSinceReferenceDate
  }

  /// Dates the store can write as ISO 8601 text: years 1 to 9999.
  package static let lastWornRange =
    Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799)

  /// The most a price may be, and how many decimal places it may have.
  public static let maximumPrice = Decimal(1_000_000_000)
  public static let maximumPriceScale = 4

  /// What is wrong with `price`, named as `typed` when it was typed: a `Decimal` keeps
  /// 38 digits, and the message should name what the user wrote.
  static func priceProblem(_ price: Decimal, typed: String? = nil) -> String? {
    // Only a refused price is written out: every tie of a seed is checked.
    var shown: String { (typed ?? "\(price)").excerpt }
    if price.isNaN { return "is not a number" }
    if price < 0 { return "\(shown) is negative" }
    if price > maximumPrice { return "\(shown) is above \(maximumPrice)" }
    // Zero keeps the exponent it was written with (0.00000); it has no decimals.
    if !price.isZero, price.exponent < -maximumPriceScale {
      return "\(shown) has more than \(maximumPriceScale) decimal places"
    }
    return nil
  }

  /// Parses a purchase link: an absolute URL with a scheme and a host.
  public static func parseURL(_ text: String) throws(BowTieError) -> URL {
    switch checkURL(text) {
    case .success(let url): return url
    case .failure(let problem): throw .invalidValue("url \(problem.reason)")
    }
  }

  /// Checks a search key as typed: not empty, short, no white space.
  public static func parseSearchKey(_ text: String) throws(BowTieError) -> String {
    if let problem = searchKeyProblem(text) { throw .invalidValue("searchKey \(problem)") }
    return text
  }

  /// The exact decimal text a price is stored and exchanged as: "19.99", "5".
  public static func priceText(_ price: Decimal) -> String {
    NSDecimalNumber(decimal: price).stringValue
  }

  /// Parses a price as typed or as a seed file's string: digits with an optional dot
  /// and decimals (`19.99`), whatever the locale. Exact: `Decimal`, never `Double`.
  public static func parsePrice(_ text: String) throws(BowTieError) -> Decimal {
    let trimmed = text.trimmingSpaces()
    guard PlainDecimal.isPlain(trimmed),
      let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
    else {
      let hint = trimmed.contains(",") ? " (write decimals with a dot: 19.99)" : ""
      throw .invalidValue("'\(text.excerpt)' is not a price: use an amount such as 19.99\(hint)")
    }
    if let problem = priceProblem(value, typed: trimmed) { throw .invalidValue("price \(problem)") }
    return value
  }

  /// Renders a rating without a trailing ".0", the way people write them: 4, 4.5, and
  /// without an exponent, which Swift's shortest form uses below 0.0001 (`1e-05`).
  public static func formatRating(_ rating: Double) -> String {
    if rating.isFinite, rating == rating.rounded(), abs(rating) < 1e15 {
      return String(Int64(rating))
    }
    return plainDigits(String(rating))
  }

  /// Swift's shortest round-trip form of a finite double with its exponent written out
  /// as zeros (`1.5e-07` is `0.00000015`); any other text as it is.
  static func plainDigits(_ shortest: String) -> String {
    let parts = shortest.split(separator: "e", omittingEmptySubsequences: false)
    guard parts.count == 2, let exponent = Int(parts[1]), abs(exponent) < 400 else {
      return shortest
    }
    var mantissa = Substring(parts[0])
    let sign = mantissa.hasPrefix("-") ? "-" : ""
    if !sign.isEmpty { mantissa = mantissa.dropFirst() }
    let wholeDigits = mantissa.prefix { $0 != "." }
    let digits = wholeDigits + mantissa.dropFirst(wholeDigits.count + 1)
    let point = wholeDigits.count + exponent
    if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
    if point >= digits.count {
      return sign + digits + String(repeating: "0", count: point - digits.count)
    }
    return sign + digits.prefix(point) + "." + digits.dropFirst(point)
  }

  /// The canonical form of a search key, used for its case-insensitive uniqueness.
  package static func canonicalKey(_ key: String) -> String { canonicalize(key) }
}

// MARK: - Parsing values people type

extension BowTie {
  /// Parses a rating as typed on a command line or at a prompt: a decimal from 0 to 5
  /// written with a dot (`4.5`), whatever the locale. Refuses `4,5`, `nan`, `inf`,
  /// exponents, signs and anything outside 0…5.
  public static func parseRating(_ text: String) throws(BowTieError) -> Double {
    let trimmed = text.trimmingSpaces()
    guard !trimmed.isEmpty else { throw .invalidValue("a rating is needed: a number from 0 to 5") }
    guard PlainDecimal.isPlain(trimmed), let value = Double(trimmed) else {
      let hint = trimmed.contains(",") ? " (write decimals with a dot: 4.5)" : ""
      throw .invalidValue("'\(text.excerpt)' is not a rating: use a number from 0 to 5\(hint)")
    }
    guard ratingRange.contains(value) else {
      throw .invalidValue("rating \(trimmed.excerpt) is outside 0…5")
    }
    return value
  }
}
