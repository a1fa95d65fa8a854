import BowTieKit
import BowTieModel
import Foundation
import TextOutput

/// What the formats for people share, so that text, Markdown and HTML word and scale
/// things the same way.
struct ReportFormatting {
  let report: Report
  private let dateFormatter: DateFormatter
  private let monthFormatter: DateFormatter
  private let monthNameFormatter: DateFormatter
  private let yearFormatter: DateFormatter
  private let gregorian: Calendar

  init(_ report: Report, locale: Locale) {
    self.report = report
    // An identifier the system does not know still gives a report, in UTC, rather than
    // one in whatever zone the cron job happens to run in.
    let timeZone = TimeZone(identifier: report.timeZone) ?? .gmt
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = timeZone
    self.gregorian = gregorian

    dateFormatter = DateFormatter()
    dateFormatter.locale = locale
    dateFormatter.timeZone = timeZone
    dateFormatter.dateStyle = .medium
    dateFormatter.timeStyle = .none
    // Proleptic Gregorian before October 1582, as JSON, CSV and ISO 8601 write those
    // dates: ICU's Gregorian calendar is Julian before then.
    dateFormatter.gregorianStartDate = .distantPast

    monthFormatter = Self.monthsFormatter("MMMyyyy", locale: locale, calendar: gregorian)
    monthNameFormatter = Self.monthsFormatter("MMM", locale: locale, calendar: gregorian)
    yearFormatter = Self.monthsFormatter("yyyy", locale: locale, calendar: gregorian)
  }

  // The report's months are Gregorian months, whatever calendar the locale prefers.
  private static func monthsFormatter(_ template: String, locale: Locale, calendar: Calendar)
    -> DateFormatter
  {
    let formatter = DateFormatter()
    formatter.locale = locale
    formatter.calendar = calendar
    formatter.timeZone = calendar.timeZone
    formatter.setLocalizedDateFormatFromTemplate(template)
    formatter.gregorianStartDate = .distantPast
    return formatter
  }

  /// The as-of date, for headers.
  var asOf: String { date(report.asOf) }

  /// A date in the locale's medium style, on the report's calendar day.
  func date(_ date: Date) -> String { LocalizedText.string(from: date, dateFormatter) }

  /// "Nov 2026" for "2026-11", or the key itself when it is not a `yyyy-MM` month.
  func monthLabel(_ month: String) -> String {
    firstDay(of: month).map { LocalizedText.string(from: $0, monthFormatter) } ?? month
  }

  /// "Nov" and "2026" for "2026-11", for charts that put the year on a line of its own.
  func monthParts(_ month: String) -> (name: String, year: String)? {
    firstDay(of: month).map {
      (
        LocalizedText.string(from: $0, monthNameFormatter),
        LocalizedText.string(from: $0, yearFormatter)
      )
    }
  }

  private func firstDay(of month: String) -> Date? {
    let parts = month.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
      let year = Int(parts[0]), let number = Int(parts[1]), (1...12).contains(number)
    else { return nil }
    // Noon rather than midnight: no daylight-saving change can move it into another day.
    return gregorian.date(from: DateComponents(year: year, month: number, day: 1, hour: 12))
  }

  /// "3.4/5", or "none" for an empty store.
  var averageRating: String {
    guard let average = report.averageRating, average.isFinite else { return "none" }
    return Self.rating((average * 10).rounded() / 10)
  }

  /// "4/5", "4.5/5": dot decimals in every locale, as `list` and `show` print them.
  static func rating(_ rating: Double) -> String { "\(BowTie.formatRating(rating))/5" }

