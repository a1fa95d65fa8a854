import Foundation
import PostgresTestSupport
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import BowTiePostgres

/// PostgreSQL's p4: ids are text there too, so a tie `psql` added with a lower-case id
/// named no row once bowties wrote it back; the upgrade writes them in upper case, and the
/// store refuses another.
@Suite(
  "PostgreSQL tie ids in upper case",
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct PostgresIDMigrationTests {
  let server = PostgresTestServer.shared!

  @Test("a tie psql added with a lower-case id works after the upgrade; no new one gets in")
  func lowerCaseIDs() throws {
    let database = try SampleDatabase(on: server)
    let psql = database.psql
    // The store as bowties left it before p4, then a tie, its wear and an undo entry that
    // psql added in lower case (gen_random_uuid prints so).
    let id = "b8f193d2-51e9-42c5-99ff-18666df66589"
    _ = try psql(
      """
      ALTER TABLE bowTie DROP CONSTRAINT bowTie_idInUpperCase;
      ALTER TABLE wearEvent DROP CONSTRAINT wearEvent_tieIdInUpperCase;
      DELETE FROM bowties_migrations WHERE name = 'p4: tie ids in upper case';
      INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating)
        VALUES ('\(id)', 'Paisley', 'paisley', 'P', 'p', 3);
      INSERT INTO wearEvent (tieId, wornAt) VALUES ('\(id)', '2026-11-01T10:00:00.000Z');
      INSERT INTO undoEntry (madeAt, tieId, change)
        VALUES ('2026-11-01T10:00:00.000Z', '\(id)', 'x');
      """)
    let opened = try PostgresEngine.open(uri: database.uri, environment: [:])
    defer { try? opened.store.closeDatabase() }
    _ = try opened.store.wear("P")
    _ = try opened.store.rate("P", rating: 5)
    let upper = id.uppercased()
    #expect(
      try psql("SELECT id, rating, timesWorn FROM bowTie WHERE searchKey = 'P'")
        == "\(upper)|5|2\n")
    #expect(try psql("SELECT count(*) FROM wearEvent WHERE tieId = '\(upper)'") == "2\n")
    #expect(try psql("SELECT count(*) FROM undoEntry WHERE tieId = '\(id)'") == "0\n")
    _ = try opened.store.remove(["P"])
    #expect(try psql("SELECT count(*) FROM bowTie WHERE searchKey = 'P'") == "0\n")
    for sql in [
      """
      INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating)
        VALUES ('\(id)', 'Paisley', 'paisley', 'P', 'p', 3)
      """,
      "UPDATE bowTie SET id = 'tie-7' WHERE searchKey = 'V'",
      """
      INSERT INTO wearEvent (tieId, wornAt)
        SELECT lower(id), '2026-11-02T10:00:00.000Z' FROM bowTie WHERE searchKey = 'V'
      """,
    ] {
      #expect(throws: (any Error).self) { try psql(sql) }
    }
  }
}
