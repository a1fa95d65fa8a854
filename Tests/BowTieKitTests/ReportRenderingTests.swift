import Foundation
import FoundationXML
import Testing
import TextOutput

@testable import BowTieKit
@testable import BowTieModel
@testable import BowTieReports
@testable import PropertyLists

/// A hand-built report: seven ties, one never worn, one without a color, one whose name
/// has everything a format must escape, a month without wears, and every section filled.
enum ReportFixture {
  static let english = Locale(identifier: "en_US")
  static let awkwardName = "Café \"Soleil\" <Yellow> & Co, No. 5 | striped"

  static func date(_ text: String) -> Date { ISO8601.parse(text)! }

  static func tie(
    _ key: String, _ name: String, rating: Double, worn: Int, last: String?, days: Int?,
    favorite: Bool = false, color: String?
  ) -> Report.Tie {
    Report.Tie(
      id: "0B0771E5-0000-4000-8000-0000000000\(key)", searchKey: key, name: name,
      rating: rating, timesWorn: worn, lastWorn: last.map(date), daysSinceWorn: days,
      isFavorite: favorite, color: color)
  }

  static let red = tie(
    "R", "Red Bow Tie", rating: 4, worn: 10, last: "2026-10-14T07:30:00Z", days: 38,
    favorite: true, color: "#EF3024")
  static let orange = tie(
    "O", "Orange Bow Tie", rating: 3.5, worn: 4, last: "2026-09-02T12:00:00Z", days: 80,
    color: "#F37B1E")
  static let yellow = tie(
    "Y", awkwardName, rating: 2, worn: 2, last: "2026-06-21T09:00:00Z", days: 153,
    color: "#FDCC0C")
  static let green = tie(
    "G", "Green Bow Tie", rating: 4.5, worn: 7, last: "2026-11-01T18:45:00Z", days: 19,
    favorite: true, color: "#229954")
  // 23:30 UTC on the 14th is already the 15th in Paris, the report's time zone.
  static let blue = tie(
    "B", "Blue Bow Tie", rating: 5, worn: 15, last: "2026-11-14T23:30:00Z", days: 6,
    favorite: true, color: "#1D70C4")
  static let indigo = tie(
    "I", "Indigo Bow Tie", rating: 3, worn: 0, last: nil, days: nil, color: "#4B2F91")
  static let violet = tie(
    "V", "Violet Bow Tie", rating: 1.5, worn: 1, last: "2025-12-24T19:00:00Z", days: 332,
    color: nil)

  static let wears = [
    ("2026-06", 1), ("2026-07", 0), ("2026-08", 3), ("2026-09", 6), ("2026-10", 9),
    ("2026-11", 14),
  ]

  static func buckets(_ counts: [Int]) -> [Report.RatingBucket] {
    let ranges: [(String, Double, Double)] = [
      ("0", 0, 1), ("1", 1, 2), ("2", 2, 3), ("3", 3, 4), ("4", 4, 5), ("5", 5, 5),
    ]
    return zip(ranges, counts).map {
      Report.RatingBucket(label: $0.0, from: $0.1, to: $0.2, ties: $1)
    }
  }

  static let sample = Report(
    asOf: date("2026-11-21T08:00:00Z"), timeZone: "Europe/Paris", staleDays: 30, months: 6,
    limit: 10, tieCount: 7, favoriteCount: 3, averageRating: 23.5 / 7,
    mostWorn: .init(total: 6, ties: [blue, red, green, orange, yellow, violet]),
    leastWorn: .init(total: 6, ties: [violet, yellow, orange, green, red, blue]),
    neverWorn: .init(total: 1, ties: [indigo]),
    notWornRecently: .init(total: 4, ties: [violet, yellow, orange, red]),
    allTies: .init(total: 7, ties: [red, orange, yellow, green, blue, indigo, violet]),
    wearsPerMonth: wears.map { Report.Month(month: $0.0, wears: $0.1) },
    ratingDistribution: buckets([0, 1, 1, 2, 2, 1]),
    suggestion: Report.Suggestion(tie: indigo, score: 0.9, reason: "never worn, rated 3/5"))

