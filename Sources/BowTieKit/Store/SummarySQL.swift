import Foundation

/// The SQL behind `report`, `suggest` and `history`, in one place.
///
/// Plain SQL that SQLite and PostgreSQL both read, with named parameters (`:asOfDay`),
/// so the same summaries can run on another engine: date thresholds (the start of a day,
/// of a month) are worked out in Swift with the report's `Calendar` and bound, and the
/// one thing that cannot be said portably, the local calendar day of a stored instant,
/// comes from ``SQLDialect``. Every figure is an aggregate or an `ORDER BY … LIMIT`, so
/// memory does not grow with the number of ties or wears.
///
/// `scripts/bench-report` runs the same statements through the `sqlite3` CLI as its
/// yardstick; keep the two in step.
enum SummarySQL {
  /// The app's order: R O Y G B I V, then by name. Breaks every other order's ties, so
  /// the same store always lists the same ties in the same order.
  static let appOrder = "\(appKeyRank), canonicalName, canonicalKey"

  /// A tie's place in R O Y G B I V, 7 for any other key.
  static let appKeyRank = """
    CASE upper(searchKey) WHEN 'R' THEN 0 WHEN 'O' THEN 1 WHEN 'Y' THEN 2 WHEN 'G' THEN 3 \
    WHEN 'B' THEN 4 WHEN 'I' THEN 5 WHEN 'V' THEN 6 ELSE 7 END
    """

  /// What a report shows of a tie, read by ``Report/Tie/init(row:)``.
  static func tieColumns(_ dialect: SQLDialect) -> String {
    "id, searchKey, name, rating, timesWorn, lastWorn, isFavorite, tintColor, "
      + "\(dialect.daysSinceWorn) AS days"
  }

  /// The report's counts, in one pass over the ties. Binds `:staleBefore`, the first
  /// instant of the last day a tie may have been worn and not be stale.
  static let summary = """
    SELECT count(*) AS ties,
      count(CASE WHEN isFavorite = 1 THEN 1 END) AS favorites,
      avg(rating) AS averageRating,
      count(CASE WHEN timesWorn > 0 THEN 1 END) AS worn,
      count(CASE WHEN timesWorn = 0 THEN 1 END) AS neverWorn,
      count(CASE WHEN lastWorn < :staleBefore THEN 1 END) AS notWornRecently,
      count(CASE WHEN rating < 1 THEN 1 END) AS rated0,
      count(CASE WHEN rating >= 1 AND rating < 2 THEN 1 END) AS rated1,
      count(CASE WHEN rating >= 2 AND rating < 3 THEN 1 END) AS rated2,
      count(CASE WHEN rating >= 3 AND rating < 4 THEN 1 END) AS rated3,
      count(CASE WHEN rating >= 4 AND rating < 5 THEN 1 END) AS rated4,
      count(CASE WHEN rating = 5 THEN 1 END) AS rated5
    FROM bowTie
    """

  /// The ties of one of the report's lists, in its order; the first `:limit` when
  /// `limited`, except for ``Report/List/all``, which a report shows whole or not at all.
  /// Binds `:staleBefore` (``summary``) and what ``SQLDialect`` needs.
  static func list(_ list: Report.List, _ dialect: SQLDialect, limited: Bool) -> String {
    let (condition, order): (String?, String) =
      switch list {
      case .mostWorn: ("timesWorn > 0", "timesWorn DESC, \(appOrder)")
      case .leastWorn: ("timesWorn > 0", "timesWorn, \(appOrder)")
      case .neverWorn: ("timesWorn = 0", appOrder)
      case .notWornRecently: ("lastWorn < :staleBefore", "lastWorn, \(appOrder)")
      case .all: (nil, appOrder)
      }
    return "SELECT \(tieColumns(dialect)) FROM bowTie"
      + (condition.map { " WHERE \($0)" } ?? "") + " ORDER BY \(order)"
      + (limited && list != .all ? " LIMIT :limit" : "")
  }

  /// The search keys and names of one list's ties, to size the text report's columns
  /// before its rows are streamed.
  static func listNames(_ list: Report.List, _ dialect: SQLDialect, limited: Bool) -> String {
    "SELECT searchKey, name, days FROM (\(self.list(list, dialect, limited: limited))) AS shown"
  }

  /// Wears recorded in `[:start, :end)`: one month of the chart, counted on the
  /// `wornAt` index.
  static let wearsBetween = """
    SELECT count(*) FROM wearEvent WHERE wornAt >= :start AND wornAt < :end
    """

  /// `suggest`: every tie but those worn most recently, scored
  /// `(days since worn + 1) × (1 + rating) × 1.5 for a favorite`, a never-worn tie
  /// counting `:neverWornDays`; best first, equal scores in the app's order. Binds
  /// `:limit` and what ``SQLDialect`` needs.
  static func suggestions(_ dialect: SQLDialect) -> String {
    """
    SELECT candidate.*,
      (coalesce(days, :neverWornDays) + 1) * (1 + rating)
        * (CASE WHEN isFavorite = 1 THEN 1.5 ELSE 1 END) AS score
    FROM (
      SELECT \(tieColumns(dialect)), canonicalName, canonicalKey FROM bowTie
      WHERE lastWorn IS NULL OR lastWorn < (SELECT max(lastWorn) FROM bowTie)
    ) AS candidate
    ORDER BY score DESC, \(appOrder)
    LIMIT :limit
    """
  }

  /// `history`: wear events newest first, with their tie's key and name, for one tie
  /// (`:tieId`) or all, from `:since` and before `:until` when those are given.
  static func history(oneTie: Bool, since: Bool, until: Bool) -> String {
    let conditions = [
      oneTie ? "wearEvent.tieId = :tieId" : nil,
      since ? "wearEvent.wornAt >= :since" : nil,
      until ? "wearEvent.wornAt < :until" : nil,
    ].compactMap { $0 }
    return """
      SELECT wearEvent.id, wearEvent.tieId, wearEvent.wornAt,
        coalesce(bowTie.searchKey, '?') AS searchKey, coalesce(bowTie.name, '?') AS name
      FROM wearEvent LEFT JOIN bowTie ON bowTie.id = wearEvent.tieId
      """
        + (conditions.isEmpty ? "" : "\nWHERE " + conditions.joined(separator: " AND "))
        + "\nORDER BY wearEvent.wornAt DESC, wearEvent.id DESC"
  }
}
