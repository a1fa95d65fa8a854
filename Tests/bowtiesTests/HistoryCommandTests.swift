import Foundation
import Testing

@Suite("history, undo, suggest and list filters")
struct HistoryCommandTests {
  @Test("history lists wears newest first, by tie and date range, as text and JSON")
  func history() throws {
    let bowties = BowtiesSandbox()
    try bowties("wear", "R", "--date", "2026-11-01T09:00:00Z")
    try bowties("wear", "B", "--date", "2026-11-10T09:00:00Z")
    try bowties("wear", "R", "--date", "2026-11-20T09:00:00Z")
    let all = try bowties("history")
    #expect(all.status == 0 && all.stderr.isEmpty)
    // ICU puts a narrow no-break space (U+202F) before AM; bowties prints a plain one.
    // With the sample ties' last wears, which seeding recorded.
    #expect(
      all.stdout == """
        Nov 20, 2026 at 9:00 AM  R  Red Bow Tie
        Nov 15, 2026 at 9:00 AM  B  Blue Bow Tie
        Nov 10, 2026 at 9:00 AM  B  Blue Bow Tie
        Nov 1, 2026 at 6:45 PM  G  Green Bow Tie
        Nov 1, 2026 at 9:00 AM  R  Red Bow Tie
        Oct 14, 2026 at 7:30 PM  R  Red Bow Tie
        Sep 2, 2026 at 8:15 AM  O  Orange Bow Tie
        Jun 21, 2026 at 12:00 PM  Y  Yellow Bow Tie
        Dec 24, 2025 at 8:00 PM  V  Violet Bow Tie

        """)
    #expect(try bowties("history", "red").stdout.split(separator: "\n").count == 3)
    let range = try bowties("history", "--since", "2026-11-05", "--until", "2026-11-10", "--json")
    let events = try JSONSerialization.jsonObject(with: Data(range.stdout.utf8)) as? [[String: Any]]
    #expect(events?.count == 1)
    #expect(events?.first?["searchKey"] as? String == "B")
    #expect(events?.first?["wornAt"] as? String == "2026-11-10T09:00:00Z")
    #expect(try bowties("history", "--since", "-3650d").stdout.split(separator: "\n").count == 9)
    // An instant is included at either end, as a day is: one instant finds its wear.
    let instant = "2026-11-10T09:00:00Z"
    for arguments in [["--until", instant, "B"], ["--since", instant, "--until", instant]] {
      let found = try bowties(["history"] + arguments)
      #expect(found.status == 0, "\(arguments): \(found)")
      #expect(found.stdout.hasPrefix("Nov 10, 2026 at 9:00 AM  B  Blue Bow Tie\n"), "\(found)")
    }
    let bad = try bowties("history", "--since", "last week")
    #expect(bad.status == 65 && bad.stderr.contains("'last week' is not a date"))
  }

  @Test("undo takes back wear, rate and favorite, newest first, across runs")
  func undo() throws {
    let bowties = BowtiesSandbox()
    try bowties("wear", "I", "--date", "2026-11-20T09:00:00Z")
    try bowties("rate", "I", "4.5")
    try bowties("favorite", "I")
    #expect(
      try bowties("undo").stdout == "undid favorite of Indigo Bow Tie: not a favorite again\n")
    #expect(try bowties("undo").stdout == "undid rating of Indigo Bow Tie: 4.5/5 is back to 3/5\n")
    let wear = try bowties("undo", "--json")
    #expect(wear.stdout.contains("\"command\" : \"wear\""))
    #expect(wear.stdout.contains("\"timesWorn\" : 0"))
    // One wear, said as one: "worn 1 time".
    try bowties("wear", "I", "--date", "2026-11-21T09:00:00Z")
    try bowties("wear", "I", "--date", "2026-11-22T09:00:00Z")
    #expect(
      try bowties("undo").stdout == "undid wear of Indigo Bow Tie on Nov 22, 2026: worn 1 time\n")
    #expect(
      try bowties("undo").stdout == "undid wear of Indigo Bow Tie on Nov 21, 2026: worn 0 times\n")
    let nothing = try bowties("undo")
    #expect(nothing.status == 0 && nothing.stdout == "nothing to undo\n")
    #expect(try bowties("undo", "--json").stdout == "{\n  \"undone\" : null\n}\n")
    #expect(try bowties.sqlite("SELECT count(*) FROM wearEvent") == "6\n", "the seeded ones")
  }

  @Test("list filters and sorts from the command line")
  func listFilters() throws {
    let bowties = BowtiesSandbox()
    func keys(_ arguments: String...) throws -> String {
      let result = try bowties.run(
        BowtiesSandbox.binary.path, ["list", "--store", bowties.store] + arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      return result.stdout.split(separator: "\n").map { String($0.prefix(1)) }.joined()
    }
    #expect(try keys("--favorites", "--sort", "rating") == "BGR")
    #expect(try keys("--min-rating", "3.5", "--sort", "name", "--reverse") == "ROGB")
    #expect(try keys("--never-worn") == "I")
    #expect(try keys("--not-worn-since", "2026-10-01", "--limit", "2") == "OY")
    #expect(try keys("--worn-since=2026-11-01") == "GB")
    #expect(try keys("--sort", "worn", "--limit", "1") == "B")
    #expect(try keys("--not-worn-since", "-36500d") == "I")
    #expect(try bowties("list", "--min-rating", "abc").status == 65)
    #expect(try bowties("list", "--min-rating", "4", "--max-rating", "3").status == 64)
    #expect(try bowties("list", "--sort", "color").status == 65)
    #expect(try bowties("list", "--limit", "-1").status == 65)
  }

  @Test("suggest explains its choice in one line, the same for the same --as-of")
  func suggest() throws {
    let bowties = BowtiesSandbox()
    let first = try bowties("suggest", "--as-of", "2026-11-21")
    #expect(first.status == 0)
    #expect(first.stdout == "Indigo Bow Tie (I): never worn, rated 3/5\n")
    #expect(try bowties("suggest", "--as-of", "2026-11-21").stdout == first.stdout)
    let three = try bowties("suggest", "--as-of", "2026-11-21", "--count", "3")
    #expect(
      three.stdout == """
        Indigo Bow Tie (I): never worn, rated 3/5
        Violet Bow Tie (V): not worn for 332 days, rated 1.5/5
        Yellow Bow Tie (Y): not worn for 153 days, rated 2/5

        """)
    let json = try bowties("suggest", "--as-of", "2026-11-21", "--json")
    let picks = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(picks?.first?["reason"] as? String == "never worn, rated 3/5")
    // The same object as the report's suggestion, an absent value as null.
    let tie = picks?.first?["tie"] as? [String: Any]
    #expect(tie?["lastWorn"] is NSNull && tie?["daysSinceWorn"] is NSNull, "\(json.stdout)")
    let report = try bowties("report", "--as-of", "2026-11-21", "--format", "json")
    let reported =
      try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
    #expect(
      (reported?["suggestion"] as? NSDictionary) == (picks?.first as? NSDictionary),
      "\(report.stdout)")
    #expect(try bowties("suggest", "--count", "0").status == 65)
    try bowties("wear", "I", "--date", "2026-11-21T08:00:00Z")
    #expect(
      try bowties("suggest", "--as-of", "2026-11-21").stdout
        == "Violet Bow Tie (V): not worn for 332 days, rated 1.5/5\n")
  }

  /// The tie worn last is never suggested: with one tie, worn, there is nothing to suggest,
  /// and `suggest` and the report say why rather than print nothing, or that there are no ties.
  @Test("nothing to suggest: suggest and report say why, for no ties, one, or all worn last")
  func nothingToSuggest() throws {
    let bowties = BowtiesSandbox()
    for key in ["O", "Y", "G", "B", "I", "V"] { try bowties("remove", key, "--yes") }
    func check(_ reason: String, _ place: Comment) throws {
      let suggest = try bowties("suggest", "--as-of", "2026-11-21")
      #expect(suggest.status == 0, place)
      #expect(suggest.stdout.isEmpty, place)
      #expect(suggest.stderr == "bowties: nothing to suggest: \(reason)\n", place)
      let json = try bowties("suggest", "--as-of", "2026-11-21", "--json")
      #expect(json.stdout == "[\n\n]\n" && json.stderr.isEmpty, place)
      let report = try bowties("report", "--as-of", "2026-11-21")
      #expect(report.stdout.contains("\nSuggestion: none, \(reason).\n"), place)
      let markdown = try bowties("report", "--as-of", "2026-11-21", "--format", "markdown")
      #expect(markdown.stdout.contains("**Suggestion:** none, \(reason)."), place)
      let html = try bowties("report", "--as-of", "2026-11-21", "--format", "html")
      #expect(html.stdout.contains(">Suggestion: none, \(reason).</p>"), place)
    }
    try check("the only tie is the one worn last", "one tie")
    try bowties("add", "--name", "Spare Bow Tie", "--key", "S")
    try bowties.sqlite(
      "UPDATE bowTie SET lastWorn = (SELECT lastWorn FROM bowTie WHERE searchKey = 'R')")
    try check("every tie was last worn at the same time, the latest", "two ties worn at once")
    try bowties("remove", "R", "--yes")
    try bowties("remove", "S", "--yes")
    try check("there are no ties", "no ties")
  }
}

