import BowTieKit
import BowTieModel
import Foundation

/// The HTML report: one standalone HTML5 document for a mail client, which loads nothing
/// (no scripts, images, fonts, style sheets or links) and shows the same data offline.
///
/// It is also well-formed XML: every element closed, void elements written `<br/>`, and no
/// named entities beyond XML's own (`&#39;` for the apostrophe), so tests and tools can
/// parse it with an XML parser. Layout tables and presentation attributes keep it readable
/// in mail clients that ignore parts of the style sheet.
enum HTMLReport {
  static func write(
    _ report: Report, _ ties: some ReportTieSource, locale: Locale,
    to output: inout some TextOutputStream
  ) throws {
    let format = ReportFormatting(report, locale: locale)
    let asOf = escape(format.asOf)
    var lines = [
      "<!DOCTYPE html>",
      // The words are English whatever the locale; only dates and month names follow it.
      "<html lang=\"en\">",
      "<head>",
      "<meta charset=\"utf-8\"/>",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>",
      "<meta name=\"color-scheme\" content=\"light\"/>",
      "<title>Bow-tie report as of \(asOf)</title>",
      "<style>",
      styleSheet,
      "</style>",
      "</head>",
      "<body>",
      "<div class=\"page\">",
      "<header class=\"masthead\">",
      "<h1>Bow-tie report</h1>",
      "<p class=\"meta\">As of <strong>\(asOf)</strong> · \(escape(report.timeZone))</p>",
      "</header>",
    ]
    lines += summary(format)
    lines += suggestion(format)
    lines += card(title: format.wearsPerMonthTitle, body: monthlyChart(format))
    emit(lines, to: &output)

    for list in [Report.List.mostWorn, .leastWorn] {
      try tieList(
        list, format, ties, columns: [("Times worn", true), ("Last worn", false)], to: &output
      ) { [number($0.timesWorn), lastWorn($0, format)] }
    }
    try tieList(.neverWorn, format, ties, columns: [("Rating", true)], to: &output) {
      [numeric(escape(ReportFormatting.rating($0.rating)))]
    }
    try tieList(
      .notWornRecently, format, ties,
      columns: [("Days since worn", true), ("Last worn", false)], to: &output
    ) { [numeric($0.daysSinceWorn.map(String.init) ?? "–"), lastWorn($0, format)] }
    emit(
      card(
        title: "Rating distribution", note: "Ties per rating, in whole stars.",
        body: ratingChart(report)), to: &output)
    try wardrobe(format, ties, to: &output)
    emit(
      [
        "<footer class=\"footer\">Written by <code>bowties report</code> for \(asOf).</footer>",
        "</div>",
        "</body>",
        "</html>",
      ], to: &output)
  }

  private static func emit(_ lines: [String], to output: inout some TextOutputStream) {
    for line in lines {
      output.write(line)
      output.write("\n")
    }
  }

  /// Text for an element or a double-quoted attribute: the one escaping function of the
  /// HTML report. Scalar by scalar, since a `<` followed by a combining mark is one
  /// `Character` and would slip past a comparison of whole characters. Control characters
  /// come out visible, and the noncharacters XML 1.0 forbids as U+FFFD.
  static func escape(_ text: String) -> String {
    var escaped = String.UnicodeScalarView()
    for scalar in ReportFormatting.singleLine(text).unicodeScalars {
      switch scalar {
      case "&": escaped.append(contentsOf: "&amp;".unicodeScalars)
      case "<": escaped.append(contentsOf: "&lt;".unicodeScalars)
      case ">": escaped.append(contentsOf: "&gt;".unicodeScalars)
      case "\"": escaped.append(contentsOf: "&quot;".unicodeScalars)
      // `&apos;` is not HTML 4, which some mail clients still parse as.
      case "'": escaped.append(contentsOf: "&#39;".unicodeScalars)
      case "\u{FFFE}", "\u{FFFF}": escaped.append("\u{FFFD}")
      default: escaped.append(scalar)
      }
    }
    return String(escaped)
  }