  /// A shop's store, as a report with `--limit 2` shows it: long lists, two ties each,
  /// and no list of every tie.
  static let shop = Report(
    asOf: date("2026-11-21T08:00:00Z"), timeZone: "Europe/Paris", staleDays: 30, months: 6,
    limit: 2, tieCount: 1_000_000, favoriteCount: 200_114, averageRating: 2.5,
    mostWorn: .init(total: 999_990, ties: [blue, red]),
    leastWorn: .init(total: 999_990, ties: [violet, yellow]),
    neverWorn: .init(total: 10, ties: [indigo, indigo]),
    notWornRecently: .init(total: 899_989, ties: [violet, yellow]),
    allTies: nil,
    wearsPerMonth: wears.map { Report.Month(month: $0.0, wears: $0.1 * 10_000) },
    ratingDistribution: buckets([90_000, 200_000, 200_000, 200_000, 200_000, 109_999]),
    suggestion: Report.Suggestion(tie: indigo, score: 0.9, reason: "never worn, rated 3/5"))

  static let empty = Report(
    asOf: date("2026-11-21T08:00:00Z"), timeZone: "Europe/Paris", staleDays: 30, months: 6,
    limit: 10, tieCount: 0, favoriteCount: 0, averageRating: nil,
    mostWorn: .init(total: 0, ties: []), leastWorn: .init(total: 0, ties: []),
    neverWorn: .init(total: 0, ties: []), notWornRecently: .init(total: 0, ties: []),
    allTies: .init(total: 0, ties: []),
    wearsPerMonth: wears.map { Report.Month(month: $0.0, wears: 0) },
    ratingDistribution: buckets([0, 0, 0, 0, 0, 0]), suggestion: nil)

  static let allTies = sample.allTies?.ties ?? []

  static let suggestionLine = "Suggestion: Indigo Bow Tie (I): never worn, rated 3/5"

  static func render(_ format: ReportFormat, _ report: Report = sample, locale: Locale = english)
    -> String
  {
    ReportRenderer.render(report, as: format, locale: locale)
  }
}

/// The number of "█" blocks on the first line that starts with `label` (after indentation).
private func blocks(_ label: String, in lines: [Substring]) -> Int? {
  lines.first { $0.drop(while: { $0 == " " }).hasPrefix(label + " ") }
    .map { $0.filter { $0 == "█" }.count }
}

@Suite("Report rendering")
struct ReportRenderingTests {
  typealias Fixture = ReportFixture

  @Test(
    "every format is deterministic, newline-terminated and free of ANSI codes",
    arguments: ReportFormat.allCases)
  func deterministic(format: ReportFormat) {
    for report in [Fixture.sample, Fixture.shop, Fixture.empty] {
      let first = Fixture.render(format, report)
      #expect(first == Fixture.render(format, report))
      #expect(first.hasSuffix("\n"))
      #expect(!first.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" })
    }
  }

  @Test("control characters in a name never reach the output", arguments: ReportFormat.allCases)
  func controlCharacters(format: ReportFormat) throws {
    var report = Fixture.sample
    report.allTies?.ties[0].name = "O'Brien \u{1B}[31mred\u{1B}[0m\u{7}"
    report.mostWorn.ties[1] = try #require(report.allTies?.ties[0])
    let output = Fixture.render(format, report)
    #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" })
    if format == .html {
      _ = try XMLDocument(data: Data(output.utf8), options: [])
    }
  }

  @Test("an empty store renders in every format", arguments: ReportFormat.allCases)
  func emptyStore(format: ReportFormat) throws {
    let output = Fixture.render(format, Fixture.empty)
    switch format {
    case .text, .markdown:
      #expect(output.contains("Suggestion"))
      #expect(output.contains("none"))
    case .html:
      let document = try XMLDocument(data: Data(output.utf8), options: [])
      #expect(try document.nodes(forXPath: "//svg/rect").isEmpty)
    case .json:
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
      #expect(object["averageRating"] is NSNull)
      #expect(object["suggestion"] is NSNull)
    case .csv:
      #expect(output == CSVReport.header.joined(separator: ",") + "\n")
    }
  }

  // MARK: - Text

