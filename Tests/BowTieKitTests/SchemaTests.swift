import Foundation
import GRDB
import Testing

@testable import BowTieKit
@testable import BowTieModel

/// The schema's names, kept in one table per record, and the one place each engine says
/// how a store's schema stands.
@Suite("The schema")
struct SchemaTests {
  @Test("each record's column table names every column of its table, as the migrations made it")
  func columnTables() throws {
    let store = try makeInMemoryStore()
    func columns(_ table: String) throws -> [String] {
      try store.read { db in
        try db.fetchValues("SELECT name FROM pragma_table_info(\(table)) ORDER BY name")
      }
    }
    #expect(try columns(BowTie.Columns.table) == BowTie.Columns.stored.sorted())
    #expect(try columns(WearEvent.Columns.table) == WearEvent.Columns.all.sorted())
    #expect(try columns(UndoEntry.Columns.table) == UndoEntry.Columns.all.sorted())
    // Listings read every column but the photo's bytes.
    #expect(!BowTie.Columns.listing.text.contains(BowTie.Columns.photoData))
    #expect(
      BowTie.Columns.listing.text.split(separator: ",").count == BowTie.Columns.stored.count - 1)
  }

  @Test("a store's record of migrations against the known ones: current, older, newer")
  func states() {
    let known = ["a", "b", "c"]
    #expect(SchemaState(applied: ["a", "b", "c"], known: known) == .current)
    #expect(SchemaState(applied: ["a", "c"], known: known) == .older(missing: ["b"]))
    #expect(SchemaState(applied: [], known: known) == .older(missing: known))
    #expect(SchemaState(applied: ["z", "a", "y"], known: known) == .newer(unknown: ["y", "z"]))
    #expect(throws: BowTieError.storeFromNewerVersion(path: "p", unknownMigrations: ["y"])) {
      try SchemaState.newer(unknown: ["y"]).refuseNewer(path: "p")
    }
    #expect(throws: Never.self) { try SchemaState.older(missing: ["b"]).refuseNewer(path: "p") }
  }

  @Test("SQLite reads it from grdb_migrations and the tables: each state")
  func sqliteStates() throws {
    let known = Schema.migrator.migrations
    let queue = try DatabaseQueue()
    func state(checkingTables: Bool = false) throws -> SchemaState {
      try queue.read { try Schema.state($0, checkingTables: checkingTables) }
    }
    func foreign() throws -> String? { try queue.read(Schema.foreignDatabase) }
    #expect(try state() == .notAStore)
    #expect(try foreign() == nil, "a database without tables becomes a store")
    try queue.write { try $0.execute(sql: "CREATE TABLE other (x)") }
    #expect(try state() == .notAStore)
    #expect(try foreign() == "it is not a bowties store: a SQLite database whose tables are other")
    try Schema.migrator.migrate(queue, upTo: known[2])
    #expect(try foreign() == nil)
    #expect(try state() == .older(missing: Array(known[3...])))
    try Schema.migrator.migrate(queue)
    #expect(try state() == .current)
    #expect(try state(checkingTables: true) == .current)
    // Opening trusts a complete record; doctor looks for the tables too.
    try queue.write { try $0.execute(sql: "ALTER TABLE bowTie RENAME TO gone") }
    #expect(try state() == .current)
    #expect(try state(checkingTables: true) == .notAStore)
    #expect(try foreign() == "it is not a bowties store or it is damaged (it has no bowTie table)")
    try queue.write { try $0.execute(sql: "ALTER TABLE gone RENAME TO bowTie") }
    // A newer bowties' record is refused, with or without the tables it knows.
    try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: later')") }
    #expect(try state() == .newer(unknown: ["v99: later"]))
    try queue.write { try $0.execute(sql: "DROP TABLE bowTie") }
    #expect(try state(checkingTables: true) == .newer(unknown: ["v99: later"]))
    try queue.write {
      try $0.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v99: later'")
    }
    #expect(try state() == .current)
    #expect(try state(checkingTables: true) == .notAStore)
  }
}