  /// The color when it is exactly `#RRGGBB` or `#RRGGBBAA`, so nothing else ever reaches a
  /// `style`.
  static func cssColor(_ color: String?) -> String? {
    guard let color, color.count == 7 || color.count == 9, color.first == "#",
      color.dropFirst().allSatisfy({ $0.isASCII && $0.isHexDigit })
    else { return nil }
    return color
  }

  // MARK: - Sections

  private static func summary(_ format: ReportFormatting) -> [String] {
    let report = format.report
    let stats = [
      (ReportFormatting.count(report.tieCount), "Ties"),
      (ReportFormatting.count(report.favoriteCount), "Favorites"),
      (format.averageRating, "Average rating"),
    ]
    var lines = ["<table class=\"stats\" role=\"presentation\">", "<tr>"]
    for (value, label) in stats {
      lines.append(
        "<td class=\"stat\"><span class=\"stat-value\">\(escape(value))</span>"
          + "<span class=\"stat-label\">\(label)</span></td>")
    }
    lines += ["</tr>", "</table>"]
    return lines
  }

  private static func suggestion(_ format: ReportFormatting) -> [String] {
    guard let suggestion = format.report.suggestion else {
      return [
        "<section class=\"card suggestion\">",
        "<p class=\"suggestion-line\">Suggestion: none, \(format.noSuggestion).</p>",
        "</section>",
      ]
    }
    let tie = suggestion.tie
    return [
      "<section class=\"card suggestion\">",
      "<p class=\"suggestion-line\">\(chip(tie))Suggestion: <strong>\(escape(tie.name))</strong>"
        + " (\(escape(tie.searchKey))): \(escape(suggestion.reason))</p>",
      "</section>",
    ]
  }

  private static func card(title: String, note: String? = nil, body: [String]) -> [String] {
    cardStart(title: title, note: note) + body + ["</section>"]
  }

  /// A card up to its body: the section, its heading and its note.
  private static func cardStart(title: String, note: String?) -> [String] {
    ["<section class=\"card\">", "<h2>\(escape(title))</h2>"]
      + (note.map { ["<p class=\"note\">\(escape($0))</p>"] } ?? [])
  }

  /// A card with a table of ties: the key with the tie's color, the name, then `cells`
  /// (markup) under `columns`, numbers aligned right; its note says how many ties the
  /// list holds and which it shows.
  private static func tieList(
    _ list: Report.List, _ format: ReportFormatting, _ ties: some ReportTieSource,
    columns: [(title: String, isNumber: Bool)], to output: inout some TextOutputStream,
    cells: (Report.Tie) -> [String]
  ) throws {
    let title = format.title(list)
    guard format.showsTies(list) else {
      emit(card(title: title, body: ["<p class=\"empty\">None.</p>"]), to: &output)
      return
    }
    var head = ["<table class=\"list\">", "<thead>", "<tr>"]
    head.append("<th scope=\"col\" class=\"key\">Key</th>")
    head.append("<th scope=\"col\" class=\"name\">Name</th>")
    for column in columns {
      let alignment = column.isNumber ? " class=\"num\"" : ""
      head.append("<th scope=\"col\"\(alignment)>\(escape(column.title))</th>")
    }
    head += ["</tr>", "</thead>", "<tbody>"]
    emit(cardStart(title: title, note: format.sentence(list)) + head, to: &output)
    try ties.forEachTie(in: list) { tie in
      emit(
        [
          "<tr><td class=\"key\">\(chip(tie))\(escape(tie.searchKey))</td><td>\(name(tie))</td>"
            + cells(tie).joined() + "</tr>"
        ], to: &output)
      try output.stopIfWriteFailed()
    }
    emit(["</tbody>", "</table>", "</section>"], to: &output)
  }

