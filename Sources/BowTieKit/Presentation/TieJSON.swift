import BowTieModel
import Foundation
import PropertyLists
import TextOutput

/// A tie as `show --json` and `list --json` print it: the seed plist's keys, with
/// `lastWorn` in ISO 8601 UTC, `tintColor` as `{red, green, blue}` (0–255 each, with an
/// `alpha` from 0 to 1 only for a color that is not opaque) and `id` as a
/// UUID string, `price` as an exact decimal string and `currency` as its ISO 4217 code
/// (`null` with `price`; absent from what bowties printed before prices had one), plus `photoBytes` and the photo's
/// `photoFormat` (`"png"`, `"jpeg"`) and upright size in pixels (`photoWidth`,
/// `photoHeight`), `null` without a photo or for one whose format is not known. A color
/// that could not be decoded is `null`, with `tintColorUnreadable: true`.
public struct TieJSON: Codable, Equatable, Sendable, JSONObject {
  public struct RGB: Codable, Equatable, Sendable, JSONObject {
    public var red, green, blue: Int
    /// The opacity, 0 to 1 in steps of 1/255 to three decimals; absent when opaque.
    public var alpha: Double?

    public init(_ color: TieColor) {
      red = Int(color.red8)
      green = Int(color.green8)
      blue = Int(color.blue8)
      alpha = color.isOpaque ? nil : (Double(color.alpha8) / 255 * 1000).rounded() / 1000
    }

    public func writeFields(to fields: inout some JSONFields) throws {
      try fields.field("alpha", alpha, omittingNil: true)
      try fields.field("blue", blue)
      try fields.field("green", green)
      try fields.field("red", red)
    }

    public func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
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
    id = tie.id.text
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
  public func writeFields(to fields: inout some JSONFields) throws {
    try fields.field("currency", currency)
    try fields.field("id", id)
    try fields.field("isFavorite", isFavorite)
    try fields.field("lastWorn", lastWorn)
    try fields.field("name", name)
    try fields.field("photoBytes", photoBytes)
    try fields.field("photoFormat", photoFormat)
    try fields.field("photoHeight", photoHeight)
    try fields.field("photoWidth", photoWidth)
    try fields.field("price", price)
    try fields.field("rating", rating)
    try fields.field("searchKey", searchKey)
    try fields.field("timesWorn", timesWorn)
    try fields.field("tintColor", tintColor)
    try fields.field("tintColorUnreadable", tintColorUnreadable, omittingNil: true)
    try fields.field("url", url)
  }

  public func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }

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
