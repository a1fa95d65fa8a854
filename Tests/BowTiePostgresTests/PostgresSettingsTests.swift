import BowTieKit
import BowTieModel
import Foundation
import Testing

@testable import BowTiePostgres

/// Connection URIs, variables and the password file, read as libpq reads them.
@Suite("PostgreSQL settings")
struct PostgresSettingsTests {
  private let home = Home()

  private func read(_ uri: String, _ environment: [String: String] = [:]) throws
    -> PostgresSettings
  {
    try PostgresSettings.read(uri, environment: ["HOME": home.url.path].merging(environment) { $1 })
  }

  @Test("a full URI: user, password, host, port, database and parameters, percent-decoded")
  func fullURI() throws {
    let settings = try read(
      "postgresql://tie%20man:p%40ss%3Aword@db.example:5433/ward%2Frobe?sslmode=verify-full"
        + "&sslrootcert=/etc/ca.pem&connect_timeout=3&application_name=cron")
    #expect(settings.endpoint == .tcp(host: "db.example", port: 5433))
    #expect(settings.user == "tie man" && settings.password == "p@ss:word")
    #expect(settings.database == "ward/robe" && settings.tlsMode == .verifyFull)
    #expect(settings.rootCertificates == "/etc/ca.pem" && settings.connectTimeout == 3)
    #expect(settings.applicationName == "cron")
    #expect(!settings.displayName.contains("p%40ss") && settings.displayName.contains(":****@"))
  }

  @Test("what the URI leaves out comes from PG variables, then libpq's defaults")
  func variablesAndDefaults() throws {
    let bare = try read("postgres://", ["USER": "alice"])
    // Without USER, the account the process runs as, as psql does: what `id -un` says.
    let id = Process()
    id.executableURL = URL(fileURLWithPath: "/usr/bin/id")
    id.arguments = ["-un"]
    let pipe = Pipe()
    id.standardOutput = pipe
    try id.run()
    let account = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    id.waitUntilExit()
    #expect(try read("postgres://", [:]).user + "\n" == account)
    #expect(bare.endpoint == .unixSocket(folder: "/var/run/postgresql", port: 5432))
    #expect(bare.endpoint.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
    #expect(bare.user == "alice" && bare.database == "alice" && bare.password == nil)
    #expect(bare.tlsMode == .prefer && bare.connectTimeout == 10)
    let filled = try read(
      "postgresql://",
      [
        "PGHOST": "10.0.0.5", "PGPORT": "6543", "PGUSER": "bob", "PGPASSWORD": "secret",
        "PGDATABASE": "ties", "PGSSLMODE": "require", "PGCONNECT_TIMEOUT": "1",
        "PGAPPNAME": "app",
      ])
    #expect(filled.endpoint == .tcp(host: "10.0.0.5", port: 6543))
    #expect(filled.user == "bob" && filled.password == "secret" && filled.database == "ties")
    #expect(
      filled.tlsMode == .require && filled.connectTimeout == 2 && filled.applicationName == "app")
    // The URI wins over the variables; a parameter over the URI's own parts.
    let both = try read("postgresql://carol@h/d?host=/tmp&port=7", ["PGHOST": "x", "PGUSER": "y"])
    #expect(both.endpoint == .unixSocket(folder: "/tmp", port: 7) && both.user == "carol")
    #expect(try read("postgresql://u@[::1]:5433/d").endpoint == .tcp(host: "::1", port: 5433))
  }

  @Test("malformed URIs are usage errors that never show the password")
  func refusals() {
    for uri in [
      "postgresql://u:hunter2@h:99999/d", "postgresql://u:hunter2@h:0/d",
      "postgresql://u:hunter2@h/d?sslmode=maybe", "postgresql://u:hunter2@h/d?colour=red",
      "postgresql://u:hunter2@h1,h2/d", "postgresql://u:hunter2@h/d?connect_timeout=-1",
      "postgresql://u@h/d?password=hunter2&sslmode=maybe", "postgresql://u:hunter2@h:x/d",
      // A broken escape, which Foundation decodes as nothing, in each part.
      "postgresql://%zz:hunter2@h/d", "postgresql://u:hunter2%z@h/d",
      "postgresql://u:hunter2@h/d%", "postgresql://u:hunter2@h/d?sslmode=%zz",
      "postgresql://u:hunter2@h/d?%zz=1", "postgresql://u%FF:hunter2@h/d",
    ] {
      #expect {
        try read(uri)
      } throws: { error in
        guard case .usage(let message) = error as? BowTieError else { return false }
        // The part named, when it is an escape that is broken.
        let escape =
          uri.contains("%")
          == (message.contains("a '%' that two hexadecimal digits")
            || message.contains("do not decode to UTF-8"))
        return !message.contains("hunter2") && message.contains("****") && escape
      }
    }
    #expect(
      PostgresSettings.maskingPassword(in: "postgres://a:b:c@d@h/x?password=p&x=1")
        == "postgres://a:****@h/x?password=****&x=1")
    #expect(
      PostgresSettings.maskingPassword(in: "/home/me/BowTies.sqlite") == "/home/me/BowTies.sqlite")
  }

  @Test("the password file: matching lines, wildcards, escapes, and a file others can read")
  func passwordFile() throws {
    let file = home.url.appendingPathComponent(".pgpass")
    try Data(
      """
      # comment
      other:5432:ties:bob:wrong
      db.example:*:ties:bob:right\\:one
      *:*:*:*:fallback
      """.utf8
    ).write(to: file)
    chmod(file.path, 0o600)
    #expect(try read("postgresql://bob@db.example/ties").password == "right:one")
    #expect(try read("postgresql://eve@elsewhere/x").password == "fallback")
    #expect(try read("postgresql://bob:given@db.example/ties").password == "given")
    chmod(file.path, 0o644)
    let loose = try read("postgresql://bob@db.example/ties")
    #expect(loose.password == nil)
    #expect(
      loose.warnings == [
        "the password file \(file.path) is ignored: others may read it; make it private with chmod 600 \(file.path)"
      ])
    let elsewhere = home.url.appendingPathComponent("pw")
    try Data("*:*:*:*:from-pgpassfile".utf8).write(to: elsewhere)
    chmod(elsewhere.path, 0o600)
    #expect(
      try read("postgresql://bob@h/d", ["PGPASSFILE": elsewhere.path]).password == "from-pgpassfile"
    )
  }
}

/// A HOME folder of its own, removed with the value.
private final class Home: Sendable {
  let url = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("bowties-home-\(UUID().uuidString)", isDirectory: true)

  init() { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
  deinit { try? FileManager.default.removeItem(at: url) }
}