  /// Every tie with its color swatch, the one place each tie's color is shown large; left
  /// out, with a note, when the report does not list every tie.
  private static func wardrobe(
    _ format: ReportFormatting, _ ties: some ReportTieSource,
    to output: inout some TextOutputStream
  ) throws {
    let report = format.report
    guard report.allTies != nil, report.tieCount > 0 else {
      let text = report.tieCount == 0 ? "No ties yet." : format.sentence(.all)
      emit(card(title: "All ties", body: ["<p class=\"empty\">\(escape(text))</p>"]), to: &output)
      return
    }
    emit(
      cardStart(title: "All ties", note: format.sentence(.all)) + [
        "<table class=\"list wardrobe\">", "<thead>", "<tr>",
        "<th scope=\"col\">Color</th><th scope=\"col\" class=\"key\">Key</th>"
          + "<th scope=\"col\" class=\"name\">Name</th><th scope=\"col\" class=\"num\">Rating</th>"
          + "<th scope=\"col\" class=\"num\">Worn</th><th scope=\"col\">Last worn</th>",
        "</tr>", "</thead>", "<tbody>",
      ], to: &output)
    try ties.forEachTie(in: .all) { tie in
      let swatch: String
      if let color = cssColor(tie.color) {
        swatch =
          "<span class=\"swatch\" style=\"background-color:\(color)\" title=\"\(color)\">"
          + "</span><code class=\"hex\">\(color)</code>"
      } else {
        swatch =
          "<span class=\"swatch swatch-none\" title=\"No readable color\"></span>"
          + "<span class=\"hex muted\">none</span>"
      }
      emit(
        [
          "<tr><td class=\"color\">\(swatch)</td><td class=\"key\">\(escape(tie.searchKey))</td>"
            + "<td>\(name(tie))</td><td class=\"num\">\(escape(ReportFormatting.rating(tie.rating)))"
            + "</td>\(number(tie.timesWorn))\(lastWorn(tie, format))</tr>"
        ], to: &output)
      try output.stopIfWriteFailed()
    }
    emit(["</tbody>", "</table>", "</section>"], to: &output)
  }

  /// The wears per month as an SVG column chart, drawn with presentation attributes so
  /// that it looks right even where the style sheet is dropped.
  private static func monthlyChart(_ format: ReportFormatting) -> [String] {
    let months = format.report.wearsPerMonth
    guard !months.isEmpty else { return ["<p class=\"empty\">No months to show.</p>"] }
    let width = 670.0
    let height = 214.0
    let top = 24.0
    let side = 6.0
    let baseline = height - 46
    let plotHeight = baseline - top
    let slot = (width - 2 * side) / Double(months.count)
    let barWidth = min(44, slot * 0.6)
    let maximum = months.map(\.wears).max() ?? 0
    // About a dozen labels at most, counted back from the current month so it is labeled.
    let labelEvery = max(1, Int((Double(months.count) / 12).rounded(.up)))
    let showsCounts = slot >= 20

    let labels = months.map { format.monthLabel($0.month) }
    let description =
      "Wears per month, \(labels.first ?? "") to \(labels.last ?? ""): "
      + zip(labels, months).map { "\($0) \(ReportFormatting.count($1.wears))" }
      .joined(separator: ", ")
    var lines = [
      "<svg class=\"chart\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\""
        + " height=\"\(n(height))\" role=\"img\" aria-label=\"\(escape(description))\">",
      "<title>\(escape(description))</title>",
      "<line x1=\"\(n(side))\" y1=\"\(n(baseline))\" x2=\"\(n(width - side))\""
        + " y2=\"\(n(baseline))\" stroke=\"#d1d5db\" stroke-width=\"1\"/>",
    ]
    var lastYear: String?
    for (index, month) in months.enumerated() {
      let center = side + slot * (Double(index) + 0.5)
      let barHeight =
        month.wears > 0 && maximum > 0
        ? max(2, plotHeight * Double(month.wears) / Double(maximum)) : 0
      if barHeight > 0 {
        lines.append(
          "<rect class=\"bar\" x=\"\(n(center - barWidth / 2))\" y=\"\(n(baseline - barHeight))\""
            + " width=\"\(n(barWidth))\" height=\"\(n(barHeight))\" rx=\"3\" fill=\"#6366f1\">"
            + "<title>\(escape(labels[index])): \(ReportFormatting.wears(month.wears))</title>"
            + "</rect>")
      }
      if showsCounts {
        let fill = month.wears > 0 ? "#374151" : "#9ca3af"
        lines.append(
          "<text x=\"\(n(center))\" y=\"\(n(baseline - barHeight - 6))\" text-anchor=\"middle\""
            + " font-size=\"12\" font-weight=\"600\" fill=\"\(fill)\">"
            + "\(ReportFormatting.count(month.wears))</text>")
      }
      guard (months.count - 1 - index) % labelEvery == 0 else { continue }
      let parts = format.monthParts(month.month)
      lines.append(
        "<text class=\"month\" x=\"\(n(center))\" y=\"\(n(baseline + 18))\" text-anchor=\"middle\""
          + " font-size=\"12\" fill=\"#4b5563\">\(escape(parts?.name ?? month.month))</text>")
      // The year under the first label and wherever it changes, not under every month.
      if let parts, parts.year != lastYear {
        lines.append(
          "<text class=\"year\" x=\"\(n(center))\" y=\"\(n(baseline + 38))\" text-anchor=\"middle\""
            + " font-size=\"11\" fill=\"#9ca3af\">\(escape(parts.year))</text>")
        lastYear = parts.year
      }
    }
    lines.append("</svg>")
    return lines
  }

