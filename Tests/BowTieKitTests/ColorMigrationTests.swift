import Foundation
import GRDB
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import PropertyLists

/// Schema v8: a SQLite store's TieColor archives become UIKit's UIColor archives.
@Suite struct ColorMigrationTests {
  static let transformer = ColorAttributeTransformer()

  /// bowties' TieColor archive of before, byte for byte as it wrote them.
  static func tieColorArchive(_ color: TieColor) throws -> Data {
    Data(try KeyedArchive.archive(TieColorArchive(color), classes: transformer.classTable))
  }

  static let red = TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24)
  static let teal = TieColor(red8: 0, green8: 0x80, blue8: 0x80)

  /// A store as bowties left it at v7, its colors TieColor archives, one AppKit archive and
  /// one damaged archive among them. Returns the rows' archives by key.
  static func oldStore(in folder: TemporaryFolder) throws -> [String: Data] {
    ColorAttributeTransformer.register()
    let queue = try DatabaseQueue(path: folder.storeURL.path)
    try Schema.migrator.migrate(queue, upTo: "v7: price currency")
    let archives: [String: Data] = [
      "R": try tieColorArchive(red),
      "T": try tieColorArchive(teal),
      "A": try ColorArchiveFixtures.data("nscolor-calibrated-rgb"),
      "D": Data("bplist00 not an archive".utf8),
    ]
    try queue.write { db in
      for (index, key) in archives.keys.sorted().enumerated() {
        try db.execute(
          sql: """
            INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating,
              tintColor) VALUES (?, ?, ?, ?, ?, 3, ?)
            """,
          arguments: [
            "0B0771E5-0000-4000-8000-00000000000\(index)", "Tie \(key)", "tie \(key.lowercased())",
            key, key.lowercased(), archives[key],
          ])
      }
      try db.execute(
        sql: """
          INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating)
            VALUES ('0B0771E5-0000-4000-8000-000000000009', 'None', 'none', 'N', 'n', 3)
          """)
    }
    try queue.close()
    return archives
  }

  static func storedArchives(_ folder: TemporaryFolder) throws -> [String: Data?] {
    let queue = try DatabaseQueue(path: folder.storeURL.path)
    defer { try? queue.close() }
    return try queue.read { db in
      var archives: [String: Data?] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT searchKey, tintColor FROM bowTie") {
        archives[row["searchKey"]] = row["tintColor"] as Data?
      }
      return archives
    }
  }

  @Test("opening an older store rewrites each TieColor archive as a UIColor archive")
  func migration() throws {
    let folder = TemporaryFolder()
    let before = try Self.oldStore(in: folder)
    let store = try folder.openStore()
    #expect(try store.tie(matching: "R").tintColor == Self.red)
    #expect(try store.tie(matching: "T").tintColor == Self.teal)
    try store.closeDatabase()
    let after = try Self.storedArchives(folder)
    for key in ["R", "T"] {
      let archive = try #require(after[key] ?? nil)
      let root = try KeyedArchive.decodeRoot(
        from: [UInt8](archive), classes: Self.transformer.classTable)
      #expect(root is UIColorArchive, "\(key)")
      #expect(
        archive == (try Self.transformer.data(from: Self.transformer.color(from: before[key]!))))
    }
    // An AppKit archive and a damaged one are left byte for byte; no color stays none.
    #expect(after["A"] == before["A"])
    #expect(after["D"] == before["D"])
    #expect(after["N"] == .some(nil))
    let applied = try DatabaseQueue(path: folder.storeURL.path).read(
      Schema.migrator.appliedIdentifiers)
    #expect(applied.contains("v8: colors as UIColor archives"))
  }

  @Test("a migration that fails rewrites nothing and records nothing: one transaction")
  func failedMigration() throws {
    let folder = TemporaryFolder()
    let before = try Self.oldStore(in: folder)
    // A rule that refuses to rewrite T's color, the second of the rows rewritten.
    let queue = try DatabaseQueue(path: folder.storeURL.path)
    try queue.write { db in
      try db.execute(
        sql: """
          CREATE TRIGGER refuseTeal BEFORE UPDATE OF tintColor ON bowTie
            WHEN OLD.searchKey = 'T' BEGIN SELECT RAISE(ABORT, 'teal stays'); END
          """)
    }
    try queue.close()
    #expect(throws: (any Error).self) { try folder.openStore() }
    let after = try Self.storedArchives(folder)
    for key in before.keys { #expect(after[key] == before[key], "\(key)") }
    let applied = try DatabaseQueue(path: folder.storeURL.path).read(
      Schema.migrator.appliedIdentifiers)
    #expect(!applied.contains("v8: colors as UIColor archives"))
  }

  @Test("a backup made before the migration restores, its colors as UIColor archives")
  func oldBackupRestores() throws {
    let old = TemporaryFolder()
    _ = try Self.oldStore(in: old)
    let folder = TemporaryFolder()
    let store = try folder.openStore()
    try store.closeDatabase()
    let summary = try BowTieStore.restore(
      from: old.storeURL, to: StoreLocation.address(explicitPath: folder.storeURL.path),
      confirming: { true })
    #expect(summary?.ties == 5)
    let restored = try folder.openStore()
    #expect(try restored.tie(matching: "R").tintColor == Self.red)
    try restored.closeDatabase()
    let archive = try #require(try Self.storedArchives(folder)["R"] ?? nil)
    #expect(
      try KeyedArchive.decodeRoot(from: [UInt8](archive), classes: Self.transformer.classTable)
        is UIColorArchive)
    // The backup itself is left as it was.
    #expect(try Self.storedArchives(old)["R"] == .some(try Self.tieColorArchive(Self.red)))
  }
}
