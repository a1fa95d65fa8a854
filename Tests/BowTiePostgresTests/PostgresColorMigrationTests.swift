import Foundation
import PostgresTestSupport
import PropertyLists
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import BowTiePostgres

/// PostgreSQL's p3: a store's TieColor archives become UIKit's UIColor archives, in the
/// migration's one transaction, as SQLite's v8 does.
@Suite(
  "PostgreSQL colors as UIColor archives",
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct PostgresColorMigrationTests {
  let server = PostgresTestServer.shared!
  let transformer = ColorAttributeTransformer()

  /// A store of the sample ties as bowties left it before p3: every color a TieColor
  /// archive, O's an AppKit archive, Y's damaged. Returns psql and the archives, as hex.
  func oldStore() throws -> (uri: String, psql: (String) throws -> String, before: [String: String])
  {
    let database = try SampleDatabase(on: server)
    let psql = database.psql
    let first = try PostgresEngine.open(uri: database.uri, environment: [:])
    var archives: [String: Data] = [:]
    for tie in try first.store.allTies() {
      let color = try #require(tie.tintColor)
      archives[tie.searchKey] = Data(
        try KeyedArchive.archive(TieColorArchive(color), classes: transformer.classTable))
    }
    try first.store.closeDatabase()
    archives["O"] = try Data(contentsOf: ColorArchiveTestsFolder.file("nscolor-calibrated-rgb"))
    archives["Y"] = Data("bplist00 not an archive".utf8)
    var sql = "DELETE FROM bowties_migrations WHERE name = 'p3: colors as UIColor archives';"
    for (key, archive) in archives {
      sql += "UPDATE bowTie SET tintColor = '\\x\(Self.hex(archive))' WHERE searchKey = '\(key)';"
    }
    _ = try psql(sql)
    return (database.uri, psql, try Self.storedArchives(psql))
  }

  static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

  static func storedArchives(_ psql: (String) throws -> String) throws -> [String: String] {
    let rows = try psql(
      "SELECT searchKey || ' ' || encode(tintColor, 'hex') FROM bowTie ORDER BY searchKey")
    var archives: [String: String] = [:]
    for line in rows.split(separator: "\n") {
      let parts = line.split(separator: " ")
      archives[String(parts[0])] = String(parts[1])
    }
    return archives
  }

  @Test("opening an older store rewrites each TieColor archive as a UIColor archive")
  func migration() throws {
    let (uri, psql, before) = try oldStore()
    let opened = try PostgresEngine.open(uri: uri, environment: [:])
    let colors = try opened.store.allTies().reduce(into: [String: TieColor]()) {
      $0[$1.searchKey] = $1.tintColor
    }
    try opened.store.closeDatabase()
    #expect(colors["R"] == TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24))
    let after = try Self.storedArchives(psql)
    for key in ["R", "G", "B", "I", "V"] {
      let archive = try #require(Data(hexString: after[key] ?? ""))
      let root = try KeyedArchive.decodeRoot(
        from: [UInt8](archive), classes: transformer.classTable)
      #expect(root is UIColorArchive, "\(key)")
      #expect(archive == (try transformer.data(from: #require(colors[key]))))
      #expect(after[key] != before[key])
    }
    // The AppKit archive and the damaged one are left byte for byte.
    #expect(after["O"] == before["O"])
    #expect(after["Y"] == before["Y"])
    #expect(
      try psql(
        "SELECT count(*) FROM bowties_migrations WHERE name = 'p3: colors as UIColor archives'")
        == "1\n")
  }

  @Test("a migration that fails rewrites nothing and records nothing: one transaction")
  func failedMigration() throws {
    let (uri, psql, before) = try oldStore()
    // A rule that refuses to rewrite the color of the last tie rewritten, by id, so that
    // others were rewritten before it fails.
    let last = try psql(
      "SELECT searchKey FROM bowTie WHERE searchKey IN ('R', 'G', 'B', 'I', 'V') "
        + "ORDER BY id DESC LIMIT 1"
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    _ = try psql(
      """
      CREATE FUNCTION refuseLast() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the last color stays'; END $$;
      CREATE TRIGGER refuseLast BEFORE UPDATE OF tintColor ON bowTie
        FOR EACH ROW WHEN (OLD.searchKey = '\(last)') EXECUTE FUNCTION refuseLast();
      """)
    #expect(throws: (any Error).self) {
      let opened = try PostgresEngine.open(uri: uri, environment: [:])
      try? opened.store.closeDatabase()
    }
    #expect(try Self.storedArchives(psql) == before)
    #expect(
      try psql(
        "SELECT count(*) FROM bowties_migrations WHERE name = 'p3: colors as UIColor archives'")
        == "0\n")
  }
}

/// Where ColorArchiveTests' fixtures are, from this test target.
enum ColorArchiveTestsFolder {
  static func file(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/ColorArchives/\(name).bplist")
  }
}

extension Data {
  /// The bytes of a hexadecimal string, as psql's `encode(…, 'hex')` prints them.
  init?(hexString: String) {
    var bytes: [UInt8] = []
    var text = hexString[...]
    while text.count >= 2 {
      guard let byte = UInt8(text.prefix(2), radix: 16) else { return nil }
      bytes.append(byte)
      text = text.dropFirst(2)
    }
    guard text.isEmpty, !bytes.isEmpty else { return nil }
    self.init(bytes)
  }
}
