import BowTieKit
import BowTieModel
import Foundation
import PropertyLists
import TextOutput

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
    output.write(header.map(CSV.field).joined(separator: ",") + "\n")
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
        output.write(fields.map(CSV.field).joined(separator: ",") + "\n")
        try output.stopIfWriteFailed()
      }
    }
  }
}
