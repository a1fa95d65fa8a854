import Foundation

/// The plain-text report: what cron mails by default, so it is plain UTF-8 with no ANSI
/// codes and a fixed layout (no terminal to measure), charts drawn with "█" blocks.
enum TextReport {
  /// Blocks in the longest bar; with the labels, a chart line stays under 60 columns.
  static let barWidth = 40

  static func render(_ report: Report, locale: Locale) -> String {
    let format = ReportFormatting(report, locale: locale)
    let title = "Bow-tie report as of \(format.asOf)"
    var lines = [title, String(repeating: "=", count: title.count)]
    lines.append("Time zone: \(ReportFormatting.singleLine(report.timeZone))")
    lines.append("")
    lines += ReportFormatting.columns([
      ["Ties", String(report.tieCount)],
      ["Favorites", String(report.favoriteCount)],
      ["Average rating", format.averageRating],
    ])
    lines.append("")
    lines.append(ReportFormatting.singleLine(format.suggestionLine))

    section("Most worn", into: &lines, rows: report.mostWorn.map { worn($0, format) })
    section("Least worn", into: &lines, rows: report.leastWorn.map { worn($0, format) })
    section(
      "Never worn", into: &lines,
      rows: report.neverWorn.map { key($0) + ["rated \(ReportFormatting.rating($0.rating))"] })
    section(
      "\(format.notWornRecentlyTitle) (oldest first)", into: &lines,
      rows: report.notWornRecently.map { tie in
        key(tie) + [
          tie.daysSinceWorn.map(ReportFormatting.days) ?? "never",
          tie.lastWorn.map { "last " + format.date($0) } ?? "",
        ]
      },
      rightAligned: [2])

    lines.append("")
    lines.append(format.wearsPerMonthTitle)
    lines += chart(report.wearsPerMonth.map { (format.monthLabel($0.month), $0.wears) })
    lines.append("")
    lines.append("Rating distribution (ties per rating, in whole stars)")
    lines += chart(
      report.ratingDistribution.map { (ReportFormatting.singleLine($0.label), $0.ties) })
    return lines.joined(separator: "\n") + "\n"
  }

  private static func section(
    _ title: String, into lines: inout [String], rows: [[String]], rightAligned: Set<Int> = []
  ) {
    lines.append("")
    lines.append(title)
    if rows.isEmpty {
      lines.append("  none")
    } else {
      lines += ReportFormatting.columns(rows, rightAligned: rightAligned)
    }
  }

  private static func chart(_ rows: [(label: String, value: Int)]) -> [String] {
    if rows.isEmpty { return ["  none"] }
    return ReportFormatting.barChart(rows, width: barWidth, indent: "  ")
  }

  private static func key(_ tie: Report.Tie) -> [String] {
    [ReportFormatting.singleLine(tie.searchKey), ReportFormatting.singleLine(tie.name)]
  }

  private static func worn(_ tie: Report.Tie, _ format: ReportFormatting) -> [String] {
    key(tie) + ["worn \(tie.timesWorn)×" + (tie.lastWorn.map { ", last " + format.date($0) } ?? "")]
  }
}
