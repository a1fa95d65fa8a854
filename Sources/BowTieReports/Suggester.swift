import BowTieKit
import BowTieModel
import Foundation

/// Picks the tie to wear next.
///
/// Each tie scores `(days since worn + 1) × (1 + rating) × (1.5 for a favorite)`, where a
/// tie never worn counts as not worn for ``neverWornDays``. The tie worn most recently is
/// never suggested. Ties with equal scores go in R O Y G B I V order, so the choice is
/// the same for the same store and the same day. One query scores, orders and limits
/// them (``ReportSQL/suggestions(_:_:neverWornDays:limit:)``), whatever the number of ties.
public enum Suggester {
  /// How long a never-worn tie counts as unworn.
  public static let neverWornDays = 365

  /// The best `count` suggestions, best first, as of `asOf` in `calendar`'s time zone.
  public static func suggestions(
    from store: BowTieStore, asOf: Date, calendar: Calendar = .current, count: Int = 1
  ) throws(BowTieError) -> [Report.Suggestion] {
    let days = try ReportBuilder.days(asOf: asOf, calendar: calendar, dialect: store.dialect)
    return try store.read { db in try suggestions(db, days: days, count: count) }
  }

  /// The suggestions ``ReportSQL/suggestions(_:_:neverWornDays:limit:)`` gives, days
  /// counted as `days` says.
  static func suggestions(_ db: any SQLConnection, days: ReportSQL.Days, count: Int) throws
    -> [Report.Suggestion]
  {
    let sql = ReportSQL.suggestions(
      db.dialect, days, neverWornDays: neverWornDays, limit: Int64(max(0, count)))
    return try db.fetchAll(sql) { row in
      let tie = try Report.Tie(row: row)
      return Report.Suggestion(tie: tie, score: try row.decode("score"), reason: reason(tie))
    }
  }

  /// Why none of `tieCount` ties is suggested: there are none, or each is the tie worn
  /// last, which is never suggested.
  public static func noSuggestion(tieCount: Int) -> String {
    switch tieCount {
    case 0: "there are no ties"
    case 1: "the only tie is the one worn last"
    default: "every tie was last worn at the same time, the latest"
    }
  }

  /// "not worn for 42 days, rated 4.5/5, a favorite"
  static func reason(_ tie: Report.Tie) -> String {
    var parts: [String] = []
    switch tie.daysSinceWorn {
    case nil: parts.append("never worn")
    case 0: parts.append("worn today")
    case 1: parts.append("not worn since yesterday")
    case let days?: parts.append("not worn for \(days) days")
    }
    parts.append("rated \(BowTie.formatRating(tie.rating))/5")
    if tie.isFavorite { parts.append("a favorite") }
    return parts.joined(separator: ", ")
  }
}
