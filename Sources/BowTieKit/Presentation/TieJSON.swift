import Foundation
import PropertyLists

/// A tie as `show --json` and `list --json` print it: the seed plist's keys, with
/// `lastWorn` in ISO 8601 UTC, `tintColor` as `{red, green, blue}` (0–255 each, with an
/// `alpha` from 0 to 1 only for a color that is not opaque) and `id` as a
/// UUID string, `price` as an exact decimal string and `currency` as its ISO 4217 code
/// (`null` with `price`; absent from what bowties printed before prices had one), plus `photoBytes` and the photo's
/// `photoFormat` (`"png"`, `"jpeg"`) and upright size in pixels (`photoWidth`,
/// `photoHeight`), `null` without a photo or for one whose format is not known. A color
/// that could not be decoded is `null`, with `tintColorUnreadable: true`.
public struct TieJSON: Codable, Equatable, Sendable {
  public struct RGB: Codable, Equatable, Sendable {
    public var red, green, blue: Int
    /// The opacity, 0 to 1 in steps of 1/255 to three decimals; absent when opaque.
    public var alpha: Double?

    public init(_ color: TieColor) {
      red = Int(color.red8)
      green = Int(color.green8)
      blue = Int(color.blue8)
      alpha = color.isOpaque ? nil : (Double(color.alpha8) / 255 * 1000).rounded() / 1000
    }
  }

  public var id: String
  public var name: String
  public var searchKey: String
  public var rating: Double
  public var timesWorn: Int
  public var lastWorn: String?
  public var isFavorite: Bool
  public var url: String?
  /// Exact, as a string: "19.99".
  public var price: String?
  /// The price's currency: "EUR".
  public var currency: String?
  public var tintColor: RGB?
  public var tintColorUnreadable: Bool?
  public var photoBytes: Int
  public var photoFormat: String?
  public var photoWidth: Int?
  public var photoHeight: Int?

  public init(_ tie: BowTie) {
    id = tie.id.uuidString
    name = tie.name
    searchKey = tie.searchKey
    rating = tie.rating
    timesWorn = Int(tie.timesWorn)
    lastWorn = tie.lastWorn.map(ISO8601.formatUTC)
    isFavorite = tie.isFavorite
    url = tie.url?.absoluteString
    price = tie.price.map(BowTie.priceText)
    currency = tie.currency
    tintColor = tie.tintColor.map(RGB.init)
    tintColorUnreadable = tie.colorIssue == nil ? nil : true
    photoBytes = tie.photoByteCount ?? 0
    photoFormat = tie.photoDescription?.format.rawValue
    photoWidth = tie.photoDescription?.width
    photoHeight = tie.photoDescription?.height
  }

  // Keys appear even when their value is null, so scripts see one stable shape.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encode(searchKey, forKey: .searchKey)
    try container.encode(rating, forKey: .rating)
    try container.encode(timesWorn, forKey: .timesWorn)
    try container.encode(lastWorn, forKey: .lastWorn)
    try container.encode(isFavorite, forKey: .isFavorite)
    try container.encode(url, forKey: .url)
    try container.encode(price, forKey: .price)
    try container.encode(currency, forKey: .currency)
    try container.encode(tintColor, forKey: .tintColor)
    try container.encodeIfPresent(tintColorUnreadable, forKey: .tintColorUnreadable)
    try container.encode(photoBytes, forKey: .photoBytes)
    try container.encode(photoFormat, forKey: .photoFormat)
    try container.encode(photoWidth, forKey: .photoWidth)
    try container.encode(photoHeight, forKey: .photoHeight)
  }

  /// The encoder every JSON output uses: sorted keys, no escaped slashes and dates in
  /// ISO 8601 UTC, so the output is stable and URLs read naturally.
  public static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(ISO8601.formatUTC(date))
    }
    return encoder
  }
}
