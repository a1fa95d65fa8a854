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

  /// Parses `text` relative to `now` in `calendar`'s time zone, or returns nil.
  public static func parse(_ text: String, now: Date = Date(), calendar: Calendar = .current)
    -> DateArgument?
  {
    let trimmed = text.trimmingSpaces().lowercased()
    let today = calendar.startOfDay(for: now)
    switch trimmed {
    case "now": return DateArgument(date: now, isWholeDay: false)
    case "today": return DateArgument(date: today, isWholeDay: true)
    case "yesterday":
      return calendar.date(byAdding: .day, value: -1, to: today).map {
        DateArgument(date: $0, isWholeDay: true)
      }
    default: break
    }
    if let offset = relative(trimmed, now: now, today: today, calendar: calendar) {
      return offset
    }
    guard let date = ISO8601.parse(text.trimmingSpaces()) else { return nil }
    // "2026-11-21" alone names the day; anything with a time is an instant.
    return DateArgument(date: date, isWholeDay: !text.contains(":"))
  }

  private static func relative(_ text: String, now: Date, today: Date, calendar: Calendar)
    -> DateArgument?
  {
    let digits = text.dropFirst().dropLast()
    guard text.first == "-", let unit = text.last.flatMap({ units[$0] }),
      PlainDecimal.isDigits(digits), let amount = Int(digits), amount <= maximumOffset
    else { return nil }
    guard let component = unit.component else {
      return DateArgument(date: now.addingTimeInterval(-Double(amount) * 3600), isWholeDay: false)
    }
    return calendar.date(byAdding: component, value: -amount, to: today).map {
      DateArgument(date: $0, isWholeDay: true)
    }
  }

  /// The end of what the argument names: the next midnight for a whole day, else the
  /// instant itself. `--until 2026-11-21` includes all of that day.
  public func end(in calendar: Calendar = .current) -> Date {
    guard isWholeDay else { return date }
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

  /// What a command says when a date cannot be parsed: for an offset or a year out of
  /// range, the range; else the forms it takes.
  public static func problem(_ text: String) -> BowTieError {
    let trimmed = text.trimmingSpaces().lowercased()
    let quoted = "'\(text.excerpt)'"
    if let unit = trimmed.last, let unitName = units[unit]?.name {
      let sign = trimmed.prefix(while: { $0 == "-" || $0 == "+" })
      let digits = trimmed.dropFirst(sign.count).dropLast()
      if PlainDecimal.isDigits(digits) {
        if sign == "-" {
          return .invalidValue(
            "\(quoted) is too far back: an offset goes back at most \(maximumOffset) \(unitName)")
        }
        return .invalidValue(
          "\(quoted) is not a date: an offset counts back from today, as -\(digits)\(unit)")
      }
    }
    let year = trimmed.prefix(while: { $0.isASCII && $0.isNumber })
    if year.count > 4, trimmed.dropFirst(year.count).first == "-" {
      return .invalidValue("\(quoted) is not a date: years go from 0001 to 9999")
    }
    return .invalidValue(
      "\(quoted) is not a date: use 2026-11-21, 2026-11-21T08:00:00Z, now, today, yesterday, "
        + "or -30d, -2w, -3m, -1y, -12h")
  }
}