@Suite("history, list and report of more ties than they hold at once")
struct LargeStoreCommandTests {
  /// 2,500 ties, each worn on a day of its own before 2026-11-21, names of many lengths.
  private func largeStore() throws -> BowtiesSandbox {
    let bowties = BowtiesSandbox()
    let start = Date(timeIntervalSince1970: 1_795_248_000)  // 2026-11-21T08:00:00Z
    let dates = ISO8601DateFormatter()
    let ties = (0..<2_500).map { index -> [String: Any] in
      let name: String = "Tie " + String(repeating: "x", count: index % 23) + " \(index)"
      let worn: Date = start.addingTimeInterval(-Double(index + 1) * 3_600 * 7)
      return [
        "name": name, "searchKey": "K\(index)", "rating": Double(index % 11) / 2,
        "timesWorn": index % 4 + 1, "isFavorite": index % 3 == 0,
        "lastWorn": dates.string(from: worn),
      ]
    }
    let json = try JSONSerialization.data(withJSONObject: ties)
    let seeded = try bowties("seed", "-", stdin: json)
    #expect(seeded.status == 0, "\(seeded.stderr)")
    return bowties
  }

  @Test("history --json streams every wear, newest first, across its batches")
  func history() throws {
    let bowties = try largeStore()
    let output = try bowties("history", "--json")
    #expect(output.status == 0 && output.stderr.isEmpty)
    let wears = try #require(
      try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
    #expect(wears.count == 2_500)
    let keys = wears.compactMap { $0["searchKey"] as? String }
    #expect(keys == (0..<2_500).map { "K\($0)" })
    #expect(try bowties("history").stdout.split(separator: "\n").count == 2_500)
  }

