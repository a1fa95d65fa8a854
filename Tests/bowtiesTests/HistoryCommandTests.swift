import Foundation
import Testing

@Suite("history, undo, suggest and list filters")
struct HistoryCommandTests {
  @Test("history lists wears newest first, by tie and date range, as text and JSON")
  func history() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("wear", "R", "--date", "2026-11-01T09:00:00Z")
    try bowtie("wear", "B", "--date", "2026-11-10T09:00:00Z")
    try bowtie("wear", "R", "--date", "2026-11-20T09:00:00Z")
    let all = try bowtie("history")
    #expect(all.status == 0 && all.stderr.isEmpty)
    // ICU puts a narrow no-break space (U+202F) before AM.
    #expect(
      all.stdout == """
        Nov 20, 2026 at 9:00\u{202F}AM  R  Red Bow Tie
        Nov 10, 2026 at 9:00\u{202F}AM  B  Blue Bow Tie
        Nov 1, 2026 at 9:00\u{202F}AM  R  Red Bow Tie

        """)
    #expect(try bowtie("history", "red").stdout.split(separator: "\n").count == 2)
    let range = try bowtie("history", "--since", "2026-11-05", "--until", "2026-11-10", "--json")
    let events = try JSONSerialization.jsonObject(with: Data(range.stdout.utf8)) as? [[String: Any]]
    #expect(events?.count == 1)
    #expect(events?.first?["searchKey"] as? String == "B")
    #expect(events?.first?["wornAt"] as? String == "2026-11-10T09:00:00Z")
    #expect(try bowtie("history", "--since", "-3650d").stdout.split(separator: "\n").count == 3)
    let bad = try bowtie("history", "--since", "last week")
    #expect(bad.status == 65 && bad.stderr.contains("'last week' is not a date"))
  }

  @Test("undo takes back wear, rate and favorite, newest first, across runs")
  func undo() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("wear", "I", "--date", "2026-11-20T09:00:00Z")
    try bowtie("rate", "I", "4.5")
    try bowtie("favorite", "I")
    #expect(try bowtie("undo").stdout == "undid favorite of Indigo Bow Tie: not a favorite again\n")
    #expect(try bowtie("undo").stdout == "undid rating of Indigo Bow Tie: 4.5/5 is back to 3/5\n")
    let wear = try bowtie("undo", "--json")
    #expect(wear.stdout.contains("\"command\" : \"wear\""))
    #expect(wear.stdout.contains("\"timesWorn\" : 0"))
    let nothing = try bowtie("undo")
    #expect(nothing.status == 0 && nothing.stdout == "nothing to undo\n")
    #expect(try bowtie("undo", "--json").stdout == "{\n  \"undone\" : null\n}\n")
    #expect(try bowtie.sqlite("SELECT count(*) FROM wearEvent") == "0\n")
  }

  @Test("list filters and sorts from the command line")
  func listFilters() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    func keys(_ arguments: String...) throws -> String {
      let result = try bowtie.run(
        Bowtie.binary.path, ["list", "--store", bowtie.store] + arguments)
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
    #expect(try bowtie("list", "--min-rating", "abc").status == 65)
    #expect(try bowtie("list", "--min-rating", "4", "--max-rating", "3").status == 64)
    #expect(try bowtie("list", "--sort", "color").status == 64)
    #expect(try bowtie("list", "--limit", "-1").status == 64)
  }

  @Test("suggest explains its choice in one line, the same for the same --as-of")
  func suggest() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    let first = try bowtie("suggest", "--as-of", "2026-11-21")
    #expect(first.status == 0)
    #expect(first.stdout == "Indigo Bow Tie (I): never worn, rated 3/5\n")
    #expect(try bowtie("suggest", "--as-of", "2026-11-21").stdout == first.stdout)
    let three = try bowtie("suggest", "--as-of", "2026-11-21", "--count", "3")
    #expect(
      three.stdout == """
        Indigo Bow Tie (I): never worn, rated 3/5
        Violet Bow Tie (V): not worn for 332 days, rated 1.5/5
        Yellow Bow Tie (Y): not worn for 153 days, rated 2/5

        """)
    let json = try bowtie("suggest", "--as-of", "2026-11-21", "--json")
    let picks = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(picks?.first?["reason"] as? String == "never worn, rated 3/5")
    #expect(try bowtie("suggest", "--count", "0").status == 64)
    try bowtie("wear", "I", "--date", "2026-11-21T08:00:00Z")
    #expect(
      try bowtie("suggest", "--as-of", "2026-11-21").stdout
        == "Violet Bow Tie (V): not worn for 332 days, rated 1.5/5\n")
  }
}

