import Foundation
import PostgresTestSupport

@testable import BowTieKit
@testable import BowTieModel
@testable import BowTiePostgres

/// A database of its own on the test server holding a store of the sample ties (closed),
/// and `psql` on it as its owner: where the migration tests start, each then making the
/// store as an older bowties left it.
struct SampleDatabase {
  let uri: String
  let psql: (String) throws -> String

  init(on server: PostgresTestServer) throws {
    ColorAttributeTransformer.register()
    let database = try server.makeDatabase()
    uri = database.uri
    psql = { sql in
      try server.psql(
        sql, user: database.role, password: database.password, database: database.role)
    }
    let first = try PostgresEngine.open(uri: database.uri, environment: [:]) {
      try $0.seed(SampleData.entries(photos: false))
    }
    try first.store.closeDatabase()
  }
}