  @Test("list lines up its columns for every tie, read twice rather than held")
  func list() throws {
    let bowties = try largeStore()
    let lines = try bowties("list").stdout.split(separator: "\n")
    #expect(lines.count == 2_500)
    let longest = "Tie " + String(repeating: "x", count: 22) + " 2499"
    // Key, two spaces, the name padded to the longest, two spaces: then the rating.
    let ratingColumn = "K2499".count + 2 + longest.count + 2
    let aligned = lines.filter { line in
      let rating: Substring = line.dropFirst(ratingColumn)
      return line.dropFirst(ratingColumn - 2).hasPrefix("  ") && rating.first?.isNumber == true
    }
    #expect(aligned.count == lines.count)
  }

  @Test("export writes every tie as it reads them; seeded again, the same bytes")
  func export() throws {
    let bowties = try largeStore()
    let copy = bowties.folder.appendingPathComponent("copy.sqlite").path
    for (format, file) in [("json", "ties.json"), ("plist", "ties.plist"), ("csv", "ties.csv")] {
      let exported = try bowties("export", "--format", format, "--output", file)
      #expect(exported.status == 0 && exported.stderr.isEmpty, "\(format)")
      let text = try String(
        contentsOf: bowties.folder.appendingPathComponent(file), encoding: .utf8)
      #expect(text.contains("K2499"), "\(format)")
      guard format != "csv" else {
        #expect(text.split(separator: "\n").count == 2_501)
        continue
      }
      try? FileManager.default.removeItem(atPath: copy)
      let seeded = try bowties.run(BowtiesSandbox.binary.path, ["seed", file, "--store", copy])
      #expect(seeded.stdout == "added 2500, replaced 0, skipped 0\n", "\(format)")
      let again = try bowties.run(
        BowtiesSandbox.binary.path, ["export", "--format", format, "--store", copy])
      #expect(again.stdout == text, "\(format)")
    }
  }