@Suite("report")
struct ReportCommandTests {
  private func seededWithWears() throws -> Bowtie {
    let bowtie = Bowtie()
    for (key, date) in [
      ("R", "2026-10-02T09:00:00Z"), ("R", "2026-11-03T09:00:00Z"), ("G", "2026-11-10T09:00:00Z"),
    ] {
      try bowtie("wear", key, "--date", date)
    }
    return bowtie
  }

  @Test(
    "every format is the same bytes for the same store and --as-of, with nothing on stderr",
    arguments: ["text", "markdown", "html", "json", "csv"])
  func reproducible(format: String) throws {
    let bowtie = try seededWithWears()
    defer { bowtie.remove() }
    let first = try bowtie("report", "--format", format, "--as-of", "2026-11-21")
    let second = try bowtie("report", "--format", format, "--as-of", "2026-11-21")
    #expect(first.status == 0 && first.stderr.isEmpty)
    #expect(first.stdout == second.stdout)
    #expect(!first.stdout.contains("\u{1B}"))
    #expect(first.stdout.contains("Indigo Bow Tie"))
  }

  @Test("the text report covers every section, as of the given day")
  func textSections() throws {
    let bowtie = try seededWithWears()
    defer { bowtie.remove() }
    let text = try bowtie("report", "--as-of", "2026-11-21", "--months", "3", "--stale-days", "60")
      .stdout
    for needle in [
      "as of Nov 21, 2026", "Ties            7", "Favorites       3",
      "Suggestion: Indigo Bow Tie (I)",
      "Most worn", "Blue Bow Tie", "Least worn", "Violet Bow Tie", "Never worn",
      "Not worn in the last 60 days", "Wears per month (last 3 months)",
      "Oct 2026  ████████████████████ 1", "Nov 2026  ████████████████████████████████████████ 2",
      "Rating distribution",
    ] {
      #expect(text.contains(needle), "missing \(needle)")
    }
  }

  @Test("JSON has the documented shape; CSV has a header and a row per tie")
  func machineFormats() throws {
    let bowtie = try seededWithWears()
    defer { bowtie.remove() }
    let json = try bowtie("report", "--format", "json", "--as-of", "2026-11-21").stdout
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["format"] as? String == "bowties-report" && object["version"] as? Int == 1)
    #expect(object["tieCount"] as? Int == 7)
    #expect((object["wearsPerMonth"] as? [[String: Any]])?.count == 12)
    let csv = try bowtie("report", "--format", "csv", "--as-of", "2026-11-21").stdout
    let rows = csv.split(separator: "\n")
    #expect(
      rows.first == "searchKey,name,rating,timesWorn,lastWorn,daysSinceWorn,isFavorite,color,status"
    )
    #expect(rows.count == 8)
  }

  @Test("--output writes the whole file or nothing; a failure is one line on stderr")
  func output() throws {
    let bowtie = try seededWithWears()
    defer { bowtie.remove() }
    let file = bowtie.folder.appendingPathComponent("report.html")
    let written = try bowtie("report", "--format", "html", "--output", file.path)
    #expect(written.status == 0 && written.stdout.isEmpty && written.stderr.isEmpty)
    let html = try String(contentsOf: file, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
    let failed = try bowtie(
      "report", "--output", bowtie.folder.appendingPathComponent("no/such/dir/r.txt").path)
    #expect(failed.status == 73)
    #expect(failed.stderr.split(separator: "\n").count == 1)
    #expect(failed.stderr.hasPrefix("bowties: cannot write "))
    let bad = try bowtie("report", "--format", "pdf")
    #expect(bad.status == 64 && bad.stderr.split(separator: "\n").count == 1)
    let badDate = try bowtie("report", "--as-of", "someday")
    #expect(badDate.status == 65 && badDate.stderr.split(separator: "\n").count == 1)
  }
}