  @Test("text has every section's data")
  func textSections() {
    let text = Fixture.render(.text)
    // After "Red Bow Tie", the spaces to the end of the longest name and two more.
    let pad = String(repeating: " ", count: Fixture.awkwardName.count - "Red Bow Tie".count + 2)
    #expect(text.hasPrefix("Bow-tie report as of Nov 21, 2026\n"))
    #expect(text.contains("  Ties            7\n"))
    #expect(text.contains("  Favorites       3\n"))
    #expect(text.contains("  Average rating  3.4/5\n"))
    #expect(text.contains(Fixture.suggestionLine + "\n"))
    #expect(text.contains("\nMost worn: 6 worn ties, most worn first\n  B  Blue Bow Tie   "))
    #expect(text.contains("  B  Blue Bow Tie" + pad.dropLast() + "worn 15×, last Nov 15, 2026\n"))
    #expect(text.contains("\nLeast worn: 6 worn ties, least worn first\n  V  Violet Bow Tie "))
    #expect(text.contains("\nNever worn: 1 tie\n  I  Indigo Bow Tie  rated 3/5\n"))
    #expect(
      text.hasSuffix(
        "\nAll ties: 7 ties\n  R  Red Bow Tie" + pad
          + "4/5    ★  #EF3024  worn 10×, last Oct 14, 2026\n"
          + "  O  Orange Bow Tie" + String(pad.dropLast(3))
          + "3.5/5     #F37B1E  worn 4×, last Sep 2, 2026\n" + "  Y  \(Fixture.awkwardName)  "
          + "2/5       #FDCC0C  worn 2×, last Jun 21, 2026\n" + "  G  Green Bow Tie"
          + String(pad.dropLast(2)) + "4.5/5  ★  #229954  worn 7×, last Nov 1, 2026\n"
          + "  B  Blue Bow Tie" + String(pad.dropLast(1))
          + "5/5    ★  #1D70C4  worn 15×, last Nov 15, 2026\n" + "  I  Indigo Bow Tie"
          + String(pad.dropLast(3)) + "3/5       #4B2F91  never worn\n" + "  V  Violet Bow Tie"
          + String(pad.dropLast(3)) + "1.5/5     none     worn 1×, last Dec 24, 2025\n"))
    #expect(text.contains(Fixture.awkwardName))
    #expect(!text.contains("Nov 14, 2026"), "dates are days in the report's time zone")
    #expect(!text.contains(where: { $0 == "\u{1B}" }))

