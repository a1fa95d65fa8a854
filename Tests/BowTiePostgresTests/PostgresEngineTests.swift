import Foundation
import PostgresTestSupport
import Testing

@testable import BowTieKit
@testable import BowTiePostgres

/// Opening a store: made on first use, opened as it is when its schema is current, refused
/// when a newer bowties migrated it.
@Suite(
  "PostgreSQL stores opening",
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct PostgresEngineTests {
  let server = PostgresTestServer.shared!

  @Test("a new database gets a store; a current store opens as it is; a newer one is refused")
  func opening() throws {
    ColorAttributeTransformer.register()
    let database = try server.makeDatabase()
    let first = try PostgresEngine.open(uri: database.uri, environment: [:]) {
      try $0.seed(SampleData.entries(photos: false))
    }
    #expect(first.created)
    #expect(try first.store.count() == 7)
    try first.store.closeDatabase()

    let second = try PostgresEngine.open(uri: database.uri, environment: [:]) { _ in
      Issue.record("a current store was populated again")
    }
    #expect(!second.created)
    #expect(try second.store.count() == 7)
    try second.store.closeDatabase()

    try server.psql(
      "INSERT INTO bowties_migrations (name) VALUES ('p9: from tomorrow')", user: database.role,
      password: database.password, database: database.role)
    do {
      let opened = try PostgresEngine.open(uri: database.uri, environment: [:])
      try? opened.store.closeDatabase()
      Issue.record("a store a newer bowties migrated was opened")
    } catch {
      guard case .storeFromNewerVersion(_, let unknown) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(unknown == ["p9: from tomorrow"])
    }
  }
}
