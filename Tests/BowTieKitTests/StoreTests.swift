import Foundation
import GRDB
import Testing

@testable import BowTieKit
@testable import BowTieModel

@Suite("Store")
struct StoreTests {
  private func entries(_ dictionaries: [[String: Any]], images: [String: Data] = [:]) throws
    -> [SeedEntry]
  {
    let folder = TemporaryFolder()
    let file = try folder.writePlist(dictionaries, images: images)
    return try SeedFile.parse(
      Data(contentsOf: file), source: "ties.plist",
      images: .folder(folder.url.appendingPathComponent("images")))
  }

  @Test("an error raised without the store's name gets it from the engine, for reads and writes")
  func errorsNameTheStore() throws {
    let folder = TemporaryFolder()
    let url = folder.url.appendingPathComponent("BowTies.sqlite")
    ColorAttributeTransformer.register()
    let (store, _) = try BowTieStore.open(at: url) { _ in }
    let unnamed = BowTieError.storeUnreadable(path: "", reason: "a row cannot be decoded")
    let named = BowTieError.storeUnreadable(path: url.path, reason: "a row cannot be decoded")
    #expect(throws: named) { try store.read { _ in throw unnamed } }
    #expect(throws: named) { try store.write { _, _ in throw unnamed } }
  }

  @Test("a row's column is found whatever the case of its name, and a column it lacks is null")
  func columnNames() throws {
    let store = try makeInMemoryStore()
    var rows: [[SQLValue]] = []
    try store.read { db in
      try db.forEachRow(SQL(sql: "SELECT 1 AS Alpha, 'b' AS beta, 3 AS ALPHA")) { row in
        rows.append([row["Alpha"], row["alpha"], row["BETA"], row["beta"], row["gamma"]])
      }
    }
    #expect(rows == [[.integer(1), .integer(1), .text("b"), .text("b"), .null]])
  }

