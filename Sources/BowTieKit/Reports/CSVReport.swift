import Foundation
import PropertyLists

/// The CSV report: one row per tie each list shows, under a header row, as RFC 4180 has
/// it, except that lines end with LF alone rather than CRLF: the Unix convention the
/// other formats follow, and one that CSV readers (spreadsheets, Python's `csv`) accept.
///
/// Columns: `list,rank,total,searchKey,name,rating,timesWorn,lastWorn,daysSinceWorn,isFavorite,color,status`.
/// `list` is `most-worn`, `least-worn`, `never-worn`, `not-worn-recently` or `all`, in
/// that order, each in its own order; `rank` counts from 1 within the list and `total` is
/// how many ties the list holds (a row per tie only up to `--limit`). `lastWorn` is
/// ISO 8601 UTC and `daysSinceWorn` and `color` (`#RRGGBB`, `#RRGGBBAA` when not opaque)
/// are empty when there is none;
/// `isFavorite` is `true` or `false`; `status` is `never-worn`, `not-worn-recently` (not
/// worn in the last `staleDays` days) or `recent`. Numbers always use a dot, whatever the
/// locale. A field with a comma, a double quote or a line break is quoted, its quotes
/// doubled.
enum CSVReport {
  static let header = [
    "list", "rank", "total", "searchKey", "name", "rating", "timesWorn", "lastWorn",
    "daysSinceWorn", "isFavorite", "color", "status",
  ]

  /// Each list's name in the `list` column.
  static func name(_ list: Report.List) -> String {
    switch list {
    case .mostWorn: "most-worn"
    case .leastWorn: "least-worn"
    case .neverWorn: "never-worn"
    case .notWornRecently: "not-worn-recently"
    case .all: "all"
    }
  }

  static func write(
    _ report: Report, _ ties: some ReportTieSource, to output: inout some TextOutputStream
  ) throws {
    output.write(header.map(field).joined(separator: ",") + "\n")
    for list in Report.List.allCases {
      guard let total = report.list(list)?.total, total > 0 else { continue }
      var rank = 0
      try ties.forEachTie(in: list) { tie in
        rank += 1
        let status =
          tie.timesWorn == 0
          ? "never-worn"
          : (tie.daysSinceWorn ?? 0) >= report.staleDays ? "not-worn-recently" : "recent"
        let fields = [
          name(list), String(rank), String(total), tie.searchKey, tie.name,
          BowTie.formatRating(tie.rating), String(tie.timesWorn),
          tie.lastWorn.map(ISO8601.formatUTC) ?? "", tie.daysSinceWorn.map(String.init) ?? "",
          tie.isFavorite ? "true" : "false", tie.color ?? "", status,
        ]
        output.write(fields.map(field).joined(separator: ",") + "\n")
      }
    }
  }

  /// One field, quoted only when it must be. Control characters other than tabs and line breaks
  /// become U+FFFD: no escape sequence reaches a terminal that shows the file.
  static func field(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: scalars.append(scalar)
      case 0x00...0x1F, 0x7F...0x9F: scalars.append("\u{FFFD}")
      default: scalars.append(scalar)
      }
    }
    let clean = String(scalars)
    guard clean.unicodeScalars.contains(where: { ",\"\n\r".unicodeScalars.contains($0) }) else {
      return clean
    }
    return "\"" + clean.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
