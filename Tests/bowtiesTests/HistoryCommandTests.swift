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
