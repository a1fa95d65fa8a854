import Foundation
import Testing

/// `bowties` links no PostgreSQL engine: a command on a PostgreSQL store goes to
/// `bowties-postgresql`, beside it or in `../libexec/bowties`. Alone, `bowties` still runs
/// every command on a SQLite store, and says what a server's store needs.
@Suite("bowties hands PostgreSQL stores to bowties-postgresql")
struct PostgreSQLProgramTests {
  /// Nothing listens on port 1 of the loopback address: only a program with the engine
  /// gets as far as trying to connect.
  let refused = "postgresql://u:hunter2@127.0.0.1:1/d?connect_timeout=2"
  let refusal =
    "bowties: cannot use the store postgresql://u:****@127.0.0.1:1/d?connect_timeout=2: "
    + "cannot connect to 127.0.0.1 port 1: connection refused\n"

  @Test("--store URI, --store=URI and BOWTIES_STORE each reach bowties-postgresql")
  func handsOver() throws {
    let bowties = BowtiesSandbox()
    let lines: [([String], [String: String])] = [
      (["show", "R", "--store", refused], [:]),
      (["wear", "R", "--store=\(refused)"], [:]),
      (["list", "--json"], ["BOWTIES_STORE": refused]),
    ]
    for (arguments, environment) in lines {
      let result = try bowties.run(BowtiesSandbox.binary.path, arguments, environment: environment)
      #expect(result.status == 74, "\(arguments)")
      #expect(result.stderr == refusal, "\(arguments)")
      #expect(result.stdout.isEmpty)
    }
  }

  /// A warning from reading the connection settings (here, a password file others may
  /// read) goes out as every message does, and a closed stderr does not stop the command.
  @Test("a settings warning is one line on stderr, and a closed stderr ends nothing")
  func settingsWarning() throws {
    let bowties = BowtiesSandbox()
    let passwords = bowties.folder.appendingPathComponent(".pgpass")
    try Data("*:*:*:*:secret\n".utf8).write(to: passwords)
    chmod(passwords.path, 0o644)
    let store = "postgresql://u@127.0.0.1:1/d?connect_timeout=2"
    let result = try bowties.run(BowtiesSandbox.binary.path, ["show", "R", "--store", store])
    #expect(result.status == 74)
    #expect(
      result.stderr
        == "bowties: warning: the password file \(passwords.path) is ignored: others may read "
        + "it; make it private with chmod 600 \(passwords.path)\n"
        + "bowties: cannot use the store \(store): cannot connect to 127.0.0.1 port 1: "
        + "connection refused\n")
    let closed = try bowties.run(
      "/bin/sh",
      ["-c", "exec \"$0\" show R --store \"$1\" 2>&-", BowtiesSandbox.binary.path, store])
    #expect(closed.status == 74)
    #expect(closed.stdout.isEmpty)
  }

  @Test("installed as make install lays it out: bin/bowties, libexec/bowties/bowties-postgresql")
  func installedLayout() throws {
    let bowties = BowtiesSandbox()
    let program = try bowties.placeCopy(at: "bin/bowties")
    try FileManager.default.createDirectory(
      at: bowties.folder.appendingPathComponent("libexec/bowties"),
      withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: bowties.folder.appendingPathComponent("libexec/bowties/bowties-postgresql"),
      withDestinationURL: BowtiesSandbox.binary.deletingLastPathComponent()
        .appendingPathComponent("bowties-postgresql"))
    let result = try bowties.run(program.path, ["show", "R", "--store", refused])
    #expect(result.status == 74)
    #expect(result.stderr == refusal)
  }

  @Test("a lone bowties runs SQLite stores, and says what a server's store needs")
  func alone() throws {
    let bowties = BowtiesSandbox()
    let program = try bowties.placeCopy(at: "bin/bowties")
    let shown = try bowties("show", "R", executable: program)
    #expect(shown.status == 0)
    #expect(shown.stdout.hasPrefix("Red Bow Tie\n"))
    // A file named on the command line wins over a URI in the environment.
    let file = try bowties(
      "favorite", "R", environment: ["BOWTIES_STORE": refused], executable: program)
    #expect(file.status == 0)
    let server = try bowties.run(program.path, ["show", "R", "--store", refused])
    let folder = bowties.folder.resolvingSymlinksInPath().path
    #expect(server.status == 74)
    #expect(
      server.stderr
        == "bowties: cannot use the store on the PostgreSQL server: bowties reaches "
        + "PostgreSQL stores through bowties-postgresql, which is not installed (looked for "
        + "\(folder)/bin/bowties-postgresql or \(folder)/libexec/bowties/bowties-postgresql)\n")
    #expect(server.stdout.isEmpty)
  }
}
