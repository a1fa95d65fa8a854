import Foundation
import GRDB
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import PropertyLists

@Suite("Wear history and undo")
struct HistoryTests {
  private let day: TimeInterval = 86_400
  private let start = Date(timeIntervalSince1970: 1_795_248_000)  // 2026-11-21T08:00:00Z

  private func seededStore() throws -> (TemporaryFolder, BowTieStore) {
    let folder = TemporaryFolder()
    let store = try folder.openStore()
    try store.seed(SampleData.entries())
    return (folder, store)
  }

  /// timesWorn == wearsBeforeHistory + events, for every tie, read with plain SQL.
  private func countsAgree(_ folder: TemporaryFolder) throws -> Bool {
    try DatabaseQueue(path: folder.storeURL.path).read { db in
      try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM bowTie
          WHERE timesWorn != wearsBeforeHistory
            + (SELECT count(*) FROM wearEvent WHERE tieId = bowTie.id)
          """) == 0
    }
  }

  @Test("each wear is an event; timesWorn is the seed's count plus the events")
  func wearsAreEvents() throws {
    let (folder, store) = try seededStore()
    for offset in 0..<5 { try store.wear("R", on: start.addingTimeInterval(Double(offset) * day)) }
    #expect(try store.tie(matching: "R").timesWorn == 15)
    let history = try store.history(of: "r")
    #expect(history.count == 6)
    #expect(
      history.prefix(5).map(\.event.wornAt)
        == (0..<5).reversed().map { start.addingTimeInterval(Double($0) * day) })
    #expect(history.last?.event.wornAt == ISO8601.parse("2026-10-14T19:30:00Z"))
    #expect(try countsAgree(folder))
  }

  @Test("history filters by tie and by [since, until)")
  func historyFilters() throws {
    let (_, store) = try seededStore()
    try store.wear("R", on: start)
    try store.wear("B", on: start.addingTimeInterval(day))
    try store.wear("R", on: start.addingTimeInterval(2 * day))
    // Newest first: the three wears, then the seeded ties' last wears.
    #expect(try store.history().map(\.searchKey) == ["R", "B", "R", "B", "G", "R", "O", "Y", "V"])
    #expect(try store.history(of: "B").count == 2)
    let middle = try store.history(
      since: start.addingTimeInterval(day), until: start.addingTimeInterval(2 * day))
    #expect(middle.map(\.searchKey) == ["B"])
  }

  @Test("a wear dated before the last one does not move lastWorn back")
  func backfill() throws {
    let (_, store) = try seededStore()
    try store.wear("R", on: start)
    let earlier = try store.wear("R", on: start.addingTimeInterval(-30 * day))
    #expect(earlier.lastWorn == start && earlier.timesWorn == 12)
  }

  @Test("undo walks back through wear, rate and favorite, then says there is nothing left")
  func undoWalksBack() throws {
    let (folder, store) = try seededStore()
    let before = try store.tie(matching: "I")
    try store.wear("I", on: start)
    try store.rate("I", rating: 5)
    try store.favorite("I", .toggle)
    #expect(try store.undo()?.change == .favorite(previous: false, new: true))
    #expect(try store.undo()?.change == .rate(previous: 3, new: 5))
    let wear = try #require(try store.undo())
    guard case .wear(_, start, nil) = wear.change else {
      Issue.record("expected the wear, got \(wear.change)")
      return
    }
    #expect(wear.tie?.timesWorn == 0 && wear.tie?.lastWorn == nil)
    #expect(try store.undo() == nil)
    let after = try store.tie(matching: "I")
    #expect(after == before)
    #expect(try store.history(of: "I").isEmpty)
    #expect(try countsAgree(folder))
  }

  @Test(
    "undo takes back the user's own newest change, and refuses when another user changed the tie since"
  )
  func undoIsPerUser() throws {
    let (folder, shared) = try seededStore()
    var ann = shared
    ann.user = "ann@laptop"
    var bob = shared
    bob.user = "bob@desktop"
    try ann.rate("I", rating: 5)
    try bob.rate("O", rating: 1)
    try ann.wear("O", on: start)
    // Bob's newest change is his own rating of O, which Ann wore since.
    #expect(
      throws: BowTieError.changedByOtherUser(
        tie: "Orange Bow Tie", change: "rate", user: "ann@laptop")
    ) {
      try bob.undo()
    }
    #expect(try shared.tie(matching: "O").rating == 1)
    // Ann's newest is her wear of O; then her rating of I, past Bob's change of another tie.
    guard case .wear? = try ann.undo()?.change else {
      Issue.record("expected Ann's wear")
      return
    }
    #expect(try ann.undo()?.change == .rate(previous: 3, new: 5))
    #expect(try ann.undo() == nil)
    // With Ann's wear taken back, Bob's rating is his to undo.
    #expect(try bob.undo()?.change == .rate(previous: 3.5, new: 1))
    #expect(try countsAgree(folder))
  }

  @Test("a seeded tie's last wear is recorded; the rest of timesWorn came before the history")
  func seededLastWear() throws {
    let (folder, store) = try seededStore()
    let samples = try SampleData.entries().map(\.tie)
    let history = try store.history()
    #expect(history.count == samples.filter { $0.lastWorn != nil }.count)
    for sample in samples {
      let tie = try store.tie(matching: sample.searchKey)
      #expect(tie.timesWorn == sample.timesWorn, "\(sample.name)")
      let wears = history.filter { $0.event.tieID == sample.id }.map(\.event.wornAt)
      #expect(wears == (sample.lastWorn.map { [$0] } ?? []), "\(sample.name)")
      #expect(tie.wearsBeforeHistory == max(0, sample.timesWorn - Int32(wears.count)))
    }
    #expect(try countsAgree(folder))

    // Seeding it again with --replace records nothing twice; a new lastWorn is a new wear.
    var entries = try SampleData.entries()
    try store.seed(entries, replacing: true)
    #expect(try store.history().count == history.count)
    entries[0].tie.lastWorn = start
    entries[0].tie.timesWorn = 12
    try store.seed([entries[0]], replacing: true)
    #expect(try store.history(of: "R").map(\.event.wornAt) == [start, samples[0].lastWorn!])
    #expect(try store.tie(matching: "R").timesWorn == 12)
    // A count that leaves no wear beyond those recorded records none.
    entries[0].tie.lastWorn = start.addingTimeInterval(day)
    entries[0].tie.timesWorn = 2
    try store.seed([entries[0]], replacing: true)
    #expect(try store.history(of: "R").count == 2)
    #expect(try store.tie(matching: "R").timesWorn == 2)
    #expect(try countsAgree(folder))
  }

  @Test("an older store's seeded last wears become events, timesWorn as it was")
  func upgradeRecordsSeededWears() throws {
    let folder = TemporaryFolder()
    ColorAttributeTransformer.register()
    let queue = try DatabaseQueue(path: folder.storeURL.path)
    try Schema.migrator.migrate(queue, upTo: "v3: prices, photos kept for undo")
    try queue.write { db in
      // R: seeded 10 wears, last one recorded since by `wear`; O: seeded 4, last on
      // Sep 2; I: never worn; W: worn, but without a wear left from before the history.
      try db.execute(
        sql: """
          INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating,
            timesWorn, wearsBeforeHistory, lastWorn) VALUES
          ('0B0771E5-0000-4000-8000-000000000001', 'Red', 'red', 'R', 'r', 4, 10, 10,
            '2026-11-20T09:00:00.000Z'),
          ('0B0771E5-0000-4000-8000-000000000002', 'Orange', 'orange', 'O', 'o', 3, 4, 4,
            '2026-09-02T08:15:00.000Z'),
          ('0B0771E5-0000-4000-8000-000000000006', 'Indigo', 'indigo', 'I', 'i', 3, 0, 0, NULL),
          ('0B0771E5-0000-4000-8000-000000000009', 'White', 'white', 'W', 'w', 3, 0, 0,
            '2026-08-01T10:00:00.000Z');
          INSERT INTO wearEvent (tieId, wornAt) VALUES
            ('0B0771E5-0000-4000-8000-000000000001', '2026-11-20T09:00:00.000Z'),
            ('0B0771E5-0000-4000-8000-000000000009', '2026-08-01T10:00:00.000Z');
          """)
    }
    try queue.close()
    let store = try folder.openStore()
    #expect(try store.history().map(\.searchKey) == ["R", "O", "W"])
    #expect(
      try store.history(of: "O").map(\.event.wornAt) == [ISO8601.parse("2026-09-02T08:15:00Z")])
    for (key, worn, before) in [("R", 11, 10), ("O", 4, 3), ("I", 0, 0), ("W", 1, 0)] {
      let tie = try store.tie(matching: key)
      #expect(tie.timesWorn == worn && tie.wearsBeforeHistory == Int32(before), "\(key)")
    }
    #expect(try countsAgree(folder))
  }

  @Test("the undo log survives reopening and keeps the last 100 changes")
  func undoLogIsBounded() throws {
    let (folder, store) = try seededStore()
    for index in 0..<(UndoEntry.capacity + 5) {
      try store.rate("R", rating: Double(index % 5))
    }
    let reopened = try folder.openStore()
    var undone = 0
    while try reopened.undo() != nil { undone += 1 }
    #expect(undone == UndoEntry.capacity)
    // The oldest five changes were forgotten: the rating is what the fifth change set.
    #expect(try reopened.tie(matching: "R").rating == 4)
  }

  @Test("an undo that would leave an invalid tie changes nothing and stays in the log")
  func undoValidates() throws {
    let (folder, store) = try seededStore()
    let tie = try store.tie(matching: "R")
    try store.write { connection, _ in
      var entry = UndoEntry(
        madeAt: start, madeBy: UndoUser.current, tieID: tie.id, change: .rate(previous: 9, new: 4))
      try entry.append(to: connection)
    }
    #expect(throws: BowTieError.self) { try store.undo() }
    #expect(try store.tie(matching: "R").rating == 4)
    let entries = try DatabaseQueue(path: folder.storeURL.path).read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM undoEntry")
    }
    #expect(entries == 1)
  }

  @Test("a replacing seed may not set timesWorn below the recorded wears")
  func replaceKeepsCountsHonest() throws {
    let (folder, store) = try seededStore()
    try store.wear("I", on: start)
    try store.wear("I", on: start)
    var entries = try SampleData.entries()
    #expect(entries[5].tie.searchKey == "I" && entries[5].tie.timesWorn == 0)
    #expect(throws: BowTieError.self) { try store.seed([entries[5]], replacing: true) }
    entries[5].tie.timesWorn = 5
    try store.seed([entries[5]], replacing: true)
    #expect(try store.tie(matching: "I").timesWorn == 5)
    try store.wear("I", on: start)
    #expect(try store.tie(matching: "I").timesWorn == 6)
    #expect(try countsAgree(folder))
  }

  @Test("a store from before the history upgrades with its counts as the baseline")
  func upgradeFromVersion1() throws {
    let folder = TemporaryFolder()
    ColorAttributeTransformer.register()
    let queue = try DatabaseQueue(path: folder.storeURL.path)
    try Schema.migrator.migrate(queue, upTo: "v1: bow ties")
    try queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating, timesWorn)
          VALUES ('0B0771E5-0000-4000-8000-000000000001', 'Red Bow Tie', 'red bow tie', 'R', 'r', 4, 10)
          """)
    }
    try queue.close()
    let store = try folder.openStore()
    try store.wear("R", on: start)
    #expect(try store.tie(matching: "R").timesWorn == 11)
    #expect(try countsAgree(folder))
  }
}

