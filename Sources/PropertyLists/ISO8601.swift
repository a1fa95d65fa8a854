import Foundation

/// Strict parsing of the ISO 8601 forms people type and tools write.
///
/// Accepted: `2026-11-21` (midnight, local time), `2026-11-21T08:00` and
/// `2026-11-21T08:00:00[.sss]` (local time unless a zone follows), with a `T` or a
/// space, and a zone `Z`, `±HH:MM` or `±HHMM`. Built on `timegm`/`mktime` rather than
/// a formatter so that a command pays nothing for ICU at start-up.
public enum ISO8601 {
  public static func parse(_ text: String) -> Date? {
    var scanner = Scan(Array(text.utf8))
    guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2),
      scanner.take("-"), let day = scanner.digits(2),
      (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
    else { return nil }
    var fields = tm()
    fields.tm_year = Int32(year - 1900)
    fields.tm_mon = Int32(month - 1)
    fields.tm_mday = Int32(day)
    fields.tm_isdst = -1
    var fraction = 0.0
    if scanner.atEnd {
      return localDate(&fields, fraction: 0)
    }
    guard scanner.take("T") || scanner.take("t") || scanner.take(" "),
      let hour = scanner.digits(2), scanner.take(":"), let minute = scanner.digits(2),
      hour < 24, minute < 60
    else { return nil }
    fields.tm_hour = Int32(hour)
    fields.tm_min = Int32(minute)
    if scanner.take(":") {
      guard let second = scanner.digits(2), second < 60 else { return nil }
      fields.tm_sec = Int32(second)
      if scanner.take(".") || scanner.take(",") {
        let digits = scanner.digitRun(max: 9)
        guard !digits.isEmpty else { return nil }
        fraction = Double("0." + String(decoding: digits, as: UTF8.self)) ?? 0
      }
    }
    if scanner.atEnd {
      return localDate(&fields, fraction: fraction)
    }
    var offsetSeconds = 0
    if scanner.take("Z") || scanner.take("z") {
      offsetSeconds = 0
    } else {
      let sign: Int
      if scanner.take("+") {
        sign = 1
      } else if scanner.take("-") {
        sign = -1
      } else {
        return nil
      }
      guard let offsetHours = scanner.digits(2), offsetHours <= 18 else { return nil }
      _ = scanner.take(":")
      guard let offsetMinutes = scanner.digits(2), offsetMinutes < 60 else { return nil }
      offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
    }
    guard scanner.atEnd else { return nil }
    let utc = timegm(&fields)
    return Date(timeIntervalSince1970: Double(utc - offsetSeconds) + fraction)
  }

  private static func localDate(_ fields: inout tm, fraction: Double) -> Date? {
    let seconds = mktime(&fields)
    guard seconds != -1 || fields.tm_year == 69 else { return nil }
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  private struct Scan {
    let bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ character: Character) -> Bool {
      guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else {
        return false
      }
      index += 1
      return true
    }

    mutating func digits(_ count: Int) -> Int? {
      let run = digitRun(max: count)
      guard run.count == count else { return nil }
      return run.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    mutating func digitRun(max: Int) -> [UInt8] {
      var run: [UInt8] = []
      while index < bytes.count, run.count < max, (48...57).contains(bytes[index]) {
        run.append(bytes[index])
        index += 1
      }
      return run
    }
  }
}

extension ISO8601 {
  /// "2026-11-21T08:00:00Z": whole seconds, UTC.
  public static func formatUTC(_ date: Date) -> String {
    utcText(seconds: time_t(date.timeIntervalSince1970.rounded(.down)), milliseconds: nil)
  }

  /// "2026-11-21T08:00:00Z", or with milliseconds "2026-11-21T08:00:00.250Z".
  /// Digits by hand: String(format:) costs more than the rest of a seeded row's date.
  public static func utcText(seconds: time_t, milliseconds: Int?) -> String {
    var time = seconds
    var parts = tm()
    gmtime_r(&time, &parts)
    var text: [UInt8] = Array(
      (milliseconds == nil ? "0000-00-00T00:00:00Z" : "0000-00-00T00:00:00.000Z").utf8)
    func put(_ value: Int, at end: Int, width: Int) {
      var value = value
      for index in stride(from: end, to: end - width, by: -1) {
        text[index] = UInt8(48 + value % 10)
        value /= 10
      }
    }
    put(Int(parts.tm_year) + 1900, at: 3, width: 4)
    put(Int(parts.tm_mon) + 1, at: 6, width: 2)
    put(Int(parts.tm_mday), at: 9, width: 2)
    put(Int(parts.tm_hour), at: 12, width: 2)
    put(Int(parts.tm_min), at: 15, width: 2)
    put(Int(parts.tm_sec), at: 18, width: 2)
    if let milliseconds { put(milliseconds, at: 22, width: 3) }
    return String(decoding: text, as: UTF8.self)
  }
}
