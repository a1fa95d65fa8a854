import Foundation

/// The CSV report: one row per tie (``Report/ties``) under a header row, as RFC 4180 has it,
/// except that lines end with LF alone rather than CRLF: the Unix convention the other
/// formats follow, and one that CSV readers (spreadsheets, Python's `csv`) accept.
///
/// Columns: `searchKey,name,rating,timesWorn,lastWorn,daysSinceWorn,isFavorite,color,status`.
/// `lastWorn` is ISO 8601 UTC and `daysSinceWorn` and `color` (`#RRGGBB`) are empty when there
/// is none; `isFavorite` is `true` or `false`; `status` is `never-worn`, `not-worn-recently`
/// (the tie is in ``Report/notWornRecently``) or `recent`. Numbers always use a dot, whatever
/// the locale. A field with a comma, a double quote or a line break is quoted, its quotes
/// doubled.
enum CSVReport {
  static let header = [
    "searchKey", "name", "rating", "timesWorn", "lastWorn", "daysSinceWorn", "isFavorite",
    "color", "status",
  ]

  static func render(_ report: Report) -> String {
    let neverWorn = Set(report.neverWorn.map(\.id))
    let notWornRecently = Set(report.notWornRecently.map(\.id))
    var lines = [header.map(field).joined(separator: ",")]
    for tie in report.ties {
      let status =
        neverWorn.contains(tie.id)
        ? "never-worn" : notWornRecently.contains(tie.id) ? "not-worn-recently" : "recent"
      let fields = [
        tie.searchKey, tie.name, BowTie.formatRating(tie.rating), String(tie.timesWorn),
        tie.lastWorn.map(ISO8601.formatUTC) ?? "", tie.daysSinceWorn.map(String.init) ?? "",
        tie.isFavorite ? "true" : "false", tie.color ?? "", status,
      ]
      lines.append(fields.map(field).joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
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
