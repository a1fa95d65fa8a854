import BowTieModel
import Foundation

/// What the SQLite engine says its own way (``SQLDialect``).
struct SQLiteDialect: SQLDialect {
  /// Nothing: a SQLite write transaction (`BEGIN IMMEDIATE`) already holds the whole store.
  var lockingRead: SQL { "" }

  /// None: the write transaction already holds the store.
  func lockForReplacing(_ tables: [String]) -> SQL? { nil }

  /// None: an `INTEGER PRIMARY KEY AUTOINCREMENT` follows the largest id by itself.
  func identityCatchUp(table: String, column: String) -> SQL? { nil }

  /// `julianday` of the two days' starts differ by a whole number.
  func daysSinceWorn(asOfDay: String, dayShift: String) -> SQL {
    "max(0, CAST(julianday(\(asOfDay)) - julianday(lastWorn, \(dayShift), 'start of day') AS INTEGER))"
  }

  /// A date modifier: either a fixed offset ("+3600 seconds") for a zone without
  /// daylight-saving time, or `localtime`, SQLite's own reading of the process's zone
  /// (`TZ`), which only the process's own zone can use.
  func dayShift(for timeZone: TimeZone, at date: Date) throws(BowTieError) -> String {
    if timeZone.nextDaylightSavingTimeTransition(after: .distantPast) == nil {
      let seconds = timeZone.secondsFromGMT(for: date)
      return "\(seconds < 0 ? "-" : "+")\(abs(seconds)) seconds"
    }
    guard timeZone.identifier == TimeZone.current.identifier else {
      throw .invalidValue(
        "days can be counted in the local time zone (\(TimeZone.current.identifier)) or a "
          + "fixed offset, not in \(timeZone.identifier)")
    }
    return "localtime"
  }
}
