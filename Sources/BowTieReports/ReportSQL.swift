import BowTieKit
import BowTieModel
import Foundation

/// The SQL behind `report` and `suggest`, in one place.
///
/// Plain SQL that SQLite and PostgreSQL both read, its values bound, so the same
/// summaries run on either engine: date thresholds (the start of a day, of a month) are
/// worked out in Swift with the report's `Calendar` and bound, and the one thing that
/// cannot be said portably, the local calendar day of a stored instant, comes from the
/// engine's ``SQLDialect``. Every figure is an aggregate or an `ORDER BY … LIMIT`, so
/// memory does not grow with the number of ties or wears.
///
/// `scripts/bench-report` runs the same statements through the `sqlite3` CLI as its
/// yardstick; keep the two in step.
enum ReportSQL {
  static let appOrder = SummarySQL.appOrder

  /// How a report counts days since a tie was worn, worked out once per report.
  struct Days {
    /// What ``SQLDialect/daysSinceWorn(asOfDay:dayShift:)`` takes: the as-of day
    /// (`2026-11-21`), and which days count (``SQLDialect/dayShift(for:at:)``).
    var asOfDay: String
    var dayShift: String
  }

  /// What a report shows of a tie, read by ``Report/Tie/init(row:)``.
  static func tieColumns(_ dialect: any SQLDialect, _ days: Days) -> SQL {
    """
    id, searchKey, name, rating, timesWorn, lastWorn, isFavorite, tintColor, \
    \(dialect.daysSinceWorn(asOfDay: days.asOfDay, dayShift: days.dayShift)) AS days
    """
  }

  /// The report's counts, in one pass over the ties. `staleBefore` is the first instant
  /// of the last day a tie may have been worn and not be stale.
  static func summary(staleBefore: String) -> SQL {
    """
    SELECT count(*) AS ties,
      count(CASE WHEN isFavorite = 1 THEN 1 END) AS favorites,
      avg(rating) AS averageRating,
      count(CASE WHEN timesWorn > 0 THEN 1 END) AS worn,
      count(CASE WHEN timesWorn = 0 THEN 1 END) AS neverWorn,
      count(CASE WHEN lastWorn < \(staleBefore) THEN 1 END) AS notWornRecently,
      count(CASE WHEN rating < 1 THEN 1 END) AS rated0,
      count(CASE WHEN rating >= 1 AND rating < 2 THEN 1 END) AS rated1,
      count(CASE WHEN rating >= 2 AND rating < 3 THEN 1 END) AS rated2,
      count(CASE WHEN rating >= 3 AND rating < 4 THEN 1 END) AS rated3,
      count(CASE WHEN rating >= 4 AND rating < 5 THEN 1 END) AS rated4,
      count(CASE WHEN rating = 5 THEN 1 END) AS rated5
    FROM bowTie
    """
  }

  /// The ties of one of the report's lists, in its order; the first `limit` when given,
  /// except for ``Report/List/all``, which a report shows whole or not at all.
  /// `staleBefore` is ``summary(staleBefore:)``'s.
  static func list(
    _ list: Report.List, _ dialect: any SQLDialect, _ days: Days, staleBefore: String,
    limit: Int64?
  ) -> SQL {
    let (condition, order): (SQL?, String) =
      switch list {
      case .mostWorn: ("timesWorn > 0", "timesWorn DESC, \(appOrder)")
      case .leastWorn: ("timesWorn > 0", "timesWorn, \(appOrder)")
      case .neverWorn: ("timesWorn = 0", appOrder)
      case .notWornRecently: ("lastWorn < \(staleBefore)", "lastWorn, \(appOrder)")
      case .all: (nil, appOrder)
      }
    var sql: SQL = "SELECT \(tieColumns(dialect, days)) FROM bowTie"
    if let condition { sql += " WHERE \(condition)" }
    sql += " ORDER BY \(sql: order)"
    if let limit, list != .all { sql += " LIMIT \(limit)" }
    return sql
  }

  /// The search keys and names of one list's ties (``list(_:_:_:staleBefore:limit:)``), to
  /// size the text report's columns before its rows are streamed.
  static func listNames(_ list: SQL) -> SQL {
    "SELECT searchKey, name, days FROM (\(list)) AS shown"
  }

  /// Wears recorded in `[start, end)`: one month of the chart, counted on the `wornAt`
  /// index.
  static func wearsBetween(_ start: String, _ end: String) -> SQL {
    "SELECT count(*) FROM wearEvent WHERE wornAt >= \(start) AND wornAt < \(end)"
  }

  /// `suggest`: every tie but those worn most recently, scored
  /// `(days since worn + 1) × (1 + rating) × 1.5 for a favorite`, a never-worn tie
  /// counting `neverWornDays`; best first, equal scores in the app's order, the first
  /// `limit`.
  static func suggestions(
    _ dialect: any SQLDialect, _ days: Days, neverWornDays: Int, limit: Int64
  ) -> SQL {
    """
    SELECT candidate.*,
      (coalesce(days, \(neverWornDays)) + 1) * (1 + rating)
        * (CASE WHEN isFavorite = 1 THEN 1.5 ELSE 1 END) AS score
    FROM (
      SELECT \(tieColumns(dialect, days)), canonicalName, canonicalKey FROM bowTie
      WHERE lastWorn IS NULL OR lastWorn < (SELECT max(lastWorn) FROM bowTie)
    ) AS candidate
    ORDER BY score DESC, \(sql: appOrder)
    LIMIT \(limit)
    """
  }
}
