import Foundation

/// The Markdown report: CommonMark, with GitHub-style tables for the tie lists, and the
/// charts as the text report's "█" bars inside fenced code blocks, where they keep their
/// monospaced alignment.
enum MarkdownReport {
  static func render(_ report: Report, locale: Locale) -> String {
    let format = ReportFormatting(report, locale: locale)
    var blocks: [String] = []
    blocks.append("# Bow-tie report as of \(escape(format.asOf))")
    blocks.append("Time zone: \(escape(report.timeZone))")
    blocks.append(
      table(
        header: ["Ties", "Favorites", "Average rating"], rightAligned: [0, 1, 2],
        rows: [[String(report.tieCount), String(report.favoriteCount), format.averageRating]]))
    blocks.append(suggestion(format))

    let wornHeader = ["Key", "Name", "Times worn", "Last worn"]
    func worn(_ tie: Report.Tie) -> [String] {
      names(tie) + [String(tie.timesWorn), tie.lastWorn.map { escape(format.date($0)) } ?? ""]
    }
    blocks += section(
      "Most worn", header: wornHeader, rightAligned: [2], rows: report.mostWorn.map(worn))
    blocks += section(
      "Least worn", header: wornHeader, rightAligned: [2], rows: report.leastWorn.map(worn))
    blocks += section(
      "Never worn", header: ["Key", "Name", "Rating"], rightAligned: [2],
      rows: report.neverWorn.map { names($0) + [ReportFormatting.rating($0.rating)] })
    blocks += section(
      format.notWornRecentlyTitle, note: "Oldest first.",
      header: ["Key", "Name", "Days since worn", "Last worn"], rightAligned: [2],
      rows: report.notWornRecently.map { tie in
        names(tie) + [
          tie.daysSinceWorn.map(String.init) ?? "",
          tie.lastWorn.map { escape(format.date($0)) } ?? "",
        ]
      })

    blocks.append("## \(escape(format.wearsPerMonthTitle))")
    blocks.append(chart(report.wearsPerMonth.map { (format.monthLabel($0.month), $0.wears) }))
    blocks.append("## Rating distribution")
    blocks.append("Ties per rating, in whole stars.")
    blocks.append(
      chart(report.ratingDistribution.map { (ReportFormatting.singleLine($0.label), $0.ties) }))
    return blocks.joined(separator: "\n\n") + "\n"
  }

  /// Escapes what Markdown would otherwise read as emphasis, links, HTML, entities, code or
  /// a table's cell border. A backslash before ASCII punctuation is always a literal in
  /// CommonMark, so escaping more than strictly needed is harmless.
  ///
  /// The one escaping function of the Markdown report, scalar by scalar: a `<` followed by
  /// a combining mark is one `Character`, and a comparison of whole characters misses it.
  static func escape(_ text: String) -> String {
    var escaped = String.UnicodeScalarView()
    for scalar in ReportFormatting.singleLine(text).unicodeScalars {
      if "\\`*_[]<>|&~".unicodeScalars.contains(scalar) { escaped.append("\\") }
      escaped.append(scalar)
    }
    return String(escaped)
  }

  private static func names(_ tie: Report.Tie) -> [String] {
    [escape(tie.searchKey), escape(tie.name)]
  }

  private static func suggestion(_ format: ReportFormatting) -> String {
    guard let suggestion = format.report.suggestion else {
      return "**Suggestion:** none, there are no ties."
    }
    return "**Suggestion:** \(escape(suggestion.tie.name)) (\(escape(suggestion.tie.searchKey))): "
      + escape(suggestion.reason)
  }

  private static func section(
    _ title: String, note: String? = nil, header: [String], rightAligned: Set<Int>,
    rows: [[String]]
  ) -> [String] {
    var blocks = ["## \(escape(title))"]
    if rows.isEmpty {
      blocks.append("None.")
      return blocks
    }
    if let note { blocks.append(note) }
    blocks.append(table(header: header, rightAligned: rightAligned, rows: rows))
    return blocks
  }

  /// A table whose cells are already escaped.
  private static func table(header: [String], rightAligned: Set<Int>, rows: [[String]])
    -> String
  {
    let rule = header.indices.map { rightAligned.contains($0) ? "---:" : "---" }
    return ([header, rule] + rows).map { "| " + $0.joined(separator: " | ") + " |" }
      .joined(separator: "\n")
  }

  /// A text bar chart in a fence longer than any run of backticks in it, so no label can
  /// close it early.
  private static func chart(_ rows: [(label: String, value: Int)]) -> String {
    guard !rows.isEmpty else { return "None." }
    let lines = ReportFormatting.barChart(rows, width: TextReport.barWidth, indent: "")
    var longestRun = 0
    for line in lines {
      var run = 0
      for character in line {
        run = character == "`" ? run + 1 : 0
        longestRun = max(longestRun, run)
      }
    }
    let fence = String(repeating: "`", count: max(3, longestRun + 1))
    return ([fence + "text"] + lines + [fence]).joined(separator: "\n")
  }
}
