import BowTieKit
import BowTieModel
import Foundation

/// The Markdown report: CommonMark, with GitHub-style tables for the tie lists, and the
/// charts as the text report's "█" bars inside fenced code blocks, where they keep their
/// monospaced alignment.
enum MarkdownReport {
  static func write(
    _ report: Report, _ ties: some ReportTieSource, locale: Locale,
    to output: inout some TextOutputStream
  ) throws {
    let format = ReportFormatting(report, locale: locale)
    var document = Blocks()
    document.add("# Bow-tie report as of \(escape(format.asOf))", to: &output)
    document.add("Time zone: \(escape(report.timeZone))", to: &output)
    document.add(
      table(
        header: ["Ties", "Favorites", "Average rating"], rightAligned: [0, 1, 2],
        rows: [
          [
            ReportFormatting.count(report.tieCount), ReportFormatting.count(report.favoriteCount),
            format.averageRating,
          ]
        ]), to: &output)
    document.add(suggestion(format), to: &output)

    let wornHeader = ["Key", "Name", "Times worn", "Last worn"]
    func worn(_ tie: Report.Tie) -> [String] {
      [String(tie.timesWorn), tie.lastWorn.map { escape(format.date($0)) } ?? ""]
    }
    for list in [Report.List.mostWorn, .leastWorn] {
      try section(
        list, format, ties, header: wornHeader, rightAligned: [2], into: &document,
        to: &output, cells: worn)
    }
    try section(
      .neverWorn, format, ties, header: ["Key", "Name", "Rating"], rightAligned: [2],
      into: &document, to: &output
    ) { [ReportFormatting.rating($0.rating)] }
    try section(
      .notWornRecently, format, ties, header: ["Key", "Name", "Days since worn", "Last worn"],
      rightAligned: [2], into: &document, to: &output
    ) { tie in
      [
        tie.daysSinceWorn.map(String.init) ?? "",
        tie.lastWorn.map { escape(format.date($0)) } ?? "",
      ]
    }

    document.add("## \(escape(format.wearsPerMonthTitle))", to: &output)
    document.add(
      chart(report.wearsPerMonth.map { (format.monthLabel($0.month), $0.wears) }), to: &output)
    document.add("## Rating distribution", to: &output)
    document.add("Ties per rating, in whole stars.", to: &output)
    document.add(
      chart(report.ratingDistribution.map { (ReportFormatting.singleLine($0.label), $0.ties) }),
      to: &output)

    try section(
      .all, format, ties,
      header: ["Key", "Name", "Rating", "Favorite", "Color", "Times worn", "Last worn"],
      rightAligned: [2, 5], into: &document, to: &output
    ) { tie in
      [
        ReportFormatting.rating(tie.rating), tie.isFavorite ? "★" : "",
        tie.color.map { "`\($0)`" } ?? "", String(tie.timesWorn),
        tie.lastWorn.map { escape(format.date($0)) } ?? "",
      ]
    }
  }

  /// The document's blocks, a blank line between each two, written as they come.
  private struct Blocks {
    private var started = false

    /// Starts a block: a blank line first, unless it is the first.
    mutating func start(to output: inout some TextOutputStream) {
      if started { output.write("\n") }
      started = true
    }

    /// One whole block, its lines already escaped.
    mutating func add(_ block: String, to output: inout some TextOutputStream) {
      start(to: &output)
      output.write(block)
      output.write("\n")
    }
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

  private static func suggestion(_ format: ReportFormatting) -> String {
    guard let suggestion = format.report.suggestion else {
      return "**Suggestion:** none, \(format.noSuggestion)."
    }
    return "**Suggestion:** \(escape(suggestion.tie.name)) (\(escape(suggestion.tie.searchKey))): "
      + escape(suggestion.reason)
  }

  /// A list's heading, what it holds ("899,989 ties; the 10 longest unworn."), and its
  /// table, one row per tie as the source gives them: key, name, then `cells`.
  private static func section(
    _ list: Report.List, _ format: ReportFormatting, _ ties: some ReportTieSource,
    header: [String], rightAligned: Set<Int>, into document: inout Blocks,
    to output: inout some TextOutputStream, cells: (Report.Tie) -> [String]
  ) throws {
    document.add("## \(escape(format.title(list)))", to: &output)
    document.add(escape(format.sentence(list)), to: &output)
    guard format.showsTies(list) else { return }
    document.start(to: &output)
    output.write(row(header))
    output.write(row(header.indices.map { rightAligned.contains($0) ? "---:" : "---" }))
    try ties.forEachTie(in: list) { tie in
      output.write(row([escape(tie.searchKey), escape(tie.name)] + cells(tie)))
      try output.stopIfWriteFailed()
    }
  }

  /// One table row and its line break, the cells already escaped.
  private static func row(_ cells: [String]) -> String {
    "| " + cells.joined(separator: " | ") + " |\n"
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
