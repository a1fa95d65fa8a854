import Foundation
import PostgresTestSupport
import Testing

/// Moving an inventory between engines: `restore` puts a backup (a SQLite file) into a
/// PostgreSQL store, and `backup` takes one out, with nothing lost on the way.
@Suite(
  "Moving an inventory between SQLite and PostgreSQL",
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct EngineMoveTests {
  let server = PostgresTestServer.shared!
  let user = ["BOWTIES_USER": "mover"]

  /// A SQLite store with something of everything: wears, a rating, a price, a color, a
  /// photo above the external-storage cutoff and a JPEG, a removed tie whose photo only
  /// the undo log still holds, and undo entries.
  private func filledStore(_ bowties: BowtiesSandbox) throws {
    let large = bowties.folder.appendingPathComponent("large.png")
    try testPNG(bytes: 200_000, seed: 7).write(to: large)
    let kept = bowties.folder.appendingPathComponent("kept.png")
    try testPNG(bytes: 150_000, seed: 8).write(to: kept)
    let steps: [[String]] = [
      ["wear", "R", "--date", "2026-11-20T08:00:00Z"], ["wear", "I", "--date", "2026-11-19"],
      ["rate", "O", "4.5"], ["favorite", "Y", "--toggle"],
      ["add", "--name", "Paisley", "--key", "P", "--rating", "2", "--photo", large.path],
      ["add", "--name", "Kept", "--key", "K", "--rating", "1", "--photo", kept.path],
      ["add", "--name", "Phone", "--key", "J", "--photo", Fixtures.photo("phone.jpg").path],
      ["edit", "J", "--price", "19.99 EUR", "--color", "teal", "--url", "https://example.com/j"],
      ["remove", "P", "--yes"], ["remove", "G", "--yes"], ["wear", "J"],
    ]
    for step in steps {
      let result = try bowties(step, store: bowties.store, environment: user)
      try #require(result.status == 0, "\(step): \(result.stderr)")
    }
  }

  /// `export` into a folder, photos as files, and every file's bytes by path.
  private func exported(_ bowties: BowtiesSandbox, store: String, as name: String) throws
    -> [String: Data]
  {
    let folder = bowties.folder.appendingPathComponent(name, isDirectory: true)
    let result = try bowties(["export", "--output", folder.path + "/"], store: store)
    try #require(result.status == 0, "export \(name): \(result.stderr)")
    var files: [String: Data] = [:]
    let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let file = walker?.nextObject() as? URL {
      guard let data = FileManager.default.contents(atPath: file.path) else { continue }
      files[String(file.path.dropFirst(folder.path.count))] = data
    }
    return files
  }

  @Test(
    "SQLite → PostgreSQL → SQLite: exports byte for byte the same, doctor healthy, undo goes on")
  func roundTrip() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    try filledStore(bowties)
    let original = try exported(bowties, store: bowties.store, as: "original")
    #expect(original.keys.contains { $0.hasSuffix(".jpg") || $0.hasSuffix(".jpeg") })

    // Into a database with no store yet: the restore creates it, holding the backup alone.
    let restored = try bowties(
      ["restore", bowties.store, "--yes", "--json"], store: database.uri, environment: user)
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(restored.stdout.contains("\"ties\" : 8"), "\(restored.stdout)")
    // Kept, and the removed Paisley's, which only the undo log refers to.
    #expect(restored.stdout.contains("\"photoFiles\" : 2"), "\(restored.stdout)")
    #expect(!restored.stdout.contains(database.password))
    #expect(try exported(bowties, store: database.uri, as: "server") == original)
    for command in [["history", "--json"], ["list", "--json"], ["doctor"]] {
      let onFile = try bowties(command, store: bowties.store, environment: user)
      let onServer = try bowties(command, store: database.uri, environment: user)
      #expect(onServer.status == 0, "\(command): \(onServer.stderr)")
      if command != ["doctor"] { #expect(onServer.stdout == onFile.stdout, "\(command)") }
    }

    let back = bowties.folder.appendingPathComponent("back.sqlite").path
    let backup = try bowties(["backup", back], store: database.uri, environment: user)
    #expect(backup.status == 0, "\(backup.stderr)")
    #expect(backup.stdout == "backed up 8 ties and 2 photo files to \(back)\n")
    #expect(try exported(bowties, store: back, as: "back") == original)
    #expect(try bowties(["doctor"], store: back, environment: user).status == 0)
    let events = "SELECT count(*), max(id) FROM wearEvent"
    #expect(try bowties.run("/usr/bin/sqlite3", [back, events]).stdout == bowties.sqlite(events))

    // The undo log came along: each store takes back the same changes, Paisley's photo too.
    for _ in 0..<3 {
      let onFile = try bowties(["undo"], store: bowties.store, environment: user)
      for store in [database.uri, back] {
        let result = try bowties(["undo"], store: store, environment: user)
        #expect(result == onFile, "\(store)")
      }
    }
    let undone = try exported(bowties, store: bowties.store, as: "undone")
    #expect(undone != original)
    #expect(try exported(bowties, store: database.uri, as: "server-undone") == undone)
    #expect(try exported(bowties, store: back, as: "back-undone") == undone)
    // New ids follow the copied ones.
    for store in [bowties.store, database.uri] {
      #expect(try bowties(["wear", "R"], store: store, environment: user).status == 0)
    }
    let lastWear = [
      try bowties(["history", "R", "--json"], store: bowties.store, environment: user).stdout,
      try bowties(["history", "R", "--json"], store: database.uri, environment: user).stdout,
    ].map { $0.components(separatedBy: "\"id\"").count }
    #expect(lastWear[0] == lastWear[1])
  }

  @Test("a restore replaces what a PostgreSQL store held, photos the inventory no longer needs go")
  func replaces() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    let other = bowties.folder.appendingPathComponent("other.png")
    try testPNG(bytes: 180_000, seed: 99).write(to: other)
    #expect(
      try bowties(
        ["add", "--name", "Gone", "--photo", other.path], store: database.uri, environment: user
      )
      .status == 0)
    try filledStore(bowties)
    let restored = try bowties(
      ["restore", bowties.store, "--yes"], store: database.uri, environment: user)
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(
      try bowties(["list", "--json"], store: database.uri, environment: user).stdout
        == bowties(["list", "--json"], store: bowties.store, environment: user).stdout)
    let photos = try server.psql(
      "SELECT count(*) FROM photo", user: database.role, password: database.password,
      database: database.role)
    #expect(photos.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
    #expect(try bowties(["doctor"], store: database.uri, environment: user).status == 0)
  }

  @Test(
    "a backup of a PostgreSQL store that fills the disk exits 73, says so, and leaves nothing",
    .enabled(if: ScratchMount.available))
  func backupOntoAFullDisk() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    let file = bowties.folder.appendingPathComponent("ties.json")
    try BowtiesSandbox.seedJSON(ties: 3_000, linkPadding: 400).write(to: file)
    let seed = try bowties(["seed", file.path], store: database.uri)
    try #require(seed.status == 0, "\(seed.stderr)")

    // Room for the copy's schema, not for its rows.
    let target = BowtiesSandbox()
    let mount = try ScratchMount(over: target.folder, size: "256k")
    defer { mount.unmount() }
    let copy = target.folder.appendingPathComponent("Copy.sqlite").path
    let backup = try bowties(["backup", copy], store: database.uri)
    #expect(backup.status == 73, "\(backup)")
    #expect(backup.stderr == "bowties: cannot write \(copy): database or disk is full\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: target.folder.path) == [])
  }

  @Test("a hostile backup is refused before the PostgreSQL store changes (65)")
  func hostileBackup() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    #expect(try bowties(["wear", "R"], store: database.uri, environment: user).status == 0)
    let before = try bowties(["list", "--json"], store: database.uri, environment: user).stdout
    try filledStore(bowties)
    try bowties.sqlite("UPDATE bowTie SET photoFile = '../../victim' WHERE name = 'Kept'")
    let refused = try bowties(
      ["restore", bowties.store, "--yes"], store: database.uri, environment: user)
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("../../victim"))
    #expect(
      try bowties(["list", "--json"], store: database.uri, environment: user).stdout == before)
  }

  @Test("a backup from an older bowties goes into PostgreSQL, migrated in a copy, itself unchanged")
  func olderBackup() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    try filledStore(bowties)
    // What bowties wrote before undo entries said who made them, and before prices had
    // a currency.
    try bowties.sqlite(
      """
      ALTER TABLE undoEntry DROP COLUMN madeBy;
      DELETE FROM grdb_migrations WHERE identifier = 'v6: undo by user';
      DROP TRIGGER bowTie_priceCurrency_insert;
      DROP TRIGGER bowTie_priceCurrency_update;
      ALTER TABLE bowTie DROP COLUMN currency;
      DELETE FROM grdb_migrations WHERE identifier = 'v7: price currency';
      """)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: bowties.store))
    let restored = try bowties(
      ["restore", bowties.store, "--yes"], store: database.uri, environment: user)
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == bytes)
    let entries = try server.psql(
      "SELECT count(*) FROM undoEntry WHERE madeBy = ''", user: database.role,
      password: database.password, database: database.role)
    let logged = try bowties.sqlite("SELECT count(*) FROM undoEntry")
    #expect(Int(logged.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 0)
    #expect(entries == logged)
    // Its price, which had no currency, is in US dollars.
    #expect(
      try server.psql(
        "SELECT price || ' ' || currency FROM bowTie WHERE searchKey = 'J'", user: database.role,
        password: database.password, database: database.role) == "19.99 USD\n")
    // An undo entry from before is anyone's to take back.
    #expect(try bowties(["undo"], store: database.uri, environment: user).status == 0)
  }
}