  @Test("a statement's values are bound in order, and it runs again after an error or a stop")
  func boundValues() throws {
    let store = try makeInMemoryStore()
    let bytes = Data([0, 1, 0xFF])
    let values = try store.read { db in
      try db.fetchOne(
        "SELECT \(SQLValue.null), \(Int64.min), \(2.5), \("é"), \(""), \(bytes)"
      )?.values
    }
    #expect(values == [.null, .integer(.min), .real(2.5), .text("é"), .text(""), .blob(bytes)])
    // Text is bound by its length, a NUL in it too.
    let length = try store.read {
      try $0.fetchValue("SELECT length(CAST(\("é\u{0}x") AS BLOB))", as: Int64.self)
    }
    #expect(length == 4)
    func absolute(_ number: Int64) throws -> Int64? {
      try store.read { try $0.fetchValue("SELECT abs(\(number))", as: Int64.self) }
    }
    // SQLite's error comes from stepping: the statement is reset for its next use.
    #expect(throws: BowTieError.self) { try absolute(.min) }
    #expect(try absolute(-5) == 5)
    let count: BowTieKit.SQL =
      "WITH c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3) SELECT x FROM c"
    struct Stop: Error {}
    #expect(throws: (any Error).self) {
      try store.read { try $0.forEachRow(count) { _ in throw Stop() } }
    }
    #expect(
      try store.read { try $0.fetchAll(count) { $0[0] } } == [
        .integer(1), .integer(2), .integer(3),
      ])
  }

  @Test("a new store is created with private modes and filled atomically")
  func creation() throws {
    let folder = TemporaryFolder()
    let url = folder.url.appendingPathComponent("a/b/BowTies.sqlite")
    ColorAttributeTransformer.register()
    let (store, created) = try BowTieStore.open(at: url) { try $0.seed(SampleData.entries()) }
    #expect(created)
    #expect(try store.count() == 7)
    let fileMode =
      try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    let folderMode =
      try FileManager.default.attributesOfItem(
        atPath: url.deletingLastPathComponent().path)[.posixPermissions] as? Int
    let parentMode =
      try FileManager.default.attributesOfItem(
        atPath: folder.url.appendingPathComponent("a").path)[.posixPermissions] as? Int
    #expect(fileMode == 0o600 && folderMode == 0o700 && parentMode == 0o700)
    let (_, createdAgain) = try BowTieStore.open(at: url) { _ in Issue.record("populated twice") }
    #expect(!createdAgain)
  }

  @Test("a file without a schema (touch, the sqlite3 shell) is filled as a new store, once")
  func emptyFileIsFilled() throws {
    ColorAttributeTransformer.register()
    // Made by `touch`, and by the sqlite3 shell given pragmas: a header, no schema. A file
    // in WAL mode keeps its page size.
    for pragma in [
      nil, "PRAGMA journal_mode = WAL", "PRAGMA page_size = 8192; PRAGMA journal_mode = WAL",
    ] {
      let folder = TemporaryFolder()
      let url = folder.storeURL
      #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
      if let pragma {
        try DatabaseQueue(path: url.path).writeWithoutTransaction { try $0.execute(sql: pragma) }
        #expect(try Data(contentsOf: url).count > 0, "the header is written")
      }
      let (store, created) = try BowTieStore.open(at: url) { try $0.seed(SampleData.entries()) }
      #expect(created, "\(pragma ?? "touch")")
      #expect(try store.count() == 7)
      let integrity = try store.dbWriter.read {
        try String.fetchAll($0, sql: "PRAGMA integrity_check")
      }
      #expect(integrity == ["ok"])
      try store.closeDatabase()
      let (again, createdAgain) = try BowTieStore.open(at: url) { _ in
        Issue.record("populated twice")
      }
      let countAgain = try again.count()
      #expect(!createdAgain && countAgain == 7)
      // Nothing left of the build beside the store.
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
      #expect(!names.contains { $0.contains(".new-") }, "\(names)")
    }
  }

  @Test("a failed fill of an empty file leaves it without a schema, to be filled next time")
  func failedFillOfEmptyFile() throws {
    let folder = TemporaryFolder()
    let url = folder.storeURL
    ColorAttributeTransformer.register()
    #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
    #expect(throws: BowTieError.self) {
      try BowTieStore.open(at: url) { _ in throw BowTieError.invalidValue("boom") }
    }
    let tables = try DatabaseQueue(path: url.path).read {
      try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master")
    }
    #expect(tables == 0)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(!names.contains { $0.contains(".new-") }, "\(names)")
    let (store, created) = try BowTieStore.open(at: url) { try $0.seed(SampleData.entries()) }
    let count = try store.count()
    #expect(created && count == 7)
  }

  @Test("a failed first fill leaves no store behind")
  func failedCreation() throws {
    let folder = TemporaryFolder()
    ColorAttributeTransformer.register()
    #expect(throws: BowTieError.self) {
      try BowTieStore.open(at: folder.storeURL) { _ in throw BowTieError.invalidValue("boom") }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
  }

  @Test("a first fill that fails after a thousand rows are written leaves no store behind")
  func failedBulkCreation() throws {
    let folder = TemporaryFolder()
    ColorAttributeTransformer.register()
    // The store is built without a journal: nothing undoes these rows but throwing the
    // file away.
    var entries = bulkEntries()
    entries[entries.count - 1].tie.name = " "
    #expect(throws: BowTieError.self) {
      try BowTieStore.open(at: folder.storeURL) { try $0.seed(entries) }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    let (store, created) = try BowTieStore.open(at: folder.storeURL) {
      try $0.seed(SampleData.entries())
    }
    let count = try store.count()
    #expect(created && count == 7)
    let integrity = try store.dbWriter.read {
      try String.fetchAll($0, sql: "PRAGMA integrity_check")
    }
    #expect(integrity == ["ok"])
  }

  @Test("a build a killed process left is removed; a live or just-created one is not")
  func abandonedBuilds() throws {
    let folder = TemporaryFolder()
    ColorAttributeTransformer.register()
    func file(_ name: String, age: Int, contents: String = "half a store") throws -> URL {
      let url = folder.url.appendingPathComponent(name)
      try Data(contents.utf8).write(to: url)
      let past = timeval(tv_sec: time(nil) - age, tv_usec: 0)
      #expect(utimes(url.path, [past, past]) == 0)
      return url
    }
    let abandoned = try file(".BowTies.sqlite.new-A", age: 3_600)
    let abandonedJournal = try file(".BowTies.sqlite.new-A-journal", age: 3_600)
    let orphanWAL = try file(".BowTies.sqlite.new-B-wal", age: 3_600)
    let killedJustNow = try file(".BowTies.sqlite.new-F", age: 0)
    let justCreated = try file(".BowTies.sqlite.new-C", age: 0, contents: "")
    let held = try file(".BowTies.sqlite.new-D", age: 3_600)
    let otherStore = try file(".Other.sqlite.new-E", age: 3_600)
    // A live builder holds its file's lock; flock locks belong to the open file
    // description, so this one blocks the store's check from the same process.
    let holder = open(held.path, O_RDONLY)
    #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)
    defer { close(holder) }

    _ = try BowTieStore.open(at: folder.storeURL) { try $0.seed(SampleData.entries()) }

    let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
    for gone in [abandoned, abandonedJournal, orphanWAL, killedJustNow] {
      #expect(!left.contains(gone.lastPathComponent), "\(gone.lastPathComponent)")
    }
    for kept in [justCreated, held, otherStore, folder.storeURL] {
      #expect(left.contains(kept.lastPathComponent), "\(kept.lastPathComponent)")
    }
    #expect(left.count == 4, "\(left.sorted())")
  }

  @Test("the photo files of a build killed after its commit, before its link, are swept")
  func abandonedBuildPhotos() throws {
    let folder = TemporaryFolder()
    ColorAttributeTransformer.register()
    // What such a kill leaves (scripts/crash-test --new found it): the committed build,
    // neither linked nor locked, and its photo files, with no photo-writes marker, which
    // the build's commit removed.
    let build = folder.url.appendingPathComponent(".BowTies.sqlite.new-K")
    try Data("a committed build".utf8).write(to: build)
    let photos = StoreLocation.externalDataDirectory(forStoreAt: folder.storeURL)
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    let orphan = photos.appendingPathComponent(String(repeating: "ab", count: 32))
    try Data(count: 200_000).write(to: orphan)

    let (store, created) = try BowTieStore.open(at: folder.storeURL) {
      try $0.seed(SampleData.entries())
    }
    #expect(created)
    #expect(try store.count() == 7)
    #expect(!FileManager.default.fileExists(atPath: build.path))
    #expect(!FileManager.default.fileExists(atPath: orphan.path))
  }

  @Test("seeding is idempotent, and --replace overwrites")
  func idempotentSeed() throws {
    let store = try makeInMemoryStore()
    let samples = try SampleData.entries()
    #expect(try store.seed(samples) == SeedSummary(added: 7, replaced: 0, skipped: 0))
    #expect(try store.seed(samples) == SeedSummary(added: 0, replaced: 0, skipped: 7))
    try store.rate("R", rating: 1)
    #expect(
      try store.seed(samples, replacing: true) == SeedSummary(added: 0, replaced: 7, skipped: 0))
    #expect(try store.tie(matching: "R").rating == 4)
    // Without ids, entries match by search key, whatever its case.
    let byKey = try entries([tieEntry("Another Red", key: "r", rating: 2)])
    #expect(try store.seed(byKey) == SeedSummary(added: 0, replaced: 0, skipped: 1))
    #expect(try store.seed(byKey, replacing: true).replaced == 1)
    let red = try store.tie(matching: "R")
    #expect(red.name == "Another Red" && red.id == samples[0].tie.id)
  }

  @Test("a seed with one conflicting entry changes nothing")
  func allOrNothing() throws {
    let store = try makeInMemoryStore()
    try store.seed(SampleData.entries())
    let before = try store.allTies()
    let batch = try entries([
      tieEntry("Teal Bow Tie", key: "T"),
      tieEntry("Rogue Red", key: "R", id: UUID().uuidString),
    ])
    #expect(throws: BowTieError.self) { try store.seed(batch) }
    do {
      try store.seed(batch)
    } catch {
      #expect(
        error.localizedDescription
          == "entry 1 (Rogue Red): searchKey 'R' is already used by Red Bow Tie")
    }
    #expect(try store.allTies() == before)
  }

  @Test("a large seed into an empty store builds its indexes at the end: the same schema")
  func bulkSeedIndexes() throws {
    func schema(_ store: BowTieStore) throws -> [String] {
      try store.dbWriter.read { db in
        try String.fetchAll(
          db,
          sql:
            "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_master ORDER BY name"
        )
      }
    }
    let fresh = try schema(try makeInMemoryStore())
    let count = BowTieStore.bulkSeedSize
    let many = bulkEntries()
    // One entry too bad to store, found only when its row is written: all or nothing.
    var bad = many
    bad[count - 1].tie.name = " "
    let failed = try makeInMemoryStore()
    #expect(throws: BowTieError.self) { try failed.seed(bad) }
    #expect(try schema(failed) == fresh && failed.count() == 0)
    #expect(try failed.seedPlan(many).count == count)
    #expect(try schema(failed) == fresh && failed.count() == 0)

    let store = try makeInMemoryStore()
    try store.seed(many)
    #expect(try schema(store) == fresh)
    #expect(try store.history(of: "K7").map(\.event.wornAt) == [many[7].tie.lastWorn])
    // The indexes hold every row: a look-up through each finds it.
    let found = try store.dbWriter.read { db in
      try Int.fetchOne(
        db,
        sql: """
          SELECT (SELECT count(*) FROM bowTie INDEXED BY bowTie_canonicalName
                  WHERE canonicalName >= '')
            + (SELECT count(*) FROM wearEvent INDEXED BY wearEvent_wornAt WHERE wornAt >= '')
            + (SELECT count(*) FROM wearEvent INDEXED BY wearEvent_tieId_wornAt WHERE tieId >= '')
          """)
    }
    #expect(found == 3 * count)
  }

  @Test("look-ups by key, id, name and unique prefix")
  func lookUps() throws {
    let store = try makeInMemoryStore()
    try store.seed(SampleData.entries())
    try store.seed(
      entries([tieEntry("Café Bow Tie", key: "CAFE1"), tieEntry("Café Noir", key: "CN")]))
    #expect(try store.tie(matching: "r").name == "Red Bow Tie")
    #expect(try store.tie(matching: "Red Bow Tie").searchKey == "R")
    #expect(try store.tie(matching: "oran").searchKey == "O")
    #expect(try store.tie(matching: "cafe b").name == "Café Bow Tie")
    #expect(try store.tie(matching: "CAFÉ NOIR").searchKey == "CN")
    let id = try store.tie(matching: "V").id
    #expect(try store.tie(matching: id.uuidString.lowercased()).searchKey == "V")
    #expect(throws: BowTieError.noSuchTie("Teal")) { try store.tie(matching: "Teal") }
    #expect(
      throws: BowTieError.ambiguousTie(
        "caf", candidates: ["Café Bow Tie (CAFE1)", "Café Noir (CN)"])
    ) {
      try store.tie(matching: "caf")
    }
  }

  @Test("wear, rate and favorite change exactly what they say")
  func writes() throws {
    let store = try makeInMemoryStore()
    try store.seed(SampleData.entries())
    let date = Date(timeIntervalSince1970: 1_795_248_000)
    let worn = try store.wear("I", on: date)
    #expect(worn.timesWorn == 1 && worn.lastWorn == date)
    #expect(try store.rate("I", rating: 4.5).rating == 4.5)
    #expect(throws: BowTieError.self) { try store.rate("I", rating: 5.5) }
    #expect(try store.tie(matching: "I").rating == 4.5)
    #expect(try store.favorite("I", .set).isFavorite)
    #expect(try store.favorite("I", .toggle).isFavorite == false)
    #expect(try store.favorite("I", .toggle).isFavorite)
    #expect(try store.favorite("I", .clear).isFavorite == false)
  }

  @Test("timesWorn stops at Int32.max with a validation error")
  func wearOverflow() throws {
    let store = try makeInMemoryStore()
    var entry = tieEntry("Worn Out", key: "W")
    entry["timesWorn"] = Int(Int32.max)
    try store.seed(entries([entry]))
    #expect(throws: BowTieError.self) { try store.wear("W") }
    #expect(try store.tie(matching: "W").timesWorn == .max)
  }

  @Test("photos above 128 KiB go to a shared external file; smaller stay inline")
  func externalStorage() throws {
    let folder = TemporaryFolder()
    let store = try folder.openStore()
    let cutoff = PhotoStorage.externalThreshold
    let atCutoff = photoBytes(count: cutoff, seed: 1)
    let large = photoBytes(count: cutoff + 1, seed: 2)
    try store.seed(
      entries(
        [
          tieEntry("Inline", key: "IN", imageName: "inline.png"),
          tieEntry("Large", key: "L1", imageName: "large.png"),
          tieEntry("Large Twin", key: "L2", imageName: "large.png"),
        ], images: ["inline.png": atCutoff, "large.png": large]))
    #expect(folder.externalFiles().count == 1, "identical photos are stored once")
    #expect(try store.tie(matching: "IN", loadingPhoto: true).photoData == atCutoff)
    #expect(try store.tie(matching: "L1", loadingPhoto: true).photoData == large)
    #expect(try store.tie(matching: "L2").photoByteCount == cutoff + 1)
    let inlineCount = try DatabaseQueue(path: folder.storeURL.path).read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM bowTie WHERE photoData IS NOT NULL")
    }
    #expect(inlineCount == 1)
    #expect(!folder.externalFiles().contains { $0.hasPrefix(".tmp") })

    // Replacing one twin's photo keeps the file for the other; replacing both removes it.
    let other = photoBytes(count: cutoff + 10, seed: 3)
    try store.seed(
      entries([tieEntry("Large", key: "L1", imageName: "o.png")], images: ["o.png": other]),
      replacing: true)
    #expect(folder.externalFiles().count == 2)
    try store.seed(
      entries([tieEntry("Large Twin", key: "L2", imageName: "o.png")], images: ["o.png": other]),
      replacing: true)
    #expect(folder.externalFiles().count == 1)
    #expect(try store.tie(matching: "L2", loadingPhoto: true).photoData == other)
  }

  @Test("a failed seed removes the photo files it wrote")
  func photoRollback() throws {
    let folder = TemporaryFolder()
    let store = try folder.openStore()
    try store.seed(entries([tieEntry("Red", key: "R")]))
    let batch = try entries(
      [
        tieEntry("Big", key: "BIG", imageName: "big.png"),
        tieEntry("Clash", key: "R", id: UUID().uuidString),
      ],
      images: ["big.png": photoBytes(count: 200_000, seed: 9)])
    #expect(throws: BowTieError.self) { try store.seed(batch) }
    #expect(folder.externalFiles().isEmpty)
    #expect(try store.count() == 1)
  }

  @Test("photo files left by a process that died mid-write are swept on the next open")
  func interruptedPhotoWrites() throws {
    let folder = TemporaryFolder()
    let store = try folder.openStore()
    try store.seed(
      entries(
        [tieEntry("Big", key: "BIG", imageName: "big.png")],
        images: ["big.png": photoBytes(count: 200_000, seed: 21)]))
    let kept = try #require(folder.externalFiles().first)
    // What a seed killed between writing its files and committing leaves behind.
    let marker = folder.externalDataFolder.deletingLastPathComponent()
      .appendingPathComponent("photo-writes-in-progress")
    try Data().write(to: marker)
    let orphan = photoBytes(count: 10, seed: 22)
    try orphan.write(
      to: folder.externalDataFolder.appendingPathComponent(PhotoStorage.contentName(orphan)))
    try Data().write(to: folder.externalDataFolder.appendingPathComponent(".tmp-\(UUID())"))
    // Not a name bowties gives a file: never made into a path to remove, whatever it is.
    try Data().write(to: folder.externalDataFolder.appendingPathComponent("notes.txt"))
    #expect(folder.externalFiles().count == 4)
    _ = try folder.openStore()
    #expect(folder.externalFiles() == [kept, "notes.txt"].sorted())
    #expect(!FileManager.default.fileExists(atPath: marker.path))
    #expect(
      try folder.openStore().tie(matching: "BIG", loadingPhoto: true).photoData?.count == 200_000)
  }

  @Test("a store this process created keeps its locks: another process cannot remove its log")
  func createdStoreKeepsItsLocks() throws {
    let folder = TemporaryFolder()
    let store = try folder.openStore()
    // sqlite3 opens and closes the store, and removes the log and its index if it finds
    // itself the last connection: that must not happen while this one is open.
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    probe.arguments = [folder.storeURL.path, "SELECT count(*) FROM bowTie"]
    probe.standardOutput = FileHandle.nullDevice
    try probe.run()
    probe.waitUntilExit()
    #expect(FileManager.default.fileExists(atPath: folder.storeURL.path + "-wal"))
    try store.add(BowTie(name: "After", searchKey: "AF"))
    try store.closeDatabase()
    let reopened = try folder.openStore()
    #expect(try reopened.count() == 1)
  }

  @Test("a successful seed leaves no marker behind")
  func noMarkerAfterSeed() throws {
    let folder = TemporaryFolder()
    let store = try folder.openStore()
    try store.seed(
      entries(
        [tieEntry("Big", key: "BIG", imageName: "big.png")],
        images: ["big.png": photoBytes(count: 200_000, seed: 23)]))
    let marker = folder.externalDataFolder.deletingLastPathComponent()
      .appendingPathComponent("photo-writes-in-progress")
    #expect(!FileManager.default.fileExists(atPath: marker.path))
  }

  @Test("a missing or altered external photo is a clear error for that tie")
  func missingPhotoFile() throws {
    let folder = TemporaryFolder()
    let store = try folder.openStore()
    try store.seed(
      entries(
        [tieEntry("Big", key: "BIG", imageName: "big.png")],
        images: ["big.png": photoBytes(count: 200_000, seed: 4)]))
    let file = folder.externalDataFolder.appendingPathComponent(
      try #require(folder.externalFiles().first))
    try photoBytes(count: 200_000, seed: 5).write(to: file)
    let tie = try store.tie(matching: "BIG")
    #expect(throws: BowTieError.self) { try store.photoData(of: tie) }
    try FileManager.default.removeItem(at: file)
    #expect(store.photoProblem(of: tie)?.localizedDescription.hasSuffix("is missing") == true)
    // What shows a tie gets the problem with it, a write's from inside its transaction.
    let missing = { (tie: BowTie) in tie.photoIssue?.localizedDescription.hasSuffix("is missing") }
    #expect(missing(try store.tie(matching: "BIG")) == true)
    #expect(missing(try store.wear("BIG")) == true)
    #expect(missing(try store.rate("BIG", rating: 3)) == true)
    #expect(try store.ties(TieFilter()).map(missing) == [true])
    #expect {
      try store.tie(matching: "BIG", loadingPhoto: true)
    } throws: { error in
      guard case BowTieError.photoUnavailable("Big", _, "is missing")? = error as? BowTieError
      else {
        return false
      }
      return true
    }
    // The rest of the tie still reads.
    #expect(try store.allTies().first?.name == "Big")
  }

  @Test("a store from a newer schema is refused and left as it is")
  func newerSchema() throws {
    let folder = TemporaryFolder()
    _ = try folder.openStore()
    try DatabaseQueue(path: folder.storeURL.path).write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')")
    }
    #expect(
      throws: BowTieError.storeFromNewerVersion(
        path: folder.storeURL.path, unknownMigrations: ["v99: from the future"])
    ) {
      try folder.openStore()
    }
    let count = try DatabaseQueue(path: folder.storeURL.path).read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations")
    }
    #expect(count == Schema.migrator.migrations.count + 1)
  }

  @Test("damaged stores are reported, not crashed on")
  func damagedStores() throws {
    let folder = TemporaryFolder()
    try photoBytes(count: 8192, seed: 6).write(to: folder.storeURL)
    #expect {
      try folder.openStore()
    } throws: { error in
      guard case BowTieError.storeUnreadable(_, let reason)? = error as? BowTieError else {
        return false
      }
      return reason.contains("not a bowties store or it is damaged")
    }
    let directory = TemporaryFolder()
    try FileManager.default.createDirectory(
      at: directory.storeURL, withIntermediateDirectories: true)
    #expect(
      throws: BowTieError.storeUnreadable(
        path: directory.storeURL.path, reason: "it is a directory, not a store file")
    ) {
      try directory.openStore()
    }
  }

  @Test("a corrupt row is a store error; an unreadable color is kept and flagged")
  func corruptRows() throws {
    let folder = TemporaryFolder()
    let store = try folder.openStore()
    try store.seed(SampleData.entries())
    let raw = try DatabaseQueue(path: folder.storeURL.path)
    try raw.write { db in
      try db.execute(
        sql: "UPDATE bowTie SET tintColor = x'62706c6973743030ff' WHERE searchKey = 'O'")
    }
    let orange = try store.tie(matching: "O")
    #expect(orange.tintColor == nil && orange.colorIssue != nil)
    // Writing the tie keeps the stored archive rather than erasing it.
    try store.wear("O")
    let archive = try raw.read { db in
      try Data.fetchOne(db, sql: "SELECT tintColor FROM bowTie WHERE searchKey = 'O'")
    }
    #expect(archive == Data([0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30, 0xff]))
    try raw.write { db in
      // As a store from before the trigger that now refuses such an id could hold one.
      try db.execute(sql: "DROP TRIGGER bowTie_id_update")
      try db.execute(sql: "UPDATE bowTie SET id = 'not-a-uuid' WHERE searchKey = 'I'")
    }
    #expect {
      try store.allTies()
    } throws: { error in
      guard case BowTieError.storeUnreadable(let path, let reason)? = error as? BowTieError else {
        return false
      }
      return path == folder.storeURL.path && reason.contains("'not-a-uuid' is not a UUID")
    }
  }

  @Test("concurrent writers in one process lose nothing")
  func concurrentWears() async throws {
    let folder = TemporaryFolder()
    _ = try folder.openStore()
    let url = folder.storeURL
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          // Separate connections, as separate processes would have.
          let store = try BowTieStore.open(at: url).store
          if try store.count() == 0 { _ = try? store.seed(SampleData.entries()) }
          for _ in 0..<10 { try store.wear("I") }
        }
      }
      try await group.waitForAll()
    }
    #expect(try folder.openStore().tie(matching: "I").timesWorn == 40)
  }

  /// As many valid entries as make a bulk seed (``BowTieStore/bulkSeedSize``), each worn
  /// twice, the last time at a moment of its own.
  private func bulkEntries() -> [SeedEntry] {
    (0..<BowTieStore.bulkSeedSize).map { index in
      SeedEntry(
        index: index,
        tie: BowTie(
          name: "Bulk \(index)", searchKey: "K\(index)", timesWorn: 2,
          lastWorn: Date(timeIntervalSince1970: 1_700_000_000 + Double(index))),
        hasExplicitID: true)
    }
  }
}
