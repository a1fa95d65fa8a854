import Foundation
import SeededRandom
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import BowTieReports
@testable import PropertyLists

/// The sample ties, as seeded: R 4★ fav 10× Oct 14 · O 3.5 4× Sep 2 · Y 2 2× Jun 21 ·
/// G 4.5 fav 7× Nov 1 · B 5 fav 15× Nov 15 · I 3 never · V 1.5 1× Dec 24 2025.
@Suite("Finding ties")
struct FindingTests {
  private let asOf = Date(timeIntervalSince1970: 1_795_248_000)  // 2026-11-21T08:00:00Z

  private var utc: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }

  private func samples() throws -> BowTieStore {
    let store = try makeInMemoryStore()
    try store.seed(SampleData.entries())
    return store
  }

  private func keys(_ store: BowTieStore, _ change: (inout TieFilter) -> Void) throws -> String {
    var filter = TieFilter()
    change(&filter)
    return try store.ties(filter).map(\.searchKey).joined()
  }

  private func day(_ text: String) -> Date { ISO8601.parse(text + "T00:00:00Z")! }

  @Test("filters")
  func filters() throws {
    let store = try samples()
    #expect(try keys(store) { _ in } == "ROYGBIV")
    #expect(try keys(store) { $0.favoritesOnly = true } == "RGB")
    #expect(try keys(store) { $0.minimumRating = 3.5 } == "ROGB")
    #expect(try keys(store) { $0.maximumRating = 3 } == "YIV")
    #expect(
      try keys(store) {
        $0.minimumRating = 2; $0.maximumRating = 3.5
      } == "OYI")
    #expect(try keys(store) { $0.wornSince = day("2026-11-01") } == "GB")
    #expect(try keys(store) { $0.notWornSince = day("2026-10-01") } == "OYIV")
    #expect(try keys(store) { $0.neverWorn = true } == "I")
    #expect(
      try keys(store) {
        $0.favoritesOnly = true; $0.neverWorn = true
      } == "")
  }

  @Test("sorting, reversing and limiting")
  func sorting() throws {
    let store = try samples()
    #expect(try keys(store) { $0.sort = .name } == "BGIORVY")
    #expect(try keys(store) { $0.sort = .rating } == "BGROIYV")
    #expect(try keys(store) { $0.sort = .worn } == "BRGOYVI")
    #expect(try keys(store) { $0.sort = .lastWorn } == "BGROYVI")
    #expect(
      try keys(store) {
        $0.sort = .lastWorn; $0.reverse = true
      } == "IVYORGB")
    #expect(try keys(store) { $0.reverse = true } == "VIBGYOR")
    #expect(
      try keys(store) {
        $0.sort = .rating; $0.limit = 2
      } == "BG")
    #expect(try keys(store) { $0.limit = 0 } == "")
  }

  @Test("suggestions favor long-unworn, well-rated favorites, never the latest worn")
  func suggestions() throws {
    let store = try samples()
    let picks = try Suggester.suggestions(from: store, asOf: asOf, calendar: utc, count: 7)
    // I: (365+1)×4 = 1464; V: (332+1)×2.5 = 832.5; R: (38+1)×5×1.5 = 292.5;
    // Y: (153+1)×3 = 462; O: (80+1)×4.5 = 364.5; G: (20+1)×5.5×1.5 = 173.25; B excluded.
    #expect(picks.map(\.tie.searchKey) == ["I", "V", "Y", "O", "R", "G"])
    #expect(picks.map(\.score) == [1464, 832.5, 462, 364.5, 292.5, 173.25])
    #expect(picks[0].reason == "never worn, rated 3/5")
    #expect(picks[4].reason == "not worn for 38 days, rated 4/5, a favorite")
    #expect(try Suggester.suggestions(from: store, asOf: asOf, calendar: utc) == [picks[0]])
    // Wearing the top pick moves it out of the way.
    try store.wear("I", on: asOf)
    let next = try Suggester.suggestions(from: store, asOf: asOf, calendar: utc)
    #expect(next.first?.tie.searchKey == "V")
    let empty = try makeInMemoryStore()
    #expect(try Suggester.suggestions(from: empty, asOf: asOf, calendar: utc).isEmpty)
  }

  @Test("suggest's one query picks what scoring every tie in Swift picks, ties broken alike")
  func suggestionsMatchScoringInSwift() throws {
    let store = try makeInMemoryStore()
    var generator = SplitMix64(seed: 14)
    // Few distinct days, ratings and flags, so that many scores are equal.
    let entries = (0..<400).map { index in
      let daysBack = generator.next(below: 12)
      let tie = BowTie(
        name: "Tie \(generator.next(below: 1_000)) \(index)", searchKey: "K\(index)",
        rating: Double(generator.next(below: 3)), timesWorn: daysBack == 0 ? 0 : 1,
        lastWorn: daysBack == 0
          ? nil : asOf.addingTimeInterval(-Double(daysBack) * 86_400 + Double(index)),
        isFavorite: generator.next(below: 2) == 0)
      return SeedEntry(index: index, tie: tie, hasExplicitID: true)
    }
    try store.seed(entries)
    let ties = try store.allTies()
    let expected = referenceSuggestions(ties, count: 60)
    let picks = try Suggester.suggestions(from: store, asOf: asOf, calendar: utc, count: 60)
    #expect(picks.map(\.tie.searchKey) == expected.map(\.key))
    #expect(picks.map(\.score) == expected.map(\.score))
  }

  /// The scoring `suggest` documents, done tie by tie in Swift, independently of the one
  /// query the store runs: `ties` in the app's order break equal scores.
  private func referenceSuggestions(_ ties: [BowTie], count: Int) -> [(key: String, score: Double)]
  {
    let mostRecent = ties.compactMap(\.lastWorn).max()
    let scored = ties.enumerated().filter { $0.element.lastWorn != mostRecent || mostRecent == nil }
      .map { index, tie in
        let days = tie.lastWorn.map { worn in
          max(
            0,
            utc.dateComponents(
              [.day], from: utc.startOfDay(for: worn), to: utc.startOfDay(for: asOf)
            ).day ?? 0)
        }
        let score =
          Double((days ?? Suggester.neverWornDays) + 1) * (1 + tie.rating)
          * (tie.isFavorite ? 1.5 : 1)
        return (key: tie.searchKey, score: score, index: index)
      }
    return scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
      .prefix(count).map { (key: $0.key, score: $0.score) }
  }

  @Test("the report builder counts what the issue asks for")
  func reportData() throws {
    let store = try samples()
    try store.wear("I", on: day("2026-10-03"))
    try store.wear("R", on: day("2026-11-20"))
    try store.wear("R", on: day("2026-11-21"))
    try store.wear("R", on: day("2026-11-22"))  // after the as-of day: not counted
    let report = try ReportBuilder(asOf: asOf, staleDays: 30, months: 3, calendar: utc).build(
      from: store)
    #expect(report.tieCount == 7 && report.favoriteCount == 3)
    #expect(report.averageRating == 23.5 / 7)
    #expect(report.limit == 10)
    #expect(report.mostWorn.total == 7)
    #expect(report.mostWorn.ties.map(\.searchKey) == ["B", "R", "G", "O", "Y", "I", "V"])
    #expect(report.leastWorn.ties.map(\.searchKey) == ["I", "V", "Y", "O", "G", "R", "B"])
    #expect(report.neverWorn == Report.TieList(total: 0, ties: []))
    #expect(report.notWornRecently.total == 4)
    #expect(report.notWornRecently.ties.map(\.searchKey) == ["V", "Y", "O", "I"])
    #expect(report.notWornRecently.ties.map(\.daysSinceWorn) == [332, 153, 80, 49])
    // The seeded ties' last wears count too: O's in September, R's in October.
    #expect(
      report.wearsPerMonth == [
        .init(month: "2026-09", wears: 1), .init(month: "2026-10", wears: 2),
        .init(month: "2026-11", wears: 4),
      ])
    #expect(report.ratingDistribution.map(\.ties) == [0, 1, 1, 2, 2, 1])
    #expect(report.allTies?.ties.map(\.searchKey) == ["R", "O", "Y", "G", "B", "I", "V"])
    #expect(report.suggestion?.tie.searchKey == "V")
    let again = try ReportBuilder(asOf: asOf, staleDays: 30, months: 3, calendar: utc).build(
      from: store)
    #expect(again == report)
  }

  /// A store of `count` ties K0…: every fifth never worn, the others worn `index % 7 + 1`
  /// times, last on a day `index % 90` days before the as-of day.
  private func generatedStore(_ count: Int) throws -> BowTieStore {
    let store = try makeInMemoryStore()
    try store.seed(
      (0..<count).map { index in
        let worn = index % 5 == 0 ? 0 : index % 7 + 1
        let tie = BowTie(
          name: "Generated \(index)", searchKey: "K\(index)", rating: Double(index % 11) / 2,
          timesWorn: Int32(worn),
          lastWorn: worn == 0 ? nil : asOf.addingTimeInterval(-Double(index % 90) * 86_400),
          isFavorite: index % 3 == 0)
        return SeedEntry(index: index, tie: tie, hasExplicitID: true)
      })
    return store
  }

  @Test("each list shows its first --limit ties and counts them all; --all shows them whole")
  func boundedLists() throws {
    let store = try generatedStore(150)
    let whole = try ReportBuilder(asOf: asOf, limit: nil, calendar: utc).build(from: store)
    let limited = try ReportBuilder(asOf: asOf, limit: 4, calendar: utc).build(from: store)
    #expect(whole.neverWorn.total == 30 && whole.mostWorn.total == 120)
    #expect(
      whole.notWornRecently.total == (0..<150).filter { $0 % 5 != 0 && $0 % 90 >= 30 }.count)
    for list in Report.List.allCases where list != .all {
      let all = try #require(whole.list(list))
      let first = try #require(limited.list(list))
      #expect(all.ties.count == all.total, "\(list)")
      #expect(first.total == all.total, "\(list)")
      #expect(first.ties == Array(all.ties.prefix(4)), "\(list)")
    }
    #expect(
      whole.mostWorn.ties.map(\.timesWorn) == whole.mostWorn.ties.map(\.timesWorn).sorted(by: >))
    #expect(whole.leastWorn.ties.map(\.timesWorn) == whole.leastWorn.ties.map(\.timesWorn).sorted())
    let days = whole.notWornRecently.ties.compactMap(\.daysSinceWorn)
    #expect(days.count == whole.notWornRecently.total && days == days.sorted(by: >))
    #expect(days.allSatisfy { $0 >= 30 })
    #expect(whole.neverWorn.ties.allSatisfy { $0.timesWorn == 0 })
    // Every tie only up to the threshold, or with --all.
    #expect(whole.allTies?.ties.count == 150)
    #expect(limited.allTies == nil)
    let small = try ReportBuilder(asOf: asOf, limit: 4, calendar: utc)
      .build(from: try generatedStore(ReportBuilder.allTiesThreshold))
    #expect(small.allTies?.ties.count == ReportBuilder.allTiesThreshold)
  }

  @Test(
    "whole lists stream from the store into the same document as a report held in memory",
    arguments: ReportFormat.allCases)
  func streamedLists(format: ReportFormat) throws {
    let store = try generatedStore(120)
    let locale = Locale(identifier: "en_US")
    var streamed = ""
    try ReportBuilder(asOf: asOf, limit: nil, calendar: utc)
      .write(from: store, as: format, locale: locale, to: &streamed)
    let held = try ReportBuilder(asOf: asOf, limit: nil, calendar: utc).build(from: store)
    #expect(held.mostWorn.ties.count == 96)
    #expect(streamed == ReportRenderer.render(held, as: format, locale: locale))
    // The same lists as a limit longer than every list gives (which leaves out the list
    // of all 120 ties).
    var limited = try ReportBuilder(asOf: asOf, limit: 1_000, calendar: utc).build(from: store)
    #expect(limited.allTies == nil)
    limited.limit = nil
    limited.allTies = held.allTies
    #expect(limited == held)
  }

  @Test("days count in the local time zone or a fixed offset, and nowhere else")
  func reportTimeZones() throws {
    let store = try samples()
    var fixed = Calendar(identifier: .gregorian)
    fixed.timeZone = TimeZone(secondsFromGMT: -11 * 3600)!
    // 2026-11-21T08:00Z is still the 20th at UTC-11, and B's last wear, 09:00Z on the 15th,
    // the 14th: six days either way; V's 20:00Z on 2025-12-24 is 09:00 that day: 331 days.
    let report = try ReportBuilder(asOf: asOf, calendar: fixed).build(from: store)
    #expect(report.mostWorn.ties.first?.searchKey == "B")
    #expect(report.mostWorn.ties.first?.daysSinceWorn == 6)
    #expect(report.notWornRecently.ties.first?.daysSinceWorn == 331)
    var elsewhere = Calendar(identifier: .gregorian)
    let zone =
      TimeZone.current.identifier == "Pacific/Auckland" ? "Europe/Paris" : "Pacific/Auckland"
    elsewhere.timeZone = TimeZone(identifier: zone)!
    #expect(throws: BowTieError.self) {
      try ReportBuilder(asOf: asOf, calendar: elsewhere).build(from: store)
    }
  }

  @Test("an empty store makes an empty report")
  func emptyReport() throws {
    let report = try ReportBuilder(asOf: asOf, calendar: utc).build(from: try makeInMemoryStore())
    #expect(report.tieCount == 0 && report.averageRating == nil && report.suggestion == nil)
    #expect(report.mostWorn == Report.TieList(total: 0, ties: []))
    #expect(report.allTies == Report.TieList(total: 0, ties: []))
    #expect(report.wearsPerMonth.count == 12 && report.wearsPerMonth.allSatisfy { $0.wears == 0 })
  }

  /// Found by fuzzing (Fuzz/Corpus/tie-resolver/crash-nul-after-key, crash-id-nul-suffix): GRDB
  /// binds text as a C string, so SQLite saw "B\0…" as "B"; and UUID(uuidString:) stops at a NUL
  /// too.
  @Test("a query with a NUL matches nothing, not what comes before the NUL")
  func nulInQuery() throws {
    let store = try samples()
    let id = "0B0771E5-0000-4000-8000-000000000001"
    for query in ["B\u{0}\u{0}", "Red Bow Tie\u{0}garbage", "\u{0}", id + "\u{0}e"] {
      #expect(throws: BowTieError.noSuchTie(query)) { try store.tie(matching: query) }
    }
    #expect(try store.tie(matching: " B ").name == "Blue Bow Tie")
  }

  /// Found by fuzzing (Fuzz/Corpus/tie-resolver/crash-hangul-jamo): "가" typed as jamo (U+1100
  /// U+1161, as macOS file names hold it) did not find the key "가" stored precomposed (U+AC00),
  /// though Swift calls them equal.
  @Test("keys and names match whether Hangul comes precomposed or as jamo")
  func hangulNormalization() throws {
    let store = try makeInMemoryStore()
    try store.add(BowTie(name: "가방 넥타이", searchKey: "가", rating: 3))
    #expect(try store.tie(matching: "\u{1100}\u{1161}").searchKey == "가")
    #expect(try store.tie(matching: "\u{1100}\u{1161}\u{1107}\u{1161}\u{11BC}").name == "가방 넥타이")
    #expect(BowTie.canonicalize("\u{1100}\u{1161}") == BowTie.canonicalize("\u{AC00}"))
    let duplicate = refusalMessage {
      try store.add(BowTie(name: "Other", searchKey: "\u{1100}\u{1161}", rating: 1))
    }
    #expect(duplicate.contains("is already used by 가방 넥타이"), "\(duplicate)")
  }

  /// Found by fuzzing (Fuzz/Corpus/tie-resolver/crash-id-with-plus): UUID(uuidString:) read
  /// "…-80+0-…" as "…-8000-…", so a text that is no id found Green; and " B0771E5-…" as the id
  /// B0771E05-….
  @Test("only a whole, well-formed id finds a tie or names one in a seed file")
  func strictIDs() throws {
    let store = try samples()
    let green = "0B0771E5-0000-4000-8000-000000000004"
    #expect(try store.tie(matching: green.lowercased()).name == "Green Bow Tie")
    let plus = "0B0771E5-0000-4000-80+0-000000000004"
    #expect(throws: BowTieError.noSuchTie(plus)) { try store.tie(matching: plus) }
    let shifted = " B0771E5-0000-4000-8000-000000000004"
    let message = refusalMessage {
      _ = try parseJSONSeed(#"[{"name": "A", "searchKey": "A", "rating": 1, "id": "\#(shifted)"}]"#)
    }
    #expect(message == "entry 0 (A): id '\(shifted)' is not a UUID")
  }
}
