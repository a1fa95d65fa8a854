import Foundation
import Testing

/// Each engine's code stays in its own folder: SQLite's (GRDB, its SQL, its schema) in
/// `Sources/BowTieKit/Store/SQLite/`, PostgreSQL's in `Sources/BowTiePostgres/`. Everything
/// else reaches a store through `StoreAddress`, `StoreEngine` and `SQLConnection`, and
/// never asks which engine it has. These read the source tree, comments left out.
@Suite("The engine boundary")
struct EngineBoundaryTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let sqliteFolder = "Sources/BowTieKit/Store/SQLite/"
  static let postgresFolder = "Sources/BowTiePostgres/"

  /// The hand-over to `bowties-postgresql`, and that program: what `bowties` must know of
  /// PostgreSQL to pass a store it cannot open to the program that can.
  static let handOver = [
    "Sources/BowtiesCLI/Support/PostgreSQLProgram.swift", "Sources/bowties-postgresql/",
  ]

  @Test("nothing outside Store/SQLite imports GRDB")
  func grdb() throws {
    let found = try Self.lines { path, code in
      !path.hasPrefix(Self.sqliteFolder) && code.contains("GRDB")
        && code.contains(/^\s*(@testable\s+)?import\s+GRDB/)
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    // The rule holds something: the engine itself imports it.
    #expect(
      try !Self.lines { path, code in
        path.hasPrefix(Self.sqliteFolder) && code.contains("import GRDB")
      }.isEmpty)
  }

  @Test("nothing outside Store/SQLite names the SQLite engine, its schema or its SQL")
  func sqlite() throws {
    // The engine's types, and what only SQLite's SQL says.
    let engine =
      /\b(SQLiteEngine|SQLiteConnection|SQLiteDialect|SQLiteRow|SQLiteStoreFile|BackupFile|Schema\.)/
    let sql = /PRAGMA|sqlite_master|julianday|grdb_migrations|sqlite3_|\bGLOB\b/
    // Where a location no other engine takes becomes a SQLite file.
    let defaultAddress = "Sources/BowTieKit/Store/StoreLocation.swift"
    let found = try Self.lines { path, code in
      guard !path.hasPrefix(Self.sqliteFolder) else { return false }
      if path == defaultAddress, code.contains("SQLiteStoreFile(url:") { return false }
      return Self.mayContain(
        code, ["SQLite", "Schema.", "BackupFile", "PRAGMA", "sqlite", "julianday", "grdb", "GLOB"])
        && (code.contains(engine) || code.contains(sql))
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  @Test("nothing outside BowTiePostgres knows PostgreSQL but the hand-over to its program")
  func postgresql() throws {
    // Its name, in code: a type, a case, a module, a URI scheme. Text for people (string
    // literals) may name it, and the command line calls the hand-over by its name.
    let found = try Self.lines(stringsToo: false) { path, code in
      !path.hasPrefix(Self.postgresFolder) && !Self.handOver.contains { path.hasPrefix($0) }
        && code.lowercased().replacing("postgresqlprogram.", with: "").contains("postgres")
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    // What only PostgreSQL's SQL says: row and table locks, sequences, its functions and
    // types, COPY.
    let sql = /FOR UPDATE|LOCK TABLE|setval|\bpg_|GREATEST|timestamptz|BYTEA|\bCOPY\b/
    let dialect = try Self.lines { path, code in
      !path.hasPrefix(Self.postgresFolder)
        && Self.mayContain(
          code,
          ["FOR UPDATE", "LOCK TABLE", "setval", "pg_", "GREATEST", "timestamptz", "BYTEA", "COPY"])
        && code.contains(sql)
    }
    #expect(dialect.isEmpty, "\(dialect.joined(separator: "\n"))")
  }

  @Test("no code casts a store's engine or connection to find out which it is")
  func casts() throws {
    let found = try Self.lines { _, code in
      Self.mayContain(code, ["Engine", "Connection"])
        && code.contains(/\b(as[?!]?|is)\s+\w*(Engine|Connection)\b/)
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  /// Whether `code` holds one of `words`: a quick look before a regular expression's.
  static func mayContain(_ code: String, _ words: [String]) -> Bool {
    words.contains { code.contains($0) }
  }

  /// "path:number: line" for each line of the Swift sources (the package's, its plugins'
  /// and the fuzzers') for which `matches` takes the line's path and its code: the line
  /// without its comment, and without its string literals unless `stringsToo`.
  static func lines(
    stringsToo: Bool = true, _ matches: (_ path: String, _ code: String) -> Bool
  ) throws -> [String] {
    var found: [String] = []
    for folder in ["Sources", "Fuzz/Sources", "Plugins"] {
      let root = repository.appendingPathComponent(folder)
      guard let files = FileManager.default.enumerator(atPath: root.path) else { continue }
      for case let file as String in files where file.hasSuffix(".swift") {
        let path = "\(folder)/\(file)"
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        var inMultilineString = false
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
          .enumerated()
        {
          var code = String(line)
          let delimiters = code.ranges(of: "\"\"\"").count
          if inMultilineString || delimiters > 0 {
            // Inside a multi-line literal, or where one begins or ends: string text.
            if !stringsToo { code = "" }
            if delimiters % 2 == 1 { inMultilineString.toggle() }
          } else {
            if !stringsToo, code.contains("\"") {
              code = code.replacing(/"([^"\\]|\\.)*"/, with: "\"\"")
            }
            if let comment = code.firstRange(of: "//") {
              code = String(code[..<comment.lowerBound])
            }
          }
          if matches(path, code) { found.append("\(path):\(number + 1): \(line)") }
        }
      }
    }
    return found
  }
}