@Suite("Dates on the command line")
struct DateArgumentTests {
  private var calendar: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
    return calendar
  }

  // 2026-11-21T15:30:00Z, 16:30 in Paris.
  private let now = Date(timeIntervalSince1970: 1_795_275_000)

  private func parse(_ text: String) -> DateArgument? {
    try? DateArgument.parse(text, now: now, calendar: calendar)
  }

  private func parisMidnight(_ year: Int, _ month: Int, _ day: Int) -> Date {
    calendar.date(from: DateComponents(year: year, month: month, day: day))!
  }

  @Test("relative forms")
  func relative() {
    #expect(parse("now") == DateArgument(date: now, isWholeDay: false))
    #expect(parse("today") == DateArgument(date: parisMidnight(2026, 11, 21), isWholeDay: true))
    #expect(parse("Yesterday") == DateArgument(date: parisMidnight(2026, 11, 20), isWholeDay: true))
    #expect(parse("-30d")?.date == parisMidnight(2026, 10, 22))
    #expect(parse("-2w")?.date == parisMidnight(2026, 11, 7))
    #expect(parse("-3m")?.date == parisMidnight(2026, 8, 21))
    #expect(parse("-1y")?.date == parisMidnight(2025, 11, 21))
    #expect(parse("-12h") == DateArgument(date: now.addingTimeInterval(-43_200), isWholeDay: false))
    // Back to the year 1, and no further: nothing stores or prints an earlier date.
    #expect(parse("-2025y")?.date == parisMidnight(1, 11, 21))
    #expect(parse("-2026y") == nil)
    #expect(parse("0000-12-31") == nil)
  }

  @Test("ISO 8601: a day is whole, a time is an instant")
  func iso() {
    #expect(
      parse("2026-11-21T08:00:00Z")
        == DateArgument(date: Date(timeIntervalSince1970: 1_795_248_000), isWholeDay: false))
    let day = parse("2026-11-21")
    #expect(day?.isWholeDay == true)
    #expect(day?.end(in: calendar).timeIntervalSince(day?.date ?? now) == 86_400)
  }

  @Test(
    "refusals",
    arguments: ["", "last week", "-d", "30d", "-30x", "+3d", "-1.5d", "2026/11/21", "-999999d"])
  func refusals(text: String) {
    #expect(parse(text) == nil)
  }
}