  /// The rating distribution as a table of horizontal bars: plain HTML, since a mail client
  /// that drops SVG still shows it.
  private static func ratingChart(_ report: Report) -> [String] {
    let buckets = report.ratingDistribution
    guard !buckets.isEmpty else { return ["<p class=\"empty\">No ratings.</p>"] }
    let maximum = buckets.map(\.ties).max() ?? 0
    var lines = ["<table class=\"bars\">", "<tbody>"]
    for bucket in buckets {
      let length = ReportFormatting.barLength(
        bucket.ties, maximum: maximum, width: TextReport.barWidth)
      let percent = n(Double(length) * 100 / Double(TextReport.barWidth))
      let bar =
        length > 0 ? "<span class=\"hbar\" style=\"width:\(percent)%\"></span>" : ""
      lines.append(
        "<tr><th scope=\"row\">\(escape(bucket.label))</th>"
          + "<td class=\"track\">\(bar)</td>"
          + "<td class=\"num\">\(ReportFormatting.count(bucket.ties))</td></tr>")
    }
    lines += ["</tbody>", "</table>"]
    return lines
  }

  // MARK: - Pieces

  private static func name(_ tie: Report.Tie) -> String {
    escape(tie.name)
      + (tie.isFavorite
        ? " <span class=\"favorite\" role=\"img\" aria-label=\"Favorite\" title=\"Favorite\">★</span>"
        : "")
  }

  /// A small dot of the tie's color beside its key; grey and hatched without one.
  private static func chip(_ tie: Report.Tie) -> String {
    guard let color = cssColor(tie.color) else {
      return "<span class=\"chip swatch-none\" title=\"No readable color\"></span>"
    }
    return "<span class=\"chip\" style=\"background-color:\(color)\"></span>"
  }

  private static func number(_ value: Int) -> String { numeric(ReportFormatting.count(value)) }

  private static func numeric(_ markup: String) -> String { "<td class=\"num\">\(markup)</td>" }

  private static func lastWorn(_ tie: Report.Tie, _ format: ReportFormatting) -> String {
    "<td class=\"date\">\(tie.lastWorn.map { escape(format.date($0)) } ?? "never")</td>"
  }

  /// A coordinate to a tenth, with a dot whatever the locale, and no ".0".
  private static func n(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let whole = abs(tenths) / 10
    let fraction = abs(tenths) % 10
    return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
  }

