import Foundation
import Testing

@testable import BowTieKit

/// The schema's names, kept in one table per record.
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
}
