import Foundation
import Testing

@testable import BowTieKit

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
    let ties = try store.allTies()
    let picks = Suggester.suggestions(for: ties, asOf: asOf, calendar: utc, count: 7)
    // I: (365+1)×4 = 1464; V: (332+1)×2.5 = 832.5; R: (38+1)×5×1.5 = 292.5;
    // Y: (153+1)×3 = 462; O: (80+1)×4.5 = 364.5; G: (20+1)×5.5×1.5 = 173.25; B excluded.
    #expect(picks.map(\.tie.searchKey) == ["I", "V", "Y", "O", "R", "G"])
    #expect(picks.map(\.score) == [1464, 832.5, 462, 364.5, 292.5, 173.25])
    #expect(picks[0].reason == "never worn, rated 3/5")
    #expect(picks[4].reason == "not worn for 38 days, rated 4/5, a favorite")
    #expect(Suggester.suggestions(for: ties, asOf: asOf, calendar: utc) == [picks[0]])
    // Wearing the top pick moves it out of the way.
    try store.wear("I", on: asOf)
    let next = Suggester.suggestions(for: try store.allTies(), asOf: asOf, calendar: utc)
    #expect(next.first?.tie.searchKey == "V")
    #expect(Suggester.suggestions(for: [], asOf: asOf, calendar: utc).isEmpty)
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
    #expect(report.mostWorn.map(\.searchKey) == ["B"])
    #expect(report.leastWorn.map(\.searchKey) == ["I", "V"])
    #expect(report.neverWorn.isEmpty)
    #expect(report.notWornRecently.map(\.searchKey) == ["V", "Y", "O", "I"])
    #expect(report.notWornRecently.map(\.daysSinceWorn) == [332, 153, 80, 49])
    #expect(
      report.wearsPerMonth == [
        .init(month: "2026-09", wears: 0), .init(month: "2026-10", wears: 1),
        .init(month: "2026-11", wears: 2),
      ])
    #expect(report.ratingDistribution.map(\.ties) == [0, 1, 1, 2, 2, 1])
    #expect(report.ties.count == 7)
    #expect(report.suggestion?.tie.searchKey == "V")
    let again = try ReportBuilder(asOf: asOf, staleDays: 30, months: 3, calendar: utc).build(
      from: store)
    #expect(again == report)
  }

  @Test("an empty store makes an empty report")
  func emptyReport() throws {
    let report = try ReportBuilder(asOf: asOf, calendar: utc).build(from: try makeInMemoryStore())
    #expect(report.tieCount == 0 && report.averageRating == nil && report.suggestion == nil)
    #expect(report.wearsPerMonth.count == 12 && report.wearsPerMonth.allSatisfy { $0.wears == 0 })
  }
}