  @Test("the report stays a summary; --all streams every list whole")
  func report() throws {
    let bowties = try largeStore()
    let summary = try bowties("report", "--format", "json", "--as-of", "2026-11-21")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
    let all = try #require(object["allTies"] as? [String: Any])
    #expect(all["ties"] is NSNull && all["total"] as? Int == 2_500)
    let stale = try #require(object["notWornRecently"] as? [String: Any])
    let staleTotal = try #require(stale["total"] as? Int)
    #expect((stale["ties"] as? [Any])?.count == 10 && staleTotal > 1_000)

    let whole = try bowties("report", "--format", "json", "--as-of", "2026-11-21", "--all")
    let wholeObject = try #require(
      try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any])
    for (key, total) in [("allTies", 2_500), ("mostWorn", 2_500), ("notWornRecently", staleTotal)] {
      let list = try #require(wholeObject[key] as? [String: Any])
      #expect((list["ties"] as? [Any])?.count == total && list["total"] as? Int == total, "\(key)")
    }
    let text = try bowties("report", "--as-of", "2026-11-21", "--all").stdout
    let staleLines = text.components(separatedBy: "longest unworn first\n")[1]
      .split(separator: "\n").prefix { $0.hasPrefix("  ") }
    #expect(staleLines.count == staleTotal)
    let dayEnds = Set(
      staleLines.compactMap { $0.range(of: " day")?.lowerBound.utf16Offset(in: $0) })
    #expect(dayEnds.count == 1, "the days column lines up")
  }
}

@Suite("report")
struct ReportCommandTests {
  private func seededWithWears() throws -> BowtiesSandbox {
    let bowties = BowtiesSandbox()
    for (key, date) in [
      ("R", "2026-10-02T09:00:00Z"), ("R", "2026-11-03T09:00:00Z"), ("G", "2026-11-10T09:00:00Z"),
    ] {
      try bowties("wear", key, "--date", date)
    }
    return bowties
  }

  @Test(
    "every format is the same bytes for the same store and --as-of, with nothing on stderr",
    arguments: ["text", "markdown", "html", "json", "csv"])
  func reproducible(format: String) throws {
    let bowties = try seededWithWears()
    let first = try bowties("report", "--format", format, "--as-of", "2026-11-21")
    let second = try bowties("report", "--format", format, "--as-of", "2026-11-21")
    #expect(first.status == 0 && first.stderr.isEmpty)
    #expect(first.stdout == second.stdout)
    #expect(!first.stdout.contains("\u{1B}"))
    #expect(first.stdout.contains("Indigo Bow Tie"))
  }

  @Test("the text report covers every section, as of the given day")
  func textSections() throws {
    let bowties = try seededWithWears()
    let text = try bowties("report", "--as-of", "2026-11-21", "--months", "3", "--stale-days", "60")
      .stdout
    for needle in [
      "as of Nov 21, 2026", "Ties            7", "Favorites       3",
      "Suggestion: Indigo Bow Tie (I)",
      "Most worn", "Blue Bow Tie", "Least worn", "Violet Bow Tie", "Never worn",
      "Not worn in the last 60 days", "Wears per month (last 3 months)",
      // The seeded last wears (O in September, R in October, G and B in November) and
      // the three above.
      "Sep 2026  ██████████ 1", "Oct 2026  ████████████████████ 2",
      "Nov 2026  ████████████████████████████████████████ 4", "Rating distribution",
    ] {
      #expect(text.contains(needle), "missing \(needle)")
    }
  }

