import ArgumentParser
import BowTieKit
import BowTieModel
import BowTiePostgres
import Foundation
import Testing

@testable import BowtiesCLI

/// The one reading of argv before ArgumentParser: the store it finds to hand a command over
/// to `bowties-postgresql` is the one the command then opens.
@Suite("Reading the command line before parsing it")
struct InvocationTests {
  let server = "postgresql://u@127.0.0.1:1/d"

  /// As `bowties` does before it reads the line: PostgreSQL URIs are claimed, by an address
  /// that cannot open them (the hand-over's cue). Once in this process.
  private static let claimingServers: Void = PostgreSQLProgram.registerMissing()

  /// The same address: the same engine and place.
  private func same(_ found: (any StoreAddress)?, _ expected: any StoreAddress) -> Bool {
    found.map { String(reflecting: $0) } == String(reflecting: expected)
  }

  @Test("bowties hands over to bowties-postgresql exactly the stores its engine takes")
  func handOverRuleIsTheEngines() {
    // The rule is written twice, since `bowties` does not link the engine: here they meet.
    let stores = [
      "postgresql://host/db", "postgres://host/db", "POSTGRESQL://HOST/DB", "Postgres://h",
      "postgresql://", "postgres:/host/db", "postgresql:host", "postgresq://host",
      "postgresqlx://host", " postgresql://host", "./postgresql://host", "file.sqlite", "",
      "/tmp/postgres://x", "postgres", "mysql://host/db",
    ]
    for store in stores {
      #expect(PostgreSQLProgram.takes(store) == PostgresSettings.isURI(store), "\(store)")
    }
    #expect(stores.filter(PostgreSQLProgram.takes).count == 5)
  }

  @Test("the store found before parsing is the store the parsed command opens")
  func sameStoreAsTheCommand() throws {
    let lines: [[String]] = [
      ["show", "R"],
      ["show", "R", "--store", "a.sqlite"],
      ["show", "R", "--store=a.sqlite"],
      ["show", "R", "--store", server],
      ["wear", "--store=\(server)", "R"],
      ["list", "--store", server, "--store", "b.sqlite"],
      ["list", "--store", "b.sqlite", "--store=\(server)"],
      ["show", "--json", "--store", "/x/../a.sqlite", "R"],
      ["show", "--", "--store"],
      ["list", "--store", "a.sqlite", "--"],
    ]
    let environments: [[String: String]] = [
      ["HOME": "/home/u"],
      ["HOME": "/home/u", "BOWTIES_STORE": server],
      ["HOME": "/home/u", "BOWTIES_STORE": "/data/ties.sqlite"],
      ["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"],
    ]
    Self.claimingServers
    var compared = 0
    var servers = 0
    for line in lines {
      guard let parsed = try? Bowties.parseAsRoot(line) as? any FastPathCommand else { continue }
      compared += 1
      for environment in environments {
        let expected = try StoreLocation.address(
          explicitPath: parsed.storeOptions.store, environment: environment)
        #expect(
          same(Invocation(line).storeAddress(environment: environment), expected),
          "\(line) \(environment)")
        if expected is PostgreSQLProgram.Missing { servers += 1 }
      }
    }
    #expect(compared >= lines.count - 1)
    #expect(servers > 5, "some lines name a server's store")
  }

  @Test("a store that cannot be resolved is left for the command to report")
  func unresolved() {
    #expect(Invocation(["show", "R", "--store", ""]).storeAddress(environment: [:]) == nil)
    #expect(Invocation(["show", "R"]).storeAddress(environment: [:]) == nil)
  }

  @Test("--date= is --date '': an empty value, not the next word")
  func emptyValuesAfterEquals() throws {
    let split = Invocation.splittingEmptyValues
    #expect(
      split(["wear", "R", "--date=", "--store", "S"]) == [
        "wear", "R", "--date", "", "--store", "S",
      ])
    #expect(split(["report", "--as-of="]) == ["report", "--as-of", ""])
    // Not a value's option, after --, or a completion request: as they are.
    for words in [
      ["show", "R", "--", "--date="], ["show", "--="], ["show", "R", "--date=today"],
      ["show", "R", "-d="],
      ["---completion", "wear", "--", "positional@0", "4", "0", "bowties", "--date="],
    ] {
      #expect(split(words) == words, "\(words)")
    }
    // End to end: refused as the empty value, the next option left alone.
    let bowties = BowtiesSandbox()
    let refused = try bowties("wear", "I", "--date=")
    #expect(refused.status == 65, "\(refused)")
    #expect(refused.stderr.hasPrefix("bowties: '' is not a date"), "\(refused)")
  }

  @Test("a word that is not UTF-8 is refused by its position")
  func notUTF8() {
    #expect(throws: BowTieError.usage("argument 2 is not valid UTF-8 text")) {
      try Invocation(["show", "R\u{FFFD}"], notUTF8: 2).checkUTF8()
    }
    #expect(throws: Never.self) { try Invocation(["show", "R"]).checkUTF8() }
  }

  @Test("a shell asking for completions: the store of the line being typed, its quotes off")
  func completionLines() {
    func line(_ words: String...) -> [String] {
      ["---completion", "wear", "--", "positional@0", "4", "0", "bowties", "wear"] + words
    }
    #expect(Invocation(line("--store", "'my ties.sqlite'", "")).explicitStore == "my ties.sqlite")
    #expect(Invocation(line("--store", #""a \"b\".sqlite""#, "")).explicitStore == #"a "b".sqlite"#)
    #expect(Invocation(line("--store", #"my\ ties.sqlite"#, "I")).explicitStore == "my ties.sqlite")
    #expect(Invocation(line("--store='\(server)'", "")).explicitStore == server)
    // The line's words after the program's name, not the request's own.
    #expect(Invocation(line("")).explicitStore == nil)
    #expect(Invocation(["wear", "R", "--store", "'a.sqlite'"]).explicitStore == "'a.sqlite'")
    #expect(Invocation.unquoted(#"'it'\''s'"#) == "it's")
    #expect(Invocation.unquoted(#""\$HOME\n""#) == #"$HOME\n"#)
  }

  @Test("argv is read in Invocation alone, and no other code finds the store in the line")
  func oneReader() throws {
    for (file, text) in try commandLineSources() where !file.hasSuffix("Invocation.swift") {
      #expect(!text.contains("CommandLine."), "\(file)")
      #expect(!text.contains("BOWTIES_STORE\")"), "\(file)")
    }
  }
}