  // Mail clients keep a <style> in the head, but not links to style sheets or web fonts, so
  // the type uses the system's own sans-serif fonts.
  private static let styleSheet = """
    body { margin: 0; padding: 32px 16px; background: #f3f4f6; color: #1f2937;
      font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue",
        Arial, sans-serif;
      font-size: 15px; line-height: 1.5; }
    .page { max-width: 720px; margin: 0 auto; }
    .masthead { padding: 0 4px 20px; }
    h1 { margin: 0; font-size: 26px; line-height: 1.25; font-weight: 700; color: #111827; }
    .meta { margin: 4px 0 0; color: #4b5563; }
    .meta strong { color: #111827; }
    h2 { margin: 0 0 12px; font-size: 16px; font-weight: 650; color: #111827; }
    .card { background: #ffffff; border: 1px solid #e5e7eb; border-radius: 12px;
      padding: 20px 24px; margin: 0 0 16px; box-shadow: 0 1px 2px rgba(17, 24, 39, 0.05); }
    .note, .empty { margin: -6px 0 10px; color: #6b7280; font-size: 13px; }
    .empty { margin: 0; }
    .stats { width: calc(100% + 24px); border-collapse: separate; border-spacing: 12px 0;
      margin: 0 -12px 16px; }
    .stat { width: 33%; background: #ffffff; border: 1px solid #e5e7eb; border-radius: 12px;
      padding: 16px 20px; box-shadow: 0 1px 2px rgba(17, 24, 39, 0.05); }
    .stat-value { display: block; font-size: 28px; font-weight: 700; color: #111827;
      line-height: 1.2; font-variant-numeric: tabular-nums; }
    .stat-label { display: block; color: #6b7280; font-size: 13px; }
    .suggestion { background: #eef2ff; border-color: #c7d2fe; }
    .suggestion-line { margin: 0; font-size: 16px; color: #1e1b4b; }
    .chart { display: block; width: 100%; height: auto; max-width: 670px; }
    table.list { width: 100%; border-collapse: collapse; }
    .list th { text-align: left; font-size: 12px; font-weight: 600; color: #6b7280;
      text-transform: uppercase; letter-spacing: 0.04em; padding: 6px 10px;
      border-bottom: 1px solid #e5e7eb; }
    .list td { padding: 8px 10px; border-bottom: 1px solid #f1f2f4; vertical-align: middle; }
    .list tr:last-child td { border-bottom: 0; }
    .list .num, .bars .num { text-align: right; font-variant-numeric: tabular-nums;
      white-space: nowrap; }
    .list .key { color: #6b7280; font-weight: 600; white-space: nowrap; }
    .list th.name { width: 50%; }
    .list .date, .list .color { white-space: nowrap; }
    .favorite { color: #d97706; }
    .chip { display: inline-block; width: 10px; height: 10px; border-radius: 50%;
      margin-right: 8px; vertical-align: 0; box-shadow: inset 0 0 0 1px rgba(0, 0, 0, 0.2); }
    .swatch { display: inline-block; width: 28px; height: 18px; border-radius: 4px;
      vertical-align: middle; margin-right: 10px;
      box-shadow: inset 0 0 0 1px rgba(0, 0, 0, 0.15); }
    .swatch-none { background-color: #e5e7eb;
      background-image: repeating-linear-gradient(45deg, #9ca3af 0, #9ca3af 1px,
        transparent 1px, transparent 5px); }
    .hex { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
      font-size: 13px; color: #374151; }
    .muted { color: #9ca3af; }
    table.bars { width: 100%; border-collapse: collapse; }
    .bars th { width: 4.5em; text-align: left; font-weight: 600; color: #4b5563;
      padding: 5px 12px 5px 0; white-space: nowrap; font-size: 14px; }
    .bars .track { width: 100%; padding: 5px 0; }
    .bars td.num { width: 2.5em; padding-left: 12px; font-weight: 600; }
    .hbar { display: block; height: 12px; border-radius: 6px; background: #6366f1; }
    .footer { color: #9ca3af; font-size: 12px; text-align: center; padding: 8px 0 0; }
    code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
    @media (max-width: 560px) {
      body { padding: 16px 8px; font-size: 14px; }
      .card { padding: 16px 14px; }
      .stat { padding: 12px 14px; }
      .stat-value { font-size: 22px; }
      .list th, .list td { padding: 6px 5px; }
      .list .color code.hex, .wardrobe .key { display: none; }
      .swatch { width: 20px; margin-right: 6px; }
      .chart text { font-size: 22px; }
      .chart .year { font-size: 18px; }
    }
    """
}