  @Test("JSON has the documented shape; CSV has a header and a row per tie")
  func machineFormats() throws {
    let bowties = try seededWithWears()
    let json = try bowties("report", "--format", "json", "--as-of", "2026-11-21").stdout
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["format"] as? String == "bowties-report" && object["version"] as? Int == 2)
    #expect(object["tieCount"] as? Int == 7 && object["limit"] as? Int == 10)
    #expect((object["wearsPerMonth"] as? [[String: Any]])?.count == 12)
    #expect((object["allTies"] as? [String: Any])?["total"] as? Int == 7)
    let csv = try bowties("report", "--format", "csv", "--as-of", "2026-11-21").stdout
    let rows = csv.split(separator: "\n")
    let header =
      "list,rank,total,searchKey,name,rating,timesWorn,lastWorn,daysSinceWorn,isFavorite,color,"
      + "status"
    #expect(rows.first.map(String.init) == header)
    #expect(rows.filter { $0.hasPrefix("all,") }.count == 7)
    #expect(rows.filter { $0.hasPrefix("most-worn,") }.count == 6)
  }

  @Test("--limit bounds every list but the totals; --all shows them whole, in every format")
  func limits() throws {
    let bowties = try seededWithWears()
    let two = try bowties("report", "--as-of", "2026-11-21", "--limit", "2")
    #expect(two.status == 0 && two.stderr.isEmpty)
    #expect(
      two.stdout.contains(
        "\nMost worn: 6 worn ties; the 2 worn most\n"
          + "  B  Blue Bow Tie  worn 15×, last Nov 15, 2026\n"
          + "  R  Red Bow Tie   worn 12×, last Nov 3, 2026\n\n"))
    #expect(two.stdout.contains("\nNot worn in the last 30 days: 3 ties; the 2 longest unworn\n"))
    #expect(two.stdout.contains("\nAll ties: 7 ties\n"), "a small store lists every tie")
    for format in ["text", "markdown", "html", "json", "csv"] {
      let all = try bowties("report", "--format", format, "--as-of", "2026-11-21", "--all")
      let long = try bowties("report", "--format", format, "--as-of", "2026-11-21", "--limit", "99")
      #expect(all.status == 0 && all.stderr.isEmpty)
      // The same document, but for the limit JSON names.
      #expect(
        all.stdout
          == long.stdout.replacingOccurrences(of: "\"limit\" : 99,", with: "\"limit\" : null,"),
        "\(format)")
    }
    // Out of range, 65; two options that exclude each other, 64.
    for (bad, status) in [
      (["--limit", "0"], 65), (["--limit", "-1"], 65), (["--limit", "2", "--all"], 64),
    ] as [([String], Int32)] {
      let refused = try bowties.run(
        BowtiesSandbox.binary.path, ["report", "--store", bowties.store] + bad)
      #expect(
        refused.status == status && refused.stderr.split(separator: "\n").count == 1, "\(bad)")
    }
  }

  @Test("--output writes the whole file or nothing; a failure is one line on stderr")
  func output() throws {
    let bowties = try seededWithWears()
    let file = bowties.folder.appendingPathComponent("report.html")
    let written = try bowties("report", "--format", "html", "--output", file.path)
    #expect(written.status == 0 && written.stdout.isEmpty && written.stderr.isEmpty)
    let html = try String(contentsOf: file, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
    let failed = try bowties(
      "report", "--output", bowties.folder.appendingPathComponent("no/such/dir/r.txt").path)
    #expect(failed.status == 73)
    #expect(failed.stderr.split(separator: "\n").count == 1)
    #expect(failed.stderr.hasPrefix("bowties: cannot write "))
    let bad = try bowties("report", "--format", "pdf")
    #expect(bad.status == 65 && bad.stderr.split(separator: "\n").count == 1)
    let badDate = try bowties("report", "--as-of", "someday")
    #expect(badDate.status == 65 && badDate.stderr.split(separator: "\n").count == 1)
  }
}
