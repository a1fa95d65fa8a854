import Foundation
import PostgresTestSupport
import Testing

@testable import BowTieKit
@testable import BowTieModel
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

/// A PostgreSQL store's tables have the columns the records' tables name, and its
/// `bowties_migrations` says how its schema stands.
@Suite(
  "PostgreSQL schema",
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct PostgresSchemaTests {
  let server = PostgresTestServer.shared!

  @Test("each record's column table names every column of its table, as the migrations made it")
  func columnTables() throws {
    ColorAttributeTransformer.register()
    let database = try server.makeDatabase()
    let (store, _) = try PostgresEngine.open(uri: database.uri, environment: [:])
    defer { try? store.closeDatabase() }
    func columns(_ table: String) throws -> [String] {
      try store.read { db in
        try db.fetchValues(
          """
          SELECT column_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = \(table.lowercased())
          ORDER BY column_name
          """)
      }
    }
    // Unquoted, the names fold to lower case on the server; the queries name them so.
    func lowercased(_ names: [String]) -> [String] { names.map { $0.lowercased() }.sorted() }
    #expect(try columns(BowTie.Columns.table) == lowercased(BowTie.Columns.stored))
    #expect(try columns(WearEvent.Columns.table) == lowercased(WearEvent.Columns.all))
    #expect(try columns(UndoEntry.Columns.table) == lowercased(UndoEntry.Columns.all))
  }

  @Test("the state of a store's bowties_migrations: none, older, current, newer")
  func states() {
    let names = PostgresSchema.migrations.map(\.name)
    #expect(PostgresSchema.state(applied: nil) == .notAStore)
    #expect(PostgresSchema.state(applied: []) == .older(missing: names))
    #expect(PostgresSchema.state(applied: Array(names.reversed())) == .current)
    #expect(
      PostgresSchema.state(applied: names + ["p9: later"]) == .newer(unknown: ["p9: later"]))
  }
}

@Suite(
  "PostgreSQL prices and currencies",
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct PostgresCurrencyTests {
  let server = PostgresTestServer.shared!

  @Test("an older store's prices become US dollars; the database keeps price and currency together")
  func migration() throws {
    let database = try SampleDatabase(on: server)
    let psql = database.psql
    // The store as bowties left it before prices had a currency, with a price.
    _ = try psql(
      OlderStores.beforePriceCurrency + "\nUPDATE bowTie SET price = '19.99' WHERE searchKey = 'R';"
    )
    let opened = try PostgresEngine.open(uri: database.uri, environment: [:])
    let red = try opened.store.tie(matching: "R")
    #expect(red.price == Decimal(string: "19.99") && red.currency == "USD")
    #expect(try opened.store.tie(matching: "O").currency == nil)
    try opened.store.closeDatabase()
    for sql in [
      "UPDATE bowTie SET currency = NULL WHERE searchKey = 'R'",
      "UPDATE bowTie SET currency = 'usd' WHERE searchKey = 'R'",
      "UPDATE bowTie SET currency = 'USDX' WHERE searchKey = 'R'",
      "UPDATE bowTie SET currency = 'EUR' WHERE searchKey = 'O'",
    ] {
      #expect(throws: (any Error).self, "\(sql)") { try psql(sql) }
    }
    #expect(
      try psql("SELECT price || ' ' || currency FROM bowTie WHERE searchKey = 'R'") == "19.99 USD\n"
    )
  }
}
