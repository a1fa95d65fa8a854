import BowTieModel
import Foundation
import PropertyLists

/// A date as typed on a command line, or in a crontab line, where `%` cannot be typed.
///
/// Accepted: ISO 8601 (`2026-11-21`, `2026-11-21T08:00:00Z`, see ``ISO8601``), `now`,
/// `today`, `yesterday`, and offsets back from today: `-30d` days, `-2w` weeks, `-3m`
/// months, `-1y` years, `-12h` hours. Days and longer name whole days (midnight, local
/// time), as `today` does; `now` and hours are instants.
public struct DateArgument: Equatable, Sendable {
  /// The instant, or the start of the day for whole-day forms.
  public var date: Date
  /// Whether the argument names a whole day (`2026-11-21`, `today`, `-30d`) rather than an instant.
  public var isWholeDay: Bool

  /// Parses `text` relative to `now` in `calendar`'s time zone. What is not a date is
  /// refused with the forms a date takes, and an offset or a year out of range, or a date
  /// outside the years 1 to 9999 (which nothing stores or prints), with the range.
  public static func parse(_ text: String, now: Date = Date(), calendar: Calendar = .current)
    throws(BowTieError) -> DateArgument
  {
    let quoted = "'\(text.excerpt)'"
    let trimmed = text.trimmingSpaces().lowercased()
    let today = calendar.startOfDay(for: now)
    let parsed: DateArgument?
    switch trimmed {
    case "now": parsed = DateArgument(date: now, isWholeDay: false)
    case "today": parsed = DateArgument(date: today, isWholeDay: true)
    case "yesterday":
      parsed = calendar.date(byAdding: .day, value: -1, to: today).map {
        DateArgument(date: $0, isWholeDay: true)
      }
    default:
      if let unit = trimmed.last.flatMap({ units[$0] }) {
        parsed = try relative(
          trimmed, unit: unit, quoted: quoted, now: now, today: today, calendar: calendar)
      } else if let date = ISO8601.parse(text.trimmingSpaces()) {
        // "2026-11-21" alone names the day; anything with a time is an instant.
        parsed = DateArgument(date: date, isWholeDay: !text.contains(":"))
      } else {
        let year = trimmed.prefix(while: { $0.isASCII && $0.isNumber })
        parsed = nil
        if year.count > 4, trimmed.dropFirst(year.count).first == "-" {
          throw .invalidValue("\(quoted) is not a date: years go from 0001 to 9999")
        }
      }
    }
    guard let parsed else {
      throw .invalidValue(
        "\(quoted) is not a date: use 2026-11-21, 2026-11-21T08:00:00Z, now, today, yesterday, "
          + "or -30d, -2w, -3m, -1y, -12h")
    }
    guard BowTie.lastWornRange.contains(parsed.date) else {
      throw .invalidValue("\(quoted) is not a date: years go from 0001 to 9999")
    }
    return parsed
  }

  /// An offset back from today (`-30d`), or nil for what is no offset (`2026-11-21`).
  private static func relative(
    _ text: String, unit: (name: String, component: Calendar.Component?), quoted: String,
    now: Date, today: Date, calendar: Calendar
  ) throws(BowTieError) -> DateArgument? {
    let sign = text.prefix(while: { $0 == "-" || $0 == "+" })
    let digits = text.dropFirst(sign.count).dropLast()
    guard PlainDecimal.isDigits(digits) else { return nil }
    guard sign == "-" else {
      throw .invalidValue(
        "\(quoted) is not a date: an offset counts back from today, as -\(digits)\(text.last!)")
    }
    guard let amount = Int(digits), amount <= maximumOffset else {
      throw .invalidValue(
        "\(quoted) is too far back: an offset goes back at most \(maximumOffset) \(unit.name)")
    }
    guard let component = unit.component else {
      return DateArgument(date: now.addingTimeInterval(-Double(amount) * 3600), isWholeDay: false)
    }
    return calendar.date(byAdding: component, value: -amount, to: today).map {
      DateArgument(date: $0, isWholeDay: true)
    }
  }

  /// The end of what the argument names, not itself included: the next midnight for a
  /// whole day, so that `--until 2026-11-21` includes all of that day; else the instant's
  /// next millisecond, the store's precision, so that `--until 2026-11-21T10:00:00Z`
  /// includes a wear at 10:00 and `--since` and `--until` of one instant find it.
  public func end(in calendar: Calendar = .current) -> Date {
    guard isWholeDay else { return date.addingTimeInterval(0.001) }
    return calendar.date(byAdding: .day, value: 1, to: date) ?? date
  }

  /// How far back an offset may go, in its own unit (`-100000d`).
  static let maximumOffset = 100_000

  /// An offset's units by their letter: hours count back from now (no calendar
  /// component), the others whole days back from today.
  private static let units: [Character: (name: String, component: Calendar.Component?)] = [
    "h": ("hours", nil), "d": ("days", .day), "w": ("weeks", .weekOfYear),
    "m": ("months", .month), "y": ("years", .year),
  ]
}