    let stale = text.components(
      separatedBy: "Not worn in the last 30 days: 4 ties, longest unworn first\n")
    let staleLines = stale.last?.split(separator: "\n").prefix(4).map(String.init) ?? []
    let expected = [
      ("  V  Violet Bow Tie ", "332 days  last Dec 24, 2025"),
      ("  Y  \(Fixture.awkwardName)  ", "153 days  last Jun 21, 2026"),
      ("  O  Orange Bow Tie ", " 80 days  last Sep 2, 2026"),
      ("  R  Red Bow Tie ", " 38 days  last Oct 14, 2026"),
    ]
    #expect(staleLines.count == expected.count)
    for (line, (start, end)) in zip(staleLines, expected) {
      #expect(line.hasPrefix(start) && line.hasSuffix(end), "\(line)")
    }
    // The days column lines up: it ends at the same place on every line.
    let dayEnds = staleLines.compactMap { line in
      line.range(of: " days").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
    }
    #expect(dayEnds.count == 4 && Set(dayEnds).count == 1)
    #expect(
      !text.split(separator: "\n", omittingEmptySubsequences: false).contains {
        $0.hasSuffix(" ")
      })
  }

  @Test("a shop's text report: totals, the first --limit ties of each list, no list of all")
  func textTotals() {
    let text = Fixture.render(.text, Fixture.shop)
    #expect(text.contains("\n  Ties            1,000,000\n  Favorites       200,114\n"))
    #expect(
      text.contains(
        "\nMost worn: 999,990 worn ties; the 2 worn most\n"
          + "  B  Blue Bow Tie  worn 15×, last Nov 15, 2026\n"
          + "  R  Red Bow Tie   worn 10×, last Oct 14, 2026\n\n"))
    #expect(text.contains("\nLeast worn: 999,990 worn ties; the 2 worn least\n  V  Violet"))
    #expect(text.contains("\nNever worn: 10 ties; the first 2\n  I  Indigo Bow Tie  rated 3/5\n"))
    #expect(text.contains("\nNot worn in the last 30 days: 899,989 ties; the 2 longest unworn\n"))
    #expect(text.contains("  Nov 2026  " + String(repeating: "█", count: 40) + " 140,000\n"))
    #expect(
      text.hasSuffix(
        "\n\nAll ties: 1,000,000 ties, listed only for a store of up to 100 ties, or with --all\n"))
  }

  @Test("text bar charts: largest month 40 blocks, a 1-wear month at least 1, none for 0")
  func textBars() throws {
    let text = Fixture.render(.text)
    let lines = text.split(separator: "\n")
    #expect(blocks("Nov 2026", in: lines) == 40)
    #expect(blocks("Oct 2026", in: lines) == 26)  // 9 of 14
    #expect(blocks("Aug 2026", in: lines) == 9)  // 3 of 14
    #expect((blocks("Jun 2026", in: lines) ?? 0) >= 1)
    #expect(blocks("Jul 2026", in: lines) == 0)
    #expect(lines.contains("  Nov 2026  " + String(repeating: "█", count: 40) + " 14"))
    #expect(lines.contains("  Jul 2026  0"))
    let ratings = try #require(text.components(separatedBy: "Rating distribution").last)
      .split(separator: "\n")
    #expect(blocks("3", in: ratings) == 40)
    #expect(blocks("1", in: ratings) == 20)
    #expect(blocks("0", in: ratings) == 0)
    #expect(ratings.contains("  5  ████████████████████ 1"))
  }

  @Test("bars scale to the largest value and never hide a small one")
  func barScaling() {
    #expect(ReportFormatting.barLength(200, maximum: 200, width: 40) == 40)
    #expect(ReportFormatting.barLength(1, maximum: 200, width: 40) == 1)
    #expect(ReportFormatting.barLength(0, maximum: 200, width: 40) == 0)
    #expect(ReportFormatting.barLength(0, maximum: 0, width: 40) == 0)
    #expect(ReportFormatting.barLength(3, maximum: 6, width: 40) == 20)

    var report = Fixture.sample
    report.wearsPerMonth = [
      Report.Month(month: "2026-10", wears: 1), Report.Month(month: "2026-11", wears: 200),
    ]
    for format in [ReportFormat.text, .markdown] {
      let lines = Fixture.render(format, report).split(separator: "\n")
      #expect(blocks("Oct 2026", in: lines) == 1)
      #expect(blocks("Nov 2026", in: lines) == 40)
    }
  }

  @Test("dates follow the locale's medium style")
  func localizedDates() {
    let text = Fixture.render(.text, locale: Locale(identifier: "de_DE"))
    #expect(text.contains("Bow-tie report as of 21.11.2026"))
    #expect(text.contains("15.11.2026"))
    #expect(text.contains("Average rating  3.4/5"))
  }

  // MARK: - Markdown

  @Test("markdown: headings, tables with escaped names, charts in fences")
  func markdown() {
    let markdown = Fixture.render(.markdown)
    let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(markdown.hasPrefix("# Bow-tie report as of Nov 21, 2026\n"))
    for heading in [
      "## Most worn", "## Least worn", "## Never worn", "## Not worn in the last 30 days",
      "## Wears per month (last 6 months)", "## Rating distribution",
    ] {
      #expect(lines.contains(Substring(heading)), "\(heading)")
    }
    #expect(markdown.contains("| 7 | 3 | 3.4/5 |"))
    #expect(markdown.contains("| B | Blue Bow Tie | 15 | Nov 15, 2026 |"))
    #expect(markdown.contains("| I | Indigo Bow Tie | 3/5 |"))
    #expect(markdown.contains("| V | Violet Bow Tie | 332 | Dec 24, 2025 |"))
    #expect(markdown.contains(#"Café "Soleil" \<Yellow\> \& Co, No. 5 \| striped"#))
    #expect(markdown.contains("**Suggestion:** Indigo Bow Tie (I): never worn, rated 3/5"))

    // Outside fences, every table row has as many unescaped cell borders as its header.
    var inFence = false
    var fenced: [Substring] = []
    var tableColumns: Int?
    for line in lines {
      if line.hasPrefix("```") {
        inFence.toggle()
        continue
      }
      if inFence {
        fenced.append(line)
        continue
      }
      #expect(!line.contains("█"), "bars only inside code blocks")
      guard line.hasPrefix("|") else {
        tableColumns = nil
        continue
      }
      let borders = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
      if let columns = tableColumns {
        #expect(borders == columns, "\(line)")
      } else {
        tableColumns = borders
      }
    }
    #expect(!inFence, "every fence is closed")
    #expect(blocks("Nov 2026", in: fenced) == 40)
    #expect((blocks("Jun 2026", in: fenced) ?? 0) >= 1)
    #expect(blocks("Jul 2026", in: fenced) == 0)
    let ratings = fenced.drop { !$0.hasPrefix("0 ") }
    #expect(ratings.count == 6)
    #expect(blocks("3", in: Array(ratings)) == 40)
    #expect(blocks("1", in: Array(ratings)) == 20)
  }

  // MARK: - HTML

  @Test("html is one standalone, well-formed document")
  func htmlDocument() throws {
    let html = Fixture.render(.html)
    #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    let document = try XMLDocument(data: Data(html.utf8), options: [])
    let root = try #require(document.rootElement())
    #expect(root.name == "html")
    let title = try document.nodes(forXPath: "/html/head/title")
    #expect(title.count == 1)
    #expect(title.first?.stringValue == "Bow-tie report as of Nov 21, 2026")
    #expect(try document.nodes(forXPath: "/html/head/meta[@charset='utf-8']").count == 1)
    #expect(try document.nodes(forXPath: "//style").count == 1)
    #expect(try document.nodes(forXPath: "/html/body").count == 1)

    // Nothing to load: no scripts, no sources, no links, no imports.
    for path in ["//script", "//link", "//img", "//iframe", "//object", "//*[@src]", "//@href"] {
      #expect(try document.nodes(forXPath: path).isEmpty, "\(path)")
    }
    #expect(try document.nodes(forXPath: "//@*[starts-with(name(), 'on')]").isEmpty)
    for text in ["url(", "@import", "://", "javascript:"] {
      #expect(!html.contains(text), "\(text)")
    }

    let suggestion = try document.nodes(forXPath: "//*[@class='suggestion-line']")
    #expect(suggestion.first?.stringValue == Fixture.suggestionLine)
    let body = try #require(try document.nodes(forXPath: "/html/body").first?.stringValue)
    for name in Fixture.allTies.map(\.name) {
      #expect(body.contains(name), "\(name)")
    }
    for text in ["Average rating", "3.4/5", "Not worn in the last 30 days", "Nov 15, 2026"] {
      #expect(body.contains(text), "\(text)")
    }
  }

  @Test("html: one swatch per tie, with its color or marked as none")
  func htmlSwatches() throws {
    let document = try XMLDocument(data: Data(Fixture.render(.html).utf8), options: [])
    let swatches = try document.nodes(
      forXPath: "//*[contains(concat(' ', @class, ' '), ' swatch ')]"
    ).compactMap { $0 as? XMLElement }
    #expect(swatches.count == Fixture.allTies.count)
    for (swatch, tie) in zip(swatches, Fixture.allTies) {
      let style = swatch.attribute(forName: "style")?.stringValue
      if let color = tie.color {
        #expect(style == "background-color:\(color)")
      } else {
        #expect(style == nil)
        #expect(swatch.attribute(forName: "class")?.stringValue?.contains("swatch-none") == true)
        #expect(swatch.attribute(forName: "title")?.stringValue == "No readable color")
        #expect(swatch.parent?.stringValue == "none")
      }
    }
  }

  @Test("html: the monthly chart is an accessible SVG with a bar per month with wears")
  func htmlChart() throws {
    let document = try XMLDocument(data: Data(Fixture.render(.html).utf8), options: [])
    let charts = try document.nodes(forXPath: "//svg").compactMap { $0 as? XMLElement }
    let chart = try #require(charts.first)
    #expect(charts.count == 1)
    #expect(chart.attribute(forName: "role")?.stringValue == "img")
    let label = try #require(chart.attribute(forName: "aria-label")?.stringValue)
    #expect(label.contains("Nov 2026 14"))
    #expect(try chart.nodes(forXPath: "title").first?.stringValue == label)

    let bars = try chart.nodes(forXPath: "rect").compactMap { $0 as? XMLElement }
    #expect(bars.count == Fixture.wears.filter { $0.1 > 0 }.count)
    let heights = bars.compactMap { $0.attribute(forName: "height")?.stringValue }
      .compactMap(Double.init)
    #expect(heights.count == bars.count)
    #expect(heights.max() == heights.last, "November, the busiest month, is tallest")
    if let first = heights.first, let last = heights.last {
      #expect(abs(first / last - 1.0 / 14) < 0.01)
    }
    #expect(bars.last?.stringValue == "Nov 2026: 14 wears")
    let labels = try chart.nodes(forXPath: "text").compactMap(\.stringValue)
    for month in ["Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "2026"] {
      #expect(labels.contains(month), "\(month)")
    }
  }

  @Test("html escapes names and still parses")
  func htmlEscaping() throws {
    let html = Fixture.render(.html)
    #expect(html.contains("Café &quot;Soleil&quot; &lt;Yellow&gt; &amp; Co, No. 5 | striped"))
    #expect(!html.contains("<Yellow>"))
    #expect(HTMLReport.escape("it's <a> & \"b\"") == "it&#39;s &lt;a&gt; &amp; &quot;b&quot;")
    #expect(HTMLReport.cssColor("#1D70C4") == "#1D70C4")
    #expect(HTMLReport.cssColor("red;background:url(x)") == nil)

    var report = Fixture.sample
    report.allTies?.ties[1].color = "#123\"><script>"
    report.suggestion?.reason = "<b>'bold'</b> & \"more\""
    let document = try XMLDocument(
      data: Data(Fixture.render(.html, report).utf8), options: [])
    #expect(try document.nodes(forXPath: "//script").isEmpty)
    #expect(
      try document.nodes(forXPath: "//*[@class='suggestion-line']").first?.stringValue
        == "Suggestion: Indigo Bow Tie (I): <b>'bold'</b> & \"more\"")
  }

  // MARK: - JSON

  @Test("json has the documented shape, ISO 8601 dates and explicit nulls")
  func json() throws {
    let output = Fixture.render(.json)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "allTies", "asOf", "averageRating", "favoriteCount", "format", "leastWorn", "limit",
        "months", "mostWorn", "neverWorn", "notWornRecently", "ratingDistribution", "staleDays",
        "suggestion", "tieCount", "timeZone", "version", "wearsPerMonth",
      ])
    #expect(object["format"] as? String == "bowties-report")
    #expect(object["version"] as? Int == 2)
    #expect(object["limit"] as? Int == 10)
    #expect(object["asOf"] as? String == "2026-11-21T08:00:00Z")
    #expect(object["timeZone"] as? String == "Europe/Paris")
    #expect(object["tieCount"] as? Int == 7)

    for key in ["allTies", "leastWorn", "mostWorn", "neverWorn", "notWornRecently"] {
      let list = try #require(object[key] as? [String: Any], "\(key)")
      #expect(Set(list.keys) == ["ties", "total"], "\(key)")
    }
    let all = try #require(object["allTies"] as? [String: Any])
    #expect(all["total"] as? Int == 7)
    let ties = try #require(all["ties"] as? [[String: Any]])
    #expect(ties.count == 7)
    let tieKeys: Set<String> = [
      "color", "daysSinceWorn", "id", "isFavorite", "lastWorn", "name", "rating", "searchKey",
      "timesWorn",
    ]
    let iso = try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#)
    for tie in ties {
      #expect(Set(tie.keys) == tieKeys)
      if let lastWorn = tie["lastWorn"] as? String {
        #expect(lastWorn.wholeMatch(of: iso) != nil, "\(lastWorn)")
      } else {
        #expect(tie["lastWorn"] is NSNull)
      }
    }
    let indigo = try #require(ties.first { $0["searchKey"] as? String == "I" })
    #expect(indigo["lastWorn"] is NSNull)
    #expect(indigo["daysSinceWorn"] is NSNull)
    let violet = try #require(ties.first { $0["searchKey"] as? String == "V" })
    #expect(violet["color"] is NSNull)
    let blue = try #require(ties.first { $0["searchKey"] as? String == "B" })
    #expect(blue["lastWorn"] as? String == "2026-11-14T23:30:00Z")
    #expect(blue["rating"] as? Double == 5)
    #expect(blue["timesWorn"] as? Int == 15)
    #expect(blue["daysSinceWorn"] as? Int == 6)
    #expect(blue["isFavorite"] as? Bool == true)
    #expect(ties.map { $0["rating"] as? Double } == Fixture.allTies.map(\.rating))
    #expect(output.contains("\"rating\" : 3.5,"))
    #expect(object["averageRating"] as? Double == 23.5 / 7)
    #expect(ties[2]["name"] as? String == Fixture.awkwardName)

    let months = try #require(object["wearsPerMonth"] as? [[String: Any]])
    #expect(months.last?["month"] as? String == "2026-11")
    #expect(months.last?["wears"] as? Int == 14)
    let buckets = try #require(object["ratingDistribution"] as? [[String: Any]])
    #expect(Set(buckets.first.map { Array($0.keys) } ?? []) == ["from", "label", "ties", "to"])
    #expect(buckets[4]["label"] as? String == "4")
    #expect(buckets[4]["from"] as? Double == 4)
    #expect(buckets[4]["to"] as? Double == 5)
    #expect(buckets[4]["ties"] as? Int == 2)
    let suggestion = try #require(object["suggestion"] as? [String: Any])
    #expect(suggestion["score"] as? Double == 0.9)
    #expect(suggestion["reason"] as? String == "never worn, rated 3/5")
    #expect((suggestion["tie"] as? [String: Any])?["lastWorn"] is NSNull)
    #expect(output.contains("\"format\" : \"bowties-report\""))
  }

  @Test("json of a shop: totals, the first --limit ties, every tie left out as null")
  func jsonTotals() throws {
    let output = Fixture.render(.json, Fixture.shop)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    #expect(object["limit"] as? Int == 2)
    let all = try #require(object["allTies"] as? [String: Any])
    #expect(all["ties"] is NSNull && all["total"] as? Int == 1_000_000)
    let stale = try #require(object["notWornRecently"] as? [String: Any])
    #expect(stale["total"] as? Int == 899_989)
    #expect((stale["ties"] as? [[String: Any]])?.map { $0["searchKey"] as? String } == ["V", "Y"])
    var whole = Fixture.shop
    whole.limit = nil
    let wholeObject = try #require(
      try JSONSerialization.jsonObject(with: Data(Fixture.render(.json, whole).utf8))
        as? [String: Any])
    #expect(wholeObject["limit"] is NSNull)
    // An empty list is still an array, as JSONEncoder writes one.
    #expect(
      Fixture.render(.json, Fixture.empty).contains("\"ties\" : [\n\n    ],\n    \"total\" : 0"))
  }

  // MARK: - CSV

  @Test("csv: exact header, a row per listed tie, RFC 4180 quoting, dot decimals in any locale")
  func csv() throws {
    let output = Fixture.render(.csv, locale: Locale(identifier: "de_DE"))
    #expect(output == Fixture.render(.csv))
    let rows = parseCSV(output)
    #expect(
      rows.first == [
        "list", "rank", "total", "searchKey", "name", "rating", "timesWorn", "lastWorn",
        "daysSinceWorn", "isFavorite", "color", "status",
      ])
    #expect(
      output.hasPrefix(
        "list,rank,total,searchKey,name,rating,timesWorn,lastWorn,daysSinceWorn,isFavorite,color,"
          + "status\n"))
    // 6 most worn, 6 least worn, 1 never worn, 4 stale, 7 in all.
    #expect(rows.count == 1 + 6 + 6 + 1 + 4 + 7)
    #expect(rows.allSatisfy { $0.count == 12 })
    #expect(!output.contains("\r"))

    let all = rows.filter { $0[0] == "all" }
    #expect(all.map { $0[1] } == (1...7).map(String.init))
    #expect(all.allSatisfy { $0[2] == "7" })
    let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0[3], Array($0.dropFirst(3))) })
    #expect(byKey["Y"]?[1] == Fixture.awkwardName)
    #expect(output.contains(#""Café ""Soleil"" <Yellow> & Co, No. 5 | striped""#))
    #expect(
      byKey["O"] == [
        "O", "Orange Bow Tie", "3.5", "4", "2026-09-02T12:00:00Z", "80", "false", "#F37B1E",
        "not-worn-recently",
      ])
    #expect(
      byKey["I"] == ["I", "Indigo Bow Tie", "3", "0", "", "", "false", "#4B2F91", "never-worn"])
    #expect(byKey["B"]?[8] == "recent")
    #expect(byKey["B"]?[6] == "true")
    #expect(byKey["V"]?[7] == "")
    #expect(byKey["V"]?[8] == "not-worn-recently")
    #expect(
      rows.filter { $0[0] == "not-worn-recently" }.map { [$0[1], $0[2], $0[3]] } == [
        ["1", "4", "V"], ["2", "4", "Y"], ["3", "4", "O"], ["4", "4", "R"],
      ])
  }

  // MARK: - Every format

  @Test(
    "every format shows the same lists: the same ties in the same order, the same totals",
    arguments: [Fixture.sample, Fixture.shop, Fixture.empty])
  func sameListsInEveryFormat(report: Report) throws {
    for list in Report.List.allCases {
      let expected = ListedTies(
        total: report.list(list)?.total ?? report.tieCount,
        keys: report.list(list)?.ties.map(\.searchKey) ?? [])
      for format in ReportFormat.allCases {
        let output = Fixture.render(format, report)
        #expect(
          try ListedTies(list, in: output, as: format, report) == expected, "\(list) \(format)")
      }
    }
  }
  @Test("the CSV test parser itself handles quotes, commas and line breaks")
  func csvParser() {
    #expect(parseCSV("a,\"b,\"\"c\"\"\nd\",\n") == [["a", "b,\"c\"\nd", ""]])
    #expect(CSV.field("plain") == "plain")
    #expect(CSV.field("a \"b\", c") == "\"a \"\"b\"\", c\"")
  }
}

