import Foundation
import GRDB
import Testing

@testable import BowTieKit
@testable import BowTieModel

/// The windows of ties `browse` reads: the app's order, the neighbours of a tie, a tie gone
/// meanwhile, and reads that go through indexes only.
@Suite("Browsing")
struct BrowsingTests {
  /// The sample ties and a few others, among them keys that only look like the rainbow's.
  func makeStore() throws -> BowTieStore {
    let store = try makeInMemoryStore()
    try store.seed(SampleData.entries())
    for (name, key) in [
      ("Zebra Bow Tie", "Z"), ("Apple Bow Tie", "A"), ("Apple Bow Tie", "A2"),
      ("Ruby Bow Tie", "RU"), ("Bronze Bow Tie", "BR"),
    ] {
      try store.add(BowTie(name: name, searchKey: key))
    }
    return store
  }

  /// Every key from the first tie to the last, one step at a time, as Right walks them.
  func walk(_ store: BowTieStore, reach: Int = 3) throws -> [String] {
    var window = try store.window(at: .first, reach: reach)
    var keys: [String] = []
    while let segment = window.segment {
      keys.append(segment.searchKey)
      #expect(window.tie?.id == segment.id)
      guard let next = window.after.first else { break }
      window = try store.window(at: .tie(next), reach: reach)
    }
    return keys
  }

  @Test("the app's order: R O Y G B I V, then the others by name, as list prints them")
  func order() throws {
    let store = try makeStore()
    let listed = try store.ties(TieFilter()).map(\.searchKey)
    #expect(Array(listed.prefix(7)) == ["R", "O", "Y", "G", "B", "I", "V"])
    #expect(try walk(store) == listed)
    #expect(try walk(store, reach: 1) == listed)
    // A key that folds to r, with R gone, is no rainbow key: it goes among the others.
    try store.remove(["R"])
    try store.add(BowTie(name: "Ŕed Bow Tie", searchKey: "Ŕ"))
    let relisted = try store.ties(TieFilter()).map(\.searchKey)
    #expect(relisted.first == "O" && relisted.contains("Ŕ"))
    #expect(try walk(store) == relisted)
  }

  @Test("a window holds the neighbours, nearest first, up to its reach on each side")
  func neighbours() throws {
    let store = try makeStore()
    let listed = try store.ties(TieFilter()).map(\.searchKey)
    for index in listed.indices {
      var window = try store.window(at: .first, reach: 2)
      for _ in 0..<index { window = try store.window(at: .tie(window.after[0]), reach: 2) }
      #expect(window.segment?.searchKey == listed[index])
      #expect(window.before.map(\.searchKey) == listed[..<index].suffix(2).reversed())
      #expect(window.after.map(\.searchKey) == Array(listed[(index + 1)...].prefix(2)))
    }
    let last = try store.window(at: .last, reach: 20)
    #expect(last.segment?.searchKey == listed.last)
    #expect(last.after.isEmpty)
    #expect(last.before.map(\.searchKey) == listed.dropLast().reversed())
  }

  @Test("a tie gone meanwhile: the window moves to the tie after its place, or before")
  func gone() throws {
    let store = try makeStore()
    var window = try store.window(at: .first, reach: 3)
    while window.segment?.searchKey != "BR" {
      window = try store.window(at: .tie(window.after[0]), reach: 3)
    }
    let bronze = try #require(window.segment)
    try store.remove(["BR"])
    #expect(try store.window(at: .tie(bronze), reach: 3).segment?.searchKey == "RU")
    let last = try #require(try store.window(at: .last, reach: 3).segment)
    try store.remove([last.searchKey])
    #expect(try store.window(at: .tie(last), reach: 3).segment?.searchKey == "RU")
    #expect(try store.window(at: .tieID(UUID()), reach: 3).segment?.searchKey == "R")
  }

  @Test("an empty store: no tie, no segments")
  func empty() throws {
    let store = try makeInMemoryStore()
    let window = try store.window(at: .first, reach: 5)
    #expect(window.tie == nil && window.before.isEmpty && window.after.isEmpty)
  }

  /// What SQLite plans for every statement a window runs, on a store with many ties.
  @Test("every read of a window goes through an index: no scan of the ties, no sort of them all")
  func indexed() throws {
    let store = try makeStore()
    let writer = try store.dbWriter
    try writer.write { db in
      try db.execute(
        sql: """
          WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4999)
          INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating)
            SELECT printf('%08X-0000-4000-8000-%012X', i, i), printf('Tie %05d', i),
              printf('tie %05d', i), 'K' || i, 'k' || i, 3 FROM n;
          ANALYZE;
          """)
    }
    let statements = StatementLog()
    try writer.write { db in
      db.trace { event in
        if case .statement(let statement) = event { statements.append(statement.sql) }
      }
    }
    var window = try store.window(at: .first, reach: 10)
    for _ in 0..<9 { window = try store.window(at: .tie(window.after[0]), reach: 10) }
    _ = try store.window(at: .last, reach: 10)
    try writer.write { db in db.trace(options: [], nil) }
    let selects = Set(statements.all.filter { $0.hasPrefix("SELECT") })
    #expect(selects.count >= 5)
    for sql in selects {
      let steps = try writer.read { db in
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: Self.sample(sql))
          .map { row -> String in row["detail"] }
      }
      for step in steps {
        #expect(
          !(step.hasPrefix("SCAN bowTie") && !step.contains("INDEX")),
          "a scan of every tie: \(step)\n\(sql)")
        #expect(step != "USE TEMP B-TREE FOR ORDER BY", "a sort of every tie\n\(sql)")
      }
    }
  }

  /// Values for a statement's placeholders, enough to plan it.
  static func sample(_ sql: String) -> StatementArguments {
    let count = sql.filter { $0 == "?" }.count
    return StatementArguments(Array(repeating: "tie 00100", count: count))
  }
}

/// The statements a connection ran, as its trace saw them.
final class StatementLog: @unchecked Sendable {
  private let lock = NSLock()
  private var statements: [String] = []

  func append(_ sql: String) { lock.withLock { statements.append(sql) } }
  var all: [String] { lock.withLock { statements } }
}
