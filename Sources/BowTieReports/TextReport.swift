import BowTieKit
import BowTieModel
import Foundation
import TextOutput

/// The plain-text report: what cron mails by default, so it is plain UTF-8 with no ANSI
/// codes and a fixed layout (no terminal to measure), charts drawn with "█" blocks.
enum TextReport {
  /// Blocks in the longest bar; with the labels, a chart line stays under 60 columns.
  static let barWidth = 40

  static func write(
    _ report: Report, _ ties: some ReportTieSource, locale: Locale,
    to output: inout some TextOutputStream
  ) throws {
    let format = ReportFormatting(report, locale: locale)
    let title = "Bow-tie report as of \(format.asOf)"
    var lines = [title, String(repeating: "=", count: TextCells.width(title))]
    lines.append("Time zone: \(ReportFormatting.singleLine(report.timeZone))")
    lines.append("")
    lines += ReportFormatting.columns([
      ["Ties", ReportFormatting.count(report.tieCount)],
      ["Favorites", ReportFormatting.count(report.favoriteCount)],
      ["Average rating", format.averageRating],
    ])
    lines.append("")
    lines.append(ReportFormatting.singleLine(format.suggestionLine))
    emit(lines, to: &output)

    try section(.mostWorn, format, ties, to: &output) { tie, _ in [worn(tie, format)] }
    try section(.leastWorn, format, ties, to: &output) { tie, _ in [worn(tie, format)] }
    try section(.neverWorn, format, ties, to: &output) { tie, _ in
      ["rated \(ReportFormatting.rating(tie.rating))"]
    }
    try section(.notWornRecently, format, ties, to: &output) { tie, widths in
      let days = tie.daysSinceWorn.map(ReportFormatting.days) ?? "never"
      let width = ReportFormatting.days(widths.days).count
      return [
        String(repeating: " ", count: max(0, width - days.count)) + days,
        tie.lastWorn.map { "last " + format.date($0) } ?? "",
      ]
    }

    lines = [""]
    lines.append(format.wearsPerMonthTitle)
    lines += chart(report.wearsPerMonth.map { (format.monthLabel($0.month), $0.wears) })
    lines.append("")
    lines.append("Rating distribution (ties per rating, in whole stars)")
    lines += chart(
      report.ratingDistribution.map { (ReportFormatting.singleLine($0.label), $0.ties) })
    emit(lines, to: &output)

    try section(.all, format, ties, to: &output) { tie, _ in
      let rating = ReportFormatting.rating(tie.rating)
      return [
        rating + String(repeating: " ", count: max(0, 5 - rating.count)),
        tie.isFavorite ? "★" : " ", tie.color ?? "none   ",
        tie.timesWorn == 0 ? "never worn" : worn(tie, format),
      ]
    }
  }

  private static func emit(_ lines: [String], to output: inout some TextOutputStream) {
    for line in lines {
      output.write(line)
      output.write("\n")
    }
  }

  /// A list's heading and its note ("Most worn: 6 worn ties, most worn first"), then one
  /// line per tie: its key and name in columns as wide as the list's widest, then
  /// `cells`, two spaces apart.
  private static func section(
    _ list: Report.List, _ format: ReportFormatting, _ ties: some ReportTieSource,
    to output: inout some TextOutputStream,
    cells: (Report.Tie, Report.Widths) -> [String]
  ) throws {
    emit(["", "\(format.title(list)): \(format.note(list))"], to: &output)
    guard format.showsTies(list) else { return }
    let widths = try ties.widths(of: list)
    try ties.forEachTie(in: list) { tie in
      let key = ReportFormatting.singleLine(tie.searchKey)
      let name = ReportFormatting.singleLine(tie.name)
      let line =
        ["  " + pad(key, widths.key), pad(name, widths.name)] + cells(tie, widths)
      emit([line.joined(separator: "  ")], to: &output)
      try output.stopIfWriteFailed()
    }
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    TextCells.pad(text, to: width)
  }

  private static func chart(_ rows: [(label: String, value: Int)]) -> [String] {
    if rows.isEmpty { return ["  none"] }
    return ReportFormatting.barChart(rows, width: barWidth, indent: "  ")
  }

  private static func worn(_ tie: Report.Tie, _ format: ReportFormatting) -> String {
    "worn \(tie.timesWorn)×" + (tie.lastWorn.map { ", last " + format.date($0) } ?? "")
  }
}