  /// "1 day", "42 days".
  static func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }

  /// "1 wear", "14 wears", "140,000 wears".
  static func wears(_ count: Int) -> String { count == 1 ? "1 wear" : "\(Self.count(count)) wears" }

  /// "Suggestion: Indigo Bow Tie (I): never worn, rated 3/5", before escaping.
  var suggestionLine: String {
    guard let suggestion = report.suggestion else {
      return "Suggestion: none, \(noSuggestion)."
    }
    return "Suggestion: \(suggestion.tie.name) (\(suggestion.tie.searchKey)): \(suggestion.reason)"
  }

  /// Why the report has no suggestion: "there are no ties"…
  var noSuggestion: String { Suggester.noSuggestion(tieCount: report.tieCount) }

  /// The title of the stale-ties section.
  var notWornRecentlyTitle: String {
    "Not worn in the last \(Self.days(report.staleDays))"
  }

  /// The title of a list's section.
  func title(_ list: Report.List) -> String {
    switch list {
    case .mostWorn: "Most worn"
    case .leastWorn: "Least worn"
    case .neverWorn: "Never worn"
    case .notWornRecently: notWornRecentlyTitle
    case .all: "All ties"
    }
  }

  /// How many ties a list holds and which it shows, without a final period:
  /// "899,989 ties; the 10 longest unworn", "4 ties, longest unworn first", "none".
  func note(_ list: Report.List) -> String {
    let total = report.list(list)?.total ?? report.tieCount
    guard total > 0 else { return "none" }
    let shown = Self.count(report.limit.map { min($0, total) } ?? total)
    let whole = report.limit.map { $0 >= total } ?? true
    switch list {
    case .mostWorn:
      let worn = Self.ties(total, worn: true)
      return whole ? "\(worn), most worn first" : "\(worn); the \(shown) worn most"
    case .leastWorn:
      let worn = Self.ties(total, worn: true)
      return whole ? "\(worn), least worn first" : "\(worn); the \(shown) worn least"
    case .neverWorn:
      return whole ? Self.ties(total) : "\(Self.ties(total)); the first \(shown)"
    case .notWornRecently:
      return whole
        ? "\(Self.ties(total)), longest unworn first"
        : "\(Self.ties(total)); the \(shown) longest unworn"
    case .all:
      return report.allTies == nil
        ? "\(Self.ties(total)), listed only for a store of up to "
          + "\(ReportBuilder.allTiesThreshold) ties, or with --all"
        : Self.ties(total)
    }
  }

  /// ``note(_:)`` as a sentence: "4 ties, longest unworn first."
  func sentence(_ list: Report.List) -> String {
    let note = self.note(list)
    return note.prefix(1).uppercased() + note.dropFirst() + "."
  }

  /// Whether a list's section has rows to show.
  func showsTies(_ list: Report.List) -> Bool { (report.list(list)?.total ?? 0) > 0 }

  /// "1 tie", "899,989 ties", "1 worn tie".
  static func ties(_ count: Int, worn: Bool = false) -> String {
    "\(Self.count(count)) \(worn ? "worn " : "")\(count == 1 ? "tie" : "ties")"
  }

  /// A count with a comma between thousands, as the report's English words write it
  /// whatever the locale: "899,989".
  static func count(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return (value < 0 ? "-" : "") + grouped
  }

  /// The title of the monthly chart.
  var wearsPerMonthTitle: String {
    report.wearsPerMonth.count == 1
      ? "Wears per month (this month)"
      : "Wears per month (last \(report.wearsPerMonth.count) months)"
  }

  /// Whole blocks for `value` on a bar chart whose largest value, `maximum`, gets `width`.
  ///
  /// Rounds to the nearest block, except that a value above zero always gets one: a month
  /// with a single wear must not look like a month without any.
  static func barLength(_ value: Int, maximum: Int, width: Int) -> Int {
    guard value > 0, maximum > 0, width > 0 else { return 0 }
    let scaled = (Double(value) * Double(width) / Double(maximum)).rounded()
    return min(width, max(1, Int(scaled)))
  }

  /// A bar of `length` full blocks.
  static func bar(_ length: Int) -> String { String(repeating: "█", count: length) }

  /// A horizontal bar chart in plain text, one line per row: "Nov 2026  ████ 14". The
  /// largest value is `width` blocks long; a zero gets no bar, only its count.
  static func barChart(_ rows: [(label: String, value: Int)], width: Int, indent: String)
    -> [String]
  {
    let maximum = rows.map(\.value).max() ?? 0
    let labelWidth = rows.map { TextCells.width($0.label) }.max() ?? 0
    return rows.map { row in
      let label = TextCells.pad(row.label, to: labelWidth)
      let blocks = bar(barLength(row.value, maximum: maximum, width: width))
      return indent + label + "  " + (blocks.isEmpty ? "" : blocks + " ") + count(row.value)
    }
  }

  /// Text from the store as the formats for people show it: its control characters made
  /// visible (``Swift/String/withVisibleControlCharacters``), so that a name with a line
  /// break stays on its table row and one with an escape sequence cannot drive the
  /// terminal that `cat`s the report.
  static func singleLine(_ text: String) -> String { text.withVisibleControlCharacters }

  /// Lays out rows as columns two spaces apart, padding every column but the last, so no
  /// line ends in spaces. Widths are the cells a terminal (or a monospaced font) gives the
  /// text: a name in Japanese takes two a character, an accent that combines none.
  static func columns(_ rows: [[String]], rightAligned: Set<Int> = [], indent: String = "  ")
    -> [String]
  {
    let columnCount = rows.map(\.count).max() ?? 0
    let widths = (0..<columnCount).map { column in
      rows.map { column < $0.count ? TextCells.width($0[column]) : 0 }.max() ?? 0
    }
    return rows.map { row in
      var cells: [String] = []
      for (column, cell) in row.enumerated() {
        let padding = String(repeating: " ", count: widths[column] - TextCells.width(cell))
        if rightAligned.contains(column) {
          cells.append(padding + cell)
        } else if column == row.count - 1 {
          cells.append(cell)
        } else {
          cells.append(cell + padding)
        }
      }
      return indent + cells.joined(separator: "  ")
    }
  }
}
