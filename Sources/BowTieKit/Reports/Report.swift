import Foundation

/// What `bowties report` says about a wardrobe on a given day: the data, independent of
/// its format. ``ReportBuilder`` fills it from a store; the renderers in this folder turn
/// it into text, Markdown, HTML, JSON or CSV.
///
/// Everything in it is determined by the store, `asOf` and the options, so a report
/// rendered twice for the same `--as-of` is byte-for-byte the same.
public struct Report: Codable, Equatable, Sendable {
  /// One tie as the report shows it.
  public struct Tie: Codable, Equatable, Sendable {
    public var id: String
    public var searchKey: String
    public var name: String
    public var rating: Double
    public var timesWorn: Int
    public var lastWorn: Date?
    /// Whole days from `lastWorn` to the report's `asOf`; nil when never worn.
    public var daysSinceWorn: Int?
    public var isFavorite: Bool
    /// `#RRGGBB`, or nil when the tie has no readable color.
    public var color: String?

    public init(
      id: String, searchKey: String, name: String, rating: Double, timesWorn: Int,
      lastWorn: Date?, daysSinceWorn: Int?, isFavorite: Bool, color: String?
    ) {
      self.id = id
      self.searchKey = searchKey
      self.name = name
      self.rating = rating
      self.timesWorn = timesWorn
      self.lastWorn = lastWorn
      self.daysSinceWorn = daysSinceWorn
      self.isFavorite = isFavorite
      self.color = color
    }
  }

  /// Wears recorded in one calendar month (in the report's time zone).
  public struct Month: Codable, Equatable, Sendable {
    /// "2026-11".
    public var month: String
    public var wears: Int
  }

  /// How many ties have a rating from `from` up to, not including, `to`; the last
  /// bucket holds the ties rated exactly 5.
  public struct RatingBucket: Codable, Equatable, Sendable {
    /// The whole number of stars: "0" … "5".
    public var label: String
    public var from: Double
    public var to: Double
    public var ties: Int
  }

  /// The tie to wear next, and why, in one line.
  public struct Suggestion: Codable, Equatable, Sendable {
    public var tie: Tie
    public var score: Double
    /// e.g. "not worn for 42 days, rated 4.5/5, a favorite".
    public var reason: String
  }

  /// The day the report describes: "now" for staleness and the monthly window.
  public var asOf: Date
  /// The time zone whose calendar months and days the report counts in (an identifier).
  public var timeZone: String
  public var staleDays: Int
  public var months: Int

  public var tieCount: Int
  public var favoriteCount: Int
  /// Mean rating, nil for an empty store.
  public var averageRating: Double?
  /// Every tie worn the most times (several when they tie); empty if no tie was worn.
  public var mostWorn: [Tie]
  /// Every tie worn the fewest times among those worn at least once.
  public var leastWorn: [Tie]
  /// Ties never worn, R O Y G B I V then by name.
  public var neverWorn: [Tie]
  /// Ties worn before, but not in the last `staleDays` days, oldest first.
  public var notWornRecently: [Tie]
  /// The last `months` calendar months up to and including `asOf`'s, oldest first.
  public var wearsPerMonth: [Month]
  /// Buckets 0, 1, 2, 3, 4 (each up to the next whole star) and 5, always all six,
  /// lowest first.
  public var ratingDistribution: [RatingBucket]
  /// Nil for an empty store.
  public var suggestion: Suggestion?
  /// Every tie, R O Y G B I V then by name: the CSV rows and the HTML swatches.
  public var ties: [Tie]
}

/// The formats `bowties report --format` writes.
public enum ReportFormat: String, CaseIterable, Sendable {
  case text, markdown, html, json, csv
}
