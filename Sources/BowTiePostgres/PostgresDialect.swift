import BowTieKit
import BowTieModel
import Foundation

/// What the PostgreSQL engine says its own way (``SQLDialect``).
struct PostgresDialect: SQLDialect {
  /// Row locks: a write transaction runs at `READ COMMITTED`, and what it reads to change,
  /// nobody else changes before it commits.
  var lockingRead: SQL { " FOR UPDATE" }

  /// A lock on the tables, which other clients' reads pass and their writes wait for.
  func lockForReplacing(_ tables: [String]) -> SQL? {
    "LOCK TABLE \(sql: tables.joined(separator: ", ")) IN EXCLUSIVE MODE"
  }

  /// The identity's sequence set past the largest id.
  func identityCatchUp(table: String, column: String) -> SQL? {
    """
    SELECT setval(pg_get_serial_sequence('\(sql: table)', '\(sql: column)'), \
    COALESCE(max(\(sql: column)), 0) + 1, false) FROM \(sql: table)
    """
  }

  /// The difference of two `date`s is a whole number of days. GREATEST skips NULLs, where
  /// SQLite's max() gives NULL: a tie never worn needs its NULL kept. The day is read once,
  /// in a subquery: a bound value is text, and the server does not fold text's cast to
  /// date (it depends on DateStyle) but would read it again for every row, a sixth of a
  /// report's scan of a million ties.
  func daysSinceWorn(asOfDay: String, dayShift: String) -> SQL {
    """
    CASE WHEN lastWorn IS NOT NULL THEN GREATEST(0, (SELECT CAST(\(asOfDay) AS date)) \
    - CAST(timezone(\(dayShift), CAST(lastWorn AS timestamptz)) AS date)) END
    """
  }

  /// The zone's name, which the server's own time zone database reads, or for a fixed
  /// offset a POSIX zone, whose sign is west of Greenwich ("UTC-01:00" is an hour east).
  func dayShift(for timeZone: TimeZone, at date: Date) throws(BowTieError) -> String {
    guard timeZone.nextDaylightSavingTimeTransition(after: .distantPast) == nil else {
      return timeZone.identifier
    }
    let west = -timeZone.secondsFromGMT(for: date)
    return
      "UTC\(west < 0 ? "-" : "+")\(abs(west) / 3600):\(abs(west) / 60 % 60):\(abs(west) % 60)"
  }
}