/// A list as a rendered report shows it, read back from the document: how many ties the
/// list holds, and the search keys of those it shows, in order.
private struct ListedTies: Equatable, CustomStringConvertible {
  var total: Int
  var keys: [String]

  var description: String { "\(total): \(keys.joined(separator: " "))" }

  init(total: Int, keys: [String]) {
    self.total = total
    self.keys = keys
  }

  /// Reads `list` from `output`, a whole report in `format`.
  init(_ list: Report.List, in output: String, as format: ReportFormat, _ report: Report) throws {
    let title = ReportFormatting(report, locale: ReportFixture.english).title(list)
    switch format {
    case .text:
      // "Title: 899,989 ties; …", then "  KEY  name  …" lines up to a blank line.
      let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
      let heading = try #require(lines.firstIndex { $0.hasPrefix(title + ": ") })
      total = Self.leadingCount(lines[heading].dropFirst(title.count + 2))
      keys = lines[(heading + 1)...].prefix { $0.hasPrefix("  ") }
        .map { String($0.dropFirst(2).prefix { $0 != " " }) }
    case .markdown:
      // "## Title", its note, then a table whose rows start "| KEY |".
      let blocks = output.components(separatedBy: "\n\n")
      let heading = try #require(blocks.firstIndex(of: "## " + title))
      total = Self.leadingCount(Substring(blocks[heading + 1]))
      let table = blocks.count > heading + 2 && blocks[heading + 2].hasPrefix("| Key |")
      keys =
        !table
        ? []
        : blocks[heading + 2].split(separator: "\n").dropFirst(2).map {
          String($0.dropFirst(2).prefix { $0 != " " })
        }
    case .html:
      let document = try XMLDocument(data: Data(output.utf8), options: [])
      let section = try #require(
        try document.nodes(forXPath: "//section[h2 = '\(title)']").first as? XMLElement)
      let note = try section.nodes(forXPath: "p").first?.stringValue ?? ""
      total = Self.leadingCount(Substring(note))
      keys = try section.nodes(forXPath: "table/tbody/tr/td[@class='key']").compactMap(
        \.stringValue)
    case .json:
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
      let name = list == .all ? "allTies" : list.rawValue
      let entry = try #require(object[name] as? [String: Any])
      total = try #require(entry["total"] as? Int)
      keys = (entry["ties"] as? [[String: Any]] ?? []).compactMap { $0["searchKey"] as? String }
    case .csv:
      let rows = parseCSV(output).dropFirst().filter { $0[0] == CSVReport.name(list) }
      #expect(rows.map { $0[1] } == rows.indices.map { String($0 - rows.startIndex + 1) })
      // A list without a row gives its total nowhere else: none, or not listed at all.
      total = rows.first.flatMap { Int($0[2]) } ?? report.list(list)?.total ?? report.tieCount
      keys = rows.map { $0[3] }
    }
  }

  /// The number a note starts with ("899,989 ties; …"), or 0 for "none".
  private static func leadingCount(_ text: Substring) -> Int {
    Int(text.prefix { $0.isNumber || $0 == "," }.filter(\.isNumber)) ?? 0
  }
}

/// A minimal RFC 4180 reader: quoted fields may hold commas, line breaks and doubled quotes.
private func parseCSV(_ text: String) -> [[String]] {
  var rows: [[String]] = []
  var row: [String] = []
  var field = ""
  var quoted = false
  var characters = text.makeIterator()
  var pending = characters.next()
  while let character = pending {
    pending = characters.next()
    if quoted {
      if character == "\"" {
        if pending == "\"" {
          field.append("\"")
          pending = characters.next()
        } else {
          quoted = false
        }
      } else {
        field.append(character)
      }
      continue
    }
    switch character {
    case "\"": quoted = true
    case ",":
      row.append(field)
      field = ""
    case "\n", "\r\n":
      row.append(field)
      rows.append(row)
      row = []
      field = ""
    default: field.append(character)
    }
  }
  if !field.isEmpty || !row.isEmpty {
    row.append(field)
    rows.append(row)
  }
  return rows
}
