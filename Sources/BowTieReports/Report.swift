import BowTieKit
import BowTieModel
import Foundation
import TextOutput

/// What `bowties report` says about a wardrobe on a given day: the data, independent of
/// its format. ``ReportBuilder`` fills it from a store; the renderers in this folder turn
/// it into text, Markdown, HTML, JSON or CSV.
///
/// Everything in it is determined by the store, `asOf` and the options, so a report
/// rendered twice for the same `--as-of` is byte-for-byte the same.
public struct Report: Equatable, Sendable {
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
    /// `#RRGGBB` (`#RRGGBBAA` when not opaque), or nil when the tie has no readable color.
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

  /// One of the report's lists of ties.
  public enum List: String, CaseIterable, Sendable {
    /// Ties worn at least once, most worn first.
    case mostWorn
    /// Ties worn at least once, least worn first.
    case leastWorn
    /// Ties never worn, R O Y G B I V then by name.
    case neverWorn
    /// Ties worn before, but not in the last `staleDays` days, longest unworn first.
    case notWornRecently
    /// Every tie, R O Y G B I V then by name.
    case all
  }

  /// A list: how many ties belong to it, and those it shows.
  public struct TieList: Equatable, Sendable {
    /// How many ties belong to the list.
    public var total: Int
    /// The ties shown, in the list's order: the first ``Report/limit`` of them, or all.
    public var ties: [Tie]

    public init(total: Int, ties: [Tie]) {
      self.total = total
      self.ties = ties
    }
  }

  /// The day the report describes: "now" for staleness and the monthly window.
  public var asOf: Date
  /// The time zone whose calendar months and days the report counts in (an identifier).
  public var timeZone: String
  public var staleDays: Int
  public var months: Int
  /// How many ties each list shows at most; nil when every list is shown whole (`--all`).
  public var limit: Int?

  public var tieCount: Int
  public var favoriteCount: Int
  /// Mean rating, nil for an empty store.
  public var averageRating: Double?
  public var mostWorn: TieList
  public var leastWorn: TieList
  public var neverWorn: TieList
  public var notWornRecently: TieList
  /// Every tie; nil when the report leaves the list out (a store of more than
  /// ``ReportBuilder/allTiesThreshold`` ties, without `--all`).
  public var allTies: TieList?
  /// The last `months` calendar months up to and including `asOf`'s, oldest first.
  public var wearsPerMonth: [Month]
  /// Buckets 0, 1, 2, 3, 4 (each up to the next whole star) and 5, always all six,
  /// lowest first.
  public var ratingDistribution: [RatingBucket]
  /// Nil for an empty store.
  public var suggestion: Suggestion?

  /// One of the lists; nil for ``List/all`` when it is left out.
  public func list(_ list: List) -> TieList? {
    switch list {
    case .mostWorn: mostWorn
    case .leastWorn: leastWorn
    case .neverWorn: neverWorn
    case .notWornRecently: notWornRecently
    case .all: allTies
    }
  }
}

/// Where a renderer reads the ties a report's lists show: the report itself, or, for
/// whole lists of a large store, the store, one row at a time as they are written.
protocol ReportTieSource {
  /// Calls `body` with each tie `list` shows, in its order.
  func forEachTie(in list: Report.List, _ body: (Report.Tie) throws -> Void) throws
  /// The widest search key and name (in characters) and the most days since worn among
  /// the ties `list` shows, for a layout in columns.
  func widths(of list: Report.List) throws -> Report.Widths
}

extension Report {
  /// How wide a list's columns must be.
  struct Widths: Equatable {
    var key = 0
    var name = 0
    var days = 0

    /// Widens the columns for one tie, its texts measured as the text report prints them.
    mutating func include(key: String, name: String, days: Int?) {
      self.key = max(self.key, TextCells.width(ReportFormatting.singleLine(key)))
      self.name = max(self.name, TextCells.width(ReportFormatting.singleLine(name)))
      self.days = max(self.days, days ?? 0)
    }
  }
}

extension Report: ReportTieSource {
  func forEachTie(in list: List, _ body: (Tie) throws -> Void) throws {
    for tie in self.list(list)?.ties ?? [] { try body(tie) }
  }

  func widths(of list: List) -> Widths {
    var widths = Widths()
    for tie in self.list(list)?.ties ?? [] {
      widths.include(key: tie.searchKey, name: tie.name, days: tie.daysSinceWorn)
    }
    return widths
  }
}

/// The formats `bowties report --format` writes.
public enum ReportFormat: String, CaseIterable, Sendable {
  case text, markdown, html, json, csv
}
