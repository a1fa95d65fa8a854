import BowTieModel
import Foundation

/// The order every listing shares, and the SQL of `history`: plain SQL that SQLite and
/// PostgreSQL both read, its values bound. The report's and the suggestions' SQL is the
/// reports module's (`ReportSQL`), in the same order.
package enum SummarySQL {
  /// The app's order: R O Y G B I V, then by name. Breaks every other order's ties, so
  /// the same store always lists the same ties in the same order.
  package static let appOrder = "\(appKeyRank), canonicalName, canonicalKey"

  /// A tie's place in R O Y G B I V, 7 for any other key.
  package static let appKeyRank = """
    CASE upper(searchKey) WHEN 'R' THEN 0 WHEN 'O' THEN 1 WHEN 'Y' THEN 2 WHEN 'G' THEN 3 \
    WHEN 'B' THEN 4 WHEN 'I' THEN 5 WHEN 'V' THEN 6 ELSE 7 END
    """

  /// `history`: wear events newest first, with their tie's key and name, for the tie
  /// `tieId` or all, from `since` and before `until` when those are given.
  static func history(tieId: String?, since: String?, until: String?) -> SQL {
    let conditions: [SQL] = [
      tieId.map { "wearEvent.tieId = \($0)" },
      since.map { "wearEvent.wornAt >= \($0)" },
      until.map { "wearEvent.wornAt < \($0)" },
    ].compactMap { $0 }
    var sql: SQL = """
      SELECT wearEvent.id, wearEvent.tieId, wearEvent.wornAt,
        coalesce(bowTie.searchKey, '?') AS searchKey, coalesce(bowTie.name, '?') AS name
      FROM wearEvent LEFT JOIN bowTie ON bowTie.id = wearEvent.tieId
      """
    if !conditions.isEmpty { sql += "\nWHERE \(conditions.joined(separator: " AND "))" }
    sql += "\nORDER BY wearEvent.wornAt DESC, wearEvent.id DESC"
    return sql
  }
}
