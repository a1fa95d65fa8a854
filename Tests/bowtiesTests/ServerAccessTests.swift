import Foundation
import PostgresTestSupport
import Testing

/// Reaching a PostgreSQL store as a user sets it up: passwords from the URI, the
/// environment or `~/.pgpass`, and every refusal one line with exit 74 and no secret.
@Suite(
  "Reaching a PostgreSQL store",
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct ServerAccessTests {
  let server = PostgresTestServer.shared!

  /// One line on stderr, exit 74, the reason named, the password nowhere.
  private func expectRefused(
    _ result: BowtiesSandbox.Result, mentioning reason: String, secret: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(result.status == 74, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    #expect(
      result.stderr.split(separator: "\n").count == 1, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.contains(reason), "\(result.stderr)", sourceLocation: sourceLocation)
    #expect(!result.stderr.contains(secret), sourceLocation: sourceLocation)
  }

  @Test("a wrong password, a missing database, a role without rights: 74, the reason, no secret")
  func refusals() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    let wrong = database.uri.replacingOccurrences(of: database.password, with: "not-it-at-all")
    expectRefused(
      try bowties(["list"], store: wrong), mentioning: "password authentication failed",
      secret: "not-it-at-all")
    let missing = database.uri.replacingOccurrences(of: "/\(database.role)?", with: "/nowhere?")
    expectRefused(
      try bowties(["list", "--json"], store: missing), mentioning: "does not exist",
      secret: database.password)

    // A role that may log in to the database but owns nothing in it cannot create the
    // store there.
    let stranger = "s" + database.role.dropFirst()
    try server.superuser("CREATE ROLE \(stranger) LOGIN PASSWORD 'stranger-secret'")
    let strangerURI = database.uri.replacingOccurrences(
      of: "\(database.role):\(database.password)@", with: "\(stranger):stranger-secret@")
    expectRefused(
      try bowties(["list"], store: strangerURI),
      mentioning: "the role \(stranger) lacks the rights", secret: "stranger-secret")

    // Once the owner made the store, a role granted only reading can report, not write.
    #expect(try bowties(["wear", "R"], store: database.uri).status == 0)
    try server.psql(
      "GRANT USAGE ON SCHEMA public TO \(stranger); "
        + "GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(stranger)",
      user: database.role, password: database.password, database: database.role)
    let before = try bowties(["list", "--json"], store: database.uri).stdout
    let report = try bowties(["report", "--format", "json"], store: strangerURI)
    #expect(report.status == 0, "\(report.stderr)")
    expectRefused(
      try bowties(["wear", "R"], store: strangerURI), mentioning: "permission denied",
      secret: "stranger-secret")
    #expect(try bowties(["list", "--json"], store: database.uri).stdout == before)
  }

  @Test(
    "the password from PGPASSWORD or ~/.pgpass; a .pgpass others can read is ignored, said once")
  func passwordSources() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    let bare = database.uri.replacingOccurrences(of: ":\(database.password)@", with: "@")
    #expect(bare != database.uri)
    let fromEnvironment = try bowties(
      ["list"], store: bare, environment: ["PGPASSWORD": database.password])
    #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")

    // `BowtiesSandbox` runs with HOME set to its folder.
    let pgpass = bowties.folder.appendingPathComponent(".pgpass")
    try Data(
      "127.0.0.1:\(server.port):\(database.role):\(database.role):\(database.password)\n".utf8
    )
    .write(to: pgpass)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: pgpass.path)
    let fromFile = try bowties(["show", "R"], store: bare)
    #expect(fromFile.status == 0, "\(fromFile.stderr)")
    #expect(fromFile.stderr.isEmpty)

    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: pgpass.path)
    let loose = try bowties(["show", "R"], store: bare)
    #expect(loose.status == 74, "\(loose)")
    let lines = loose.stderr.split(separator: "\n")
    #expect(lines.count == 2, "\(loose.stderr)")
    #expect(lines.first?.contains(".pgpass") == true, "\(loose.stderr)")
    #expect(!loose.stderr.contains(database.password))
  }

  @Test("the server by host name as well as by address (the static binary resolves names too)")
  func hostName() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    let named = database.uri.replacingOccurrences(of: "@127.0.0.1:", with: "@localhost:")
    #expect(named != database.uri)
    let result = try bowties(["wear", "R"], store: named)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("@localhost:"), "\(result.stderr)")
    #expect(try bowties(["show", "R", "--json"], store: database.uri).stdout.contains("11"))
  }
}
