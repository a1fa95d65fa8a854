import Foundation
import PostgresTestSupport
import Testing

/// `seed` of the BowTies app's own Core Data store (Tests/Fixtures/CoreData, which
/// scripts/make-coredata-fixtures.py writes from public descriptions of the format), run
/// on a copy of the fixtures in the test's folder, so that whatever a run leaves beside
/// them shows. Each check runs on a SQLite file (``CoreDataImportTests``) and on
/// PostgreSQL (``CoreDataImportPostgreSQLTests``).
enum CoreDataImport {
  static let fixtures = Fixtures.folder.appendingPathComponent("CoreData")
  static let appFolder = "fixtures/app/Library/Application Support"
  static let repository = Fixtures.folder.deletingLastPathComponent().deletingLastPathComponent()

  /// A store to seed into: the test's SQLite file, or a database on the test server.
  struct Target {
    let store: String
    /// Whether nothing was ever stored there.
    let isUntouched: () throws -> Bool
  }

  static func sqlite(_ bowties: BowtiesSandbox) -> Target {
    Target(store: bowties.store) { !FileManager.default.fileExists(atPath: bowties.store) }
  }

  static func postgreSQL(_ bowties: BowtiesSandbox) throws -> Target {
    let server = try #require(PostgresTestServer.shared)
    let database = try server.makeDatabase()
    // Asked of the server itself: any command would create the store, with the samples.
    return Target(store: database.uri) {
      try server.superuser(
        "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: database.role)
        == "0\n"
    }
  }

  /// The fixtures, copied into the test's folder with their hidden files, and their links
  /// as links.
  static func copyFixtures(into bowties: BowtiesSandbox) throws {
    let copied = try bowties.run("/bin/cp", ["-a", fixtures.path + "/.", "fixtures"])
    try #require(copied.status == 0, "\(copied.stderr)")
  }

  /// Runs `sql` with `sqlite3` on the copied fixture store in `folder` (relative to the
  /// test's folder), as another program would change the app's store.
  static func change(_ folder: String, in bowties: BowtiesSandbox, _ sql: String) throws {
    let store = bowties.folder.appendingPathComponent(folder)
      .appendingPathComponent("BowTies.sqlite").path
    let changed = try bowties.run("/usr/bin/sqlite3", [store, sql])
    try #require(changed.status == 0, "\(changed.stderr)")
  }

  /// The app's store, copied and changed by `sql`, then seeded: refused (65), no store made.
  static func seedRefused(after sql: String, in bowties: BowtiesSandbox) throws
    -> BowtiesSandbox.Result
  {
    try copyFixtures(into: bowties)
    try change(appFolder, in: bowties, sql)
    let seeded = try bowties("seed", appFolder)
    #expect(seeded.status == 65, "\(seeded.stderr.prefix(300))")
    #expect(!FileManager.default.fileExists(atPath: bowties.store))
    return seeded
  }

  /// Every file and folder under `folder`, hidden ones and links included: its bytes (a
  /// link, where it points), mode and modification time.
  static func snapshot(_ folder: URL) throws -> [String: String] {
    var files: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    while let relative = enumerator?.nextObject() as? String {
      let path = folder.appendingPathComponent(relative).path
      var info = stat()
      try #require(lstat(path, &info) == 0)
      let content: String
      if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
        content = "a link to \(link)"
      } else if let data = FileManager.default.contents(atPath: path) {
        content = data.base64EncodedString()
      } else {
        content = "a folder"
      }
      files[relative] =
        "\(content), mode \(info.st_mode), modified \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
    return files
  }

  /// What the app store's rows become, as `list` shows them: the samples, Red as its save
  /// in the -wal left it, Violet in the system purple, and two ties in grey.
  static let appList = """
    R  Red Bow Tie       4/5    ★  #EF3024  worn 10×, last Oct 14, 2026
    O  Orange Bow Tie    3.5/5     #F37B1E  worn 4×, last Sep 2, 2026
    Y  Yellow Bow Tie    2/5       #FDCC0C  worn 2×, last Jun 21, 2026
    G  Green Bow Tie     4.5/5  ★  #229954  worn 7×, last Nov 1, 2026
    B  Blue Bow Tie      5/5    ★  #1D70C4  worn 15×, last Nov 15, 2026
    I  Indigo Bow Tie    3/5       #4B2F91  never worn
    V  Violet Bow Tie    1.5/5     #AF52DE  worn 1×, last Dec 24, 2025
    C  Charcoal Bow Tie  3.5/5     #404040  worn 3×, last Nov 20, 2026
    S  Silver Bow Tie    2.5/5  ★  #BFBFBF  never worn

    """

  /// Seeds the app's store, first the folder as a copy of the app's data container has it,
  /// then the file; checks every tie and photo, and that the source is as it was.
  static func appStore(_ bowties: BowtiesSandbox, _ target: Target) throws {
    try copyFixtures(into: bowties)
    let source = bowties.folder.appendingPathComponent(appFolder)
    let before = try snapshot(source)
    #expect(
      before.keys.sorted() == [
        ".BowTies_SUPPORT", ".BowTies_SUPPORT/_EXTERNAL_DATA",
        ".BowTies_SUPPORT/_EXTERNAL_DATA/E7A1D6C4-0000-4000-8000-000000000005",
        ".BowTies_SUPPORT/_EXTERNAL_DATA/E7A1D6C4-0000-4000-8000-000000000007",
        "BowTies.sqlite", "BowTies.sqlite-shm", "BowTies.sqlite-wal",
      ])
    let store = target.store

    let dryRun = try bowties(["seed", appFolder, "--dry-run"], store: store)
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    #expect(
      dryRun.stdout == """
        add     R  Red Bow Tie
        add     O  Orange Bow Tie
        add     Y  Yellow Bow Tie
        add     G  Green Bow Tie
        add     B  Blue Bow Tie
        add     I  Indigo Bow Tie
        add     V  Violet Bow Tie
        add     C  Charcoal Bow Tie
        add     S  Silver Bow Tie
        would add 9, replace 0, skip 0; nothing changed

        """)
    #expect(try target.isUntouched(), "a dry run stores nothing")

    let seeded = try bowties(["seed", appFolder], store: store)
    #expect(seeded.status == 0 && seeded.stdout == "added 9, replaced 0, skipped 0\n", "\(seeded)")
    let skipped = try bowties(["seed", appFolder + "/BowTies.sqlite"], store: store)
    #expect(skipped.status == 0 && skipped.stdout == "added 0, replaced 0, skipped 9\n")
    let replaced = try bowties(["seed", appFolder + "/BowTies.sqlite", "--replace"], store: store)
    #expect(replaced.status == 0 && replaced.stdout == "added 0, replaced 9, skipped 0\n")
    #expect(try snapshot(source) == before, "the source changed, or a file was added beside it")

    #expect(try bowties(["list"], store: store).stdout == appList)
    let red = try bowties(["show", "R", "--json"], store: store).stdout
    for field in [
      #""id" : "0B0771E5-0000-4000-8000-000000000001""#,
      #""url" : "https://en.wikipedia.org/wiki/Bow_tie""#,
      #""lastWorn" : "2026-10-14T19:30:00Z""#, #""timesWorn" : 10"#, #""isFavorite" : true"#,
      #""photoFormat" : "png""#,
    ] {
      #expect(red.contains(field), "\(field) in \(red)")
    }
    #expect(
      try bowties(["show", "C", "--json"], store: store).stdout.contains(
        #""id" : "0B0771E5-0000-4000-8000-000000000008""#))
    // Blue's and Violet's photos were in the support folder, Red's and Indigo's in their
    // rows, Indigo's only in the -wal: each as the sample's PNG was.
    for (key, image) in [("B", "blue"), ("V", "violet"), ("R", "red"), ("I", "indigo")] {
      let file = bowties.folder.appendingPathComponent("\(key).png")
      let photo = try bowties(["photo", key, "--output", file.path, "--force"], store: store)
      #expect(photo.status == 0, "\(photo.stderr)")
      #expect(
        try Data(contentsOf: file)
          == Data(contentsOf: repository.appendingPathComponent("images/\(image).png")), "\(key)")
    }
    let doctor = try bowties(["doctor"], store: store)
    #expect(doctor.status == 0 && doctor.stdout.hasSuffix("healthy\n"), "\(doctor)")
  }

  /// The import, exported, seeded into a new store and exported again: the same bytes,
  /// and the same ties.
  static func roundTrip(_ bowties: BowtiesSandbox, _ first: Target, _ second: Target) throws {
    try copyFixtures(into: bowties)
    #expect(try bowties(["seed", appFolder], store: first.store).status == 0)
    for format in [["--format", "plist"], ["--format", "json"]] {
      let one = bowties.folder.appendingPathComponent("one.\(format[1])").path
      let two = bowties.folder.appendingPathComponent("two.\(format[1])").path
      let exported = try bowties(
        ["export", "--output", one, "--force"] + format, store: first.store)
      #expect(exported.status == 0, "\(exported.stderr)")
      let seeded = try bowties(["seed", one, "--replace"], store: second.store)
      #expect(seeded.status == 0, "\(seeded.stderr)")
      #expect(
        try bowties(["export", "--output", two, "--force"] + format, store: second.store).status
          == 0
      )
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: one))
          == Data(contentsOf: URL(fileURLWithPath: two)))
      #expect(
        try bowties(["list", "--json"], store: first.store).stdout
          == bowties(["list", "--json"], store: second.store).stdout)
    }
  }

  /// The earlier editions' store: entity BowtiesSandbox, no ZID or ZURL, found by its content in
  /// its folder under its own name.
  static func olderModel(_ bowties: BowtiesSandbox, _ target: Target) throws {
    try copyFixtures(into: bowties)
    let seeded = try bowties(["seed", "fixtures/older-model"], store: target.store)
    #expect(seeded.status == 0 && seeded.stdout == "added 2, replaced 0, skipped 0\n", "\(seeded)")
    #expect(
      try bowties(["list"], store: target.store).stdout == """
        P  Plum Bow Tie  3/5       #8E4585  worn 2×, last Mar 1, 2026
        T  Tan Bow Tie   4.5/5  ★  none     never worn

        """)
    // Tan's photo was in the support folder, .Bow_Ties_SUPPORT, Plum's in its row.
    for (key, image) in [("T", "orange"), ("P", "violet")] {
      let file = bowties.folder.appendingPathComponent("\(key).png")
      #expect(try bowties(["photo", key, "--output", file.path], store: target.store).status == 0)
      #expect(
        try Data(contentsOf: file)
          == Data(contentsOf: repository.appendingPathComponent("images/\(image).png")), "\(key)")
    }
  }

  /// Each store bowties refuses, and the one line that says why.
  static let refusals: [(folder: String, message: String)] = [
    (
      "damaged-color",
      "bowties: fixtures/damaged-color/BowTies.sqlite: row Z_PK 2 (Rust Bow Tie): ZTINTCOLOR cannot be read: malformed binary property list: reference size 37 is not 1...8\n"
    ),
    (
      "dynamic-color",
      "bowties: fixtures/dynamic-color/BowTies.sqlite: row Z_PK 2 (Rust Bow Tie): ZTINTCOLOR cannot be read: cannot decode UIColor: it is a dynamic color (UIDynamicCatalogBundleIdentifier), which changes with the device's settings\n"
    ),
    (
      "catalog-color",
      "bowties: fixtures/catalog-color/BowTies.sqlite: row Z_PK 2 (Rust Bow Tie): ZTINTCOLOR cannot be read: cannot decode NSColor: it is a catalog color (System controlAccentColor), which depends on the system's color lists\n"
    ),
    (
      "missing-component",
      "bowties: fixtures/missing-component/BowTies.sqlite: row Z_PK 2 (Rust Bow Tie): ZTINTCOLOR cannot be read: cannot decode UIColor: key \"UIGreen\" is missing\n"
    ),
    (
      "bad-rating",
      "bowties: fixtures/bad-rating/BowTies.sqlite: row Z_PK 2 (Rust Bow Tie): ZRATING 7 is outside 0…5\n"
    ),
    (
      "bad-photo",
      "bowties: fixtures/bad-photo/BowTies.sqlite: row Z_PK 2 (Rust Bow Tie): ZPHOTODATA: a GIF image, which bowties cannot read (PNG and JPEG only); convert it first: convert photo.gif photo.png\n"
    ),
    (
      "another-app",
      "bowties: fixtures/another-app/Notes.sqlite: a Core Data store of another app: its entities are Folder, Note, and the BowTies app's is BowTie\n"
    ),
    (
      "newer-model",
      "bowties: fixtures/newer-model/BowTies.sqlite: a store of a newer version of the BowTies app: ZBOWTIE has columns bowties does not know (ZWORNWITH)\n"
    ),
    (
      "missing-photo",
      "bowties: fixtures/missing-photo/BowTies.sqlite: row Z_PK 1 (Teal Bow Tie): ZPHOTODATA is kept in .BowTies_SUPPORT/_EXTERNAL_DATA/8D2A3C5E-0000-4000-8000-000000000001, which is missing\n"
    ),
    (
      "photo-outside",
      "bowties: fixtures/photo-outside/BowTies.sqlite: row Z_PK 1 (Teal Bow Tie): ZPHOTODATA is kept in .BowTies_SUPPORT/_EXTERNAL_DATA/8D2A3C5E-0000-4000-8000-000000000002, a link out of the support folder\n"
    ),
    (
      "photo-name",
      "bowties: fixtures/photo-name/BowTies.sqlite: row Z_PK 1 (Teal Bow Tie): ZPHOTODATA names the external file '../../outside.png', which is not a plain file name\n"
    ),
  ]

  /// A store seeded with the older model's ties first: a refused seed must leave them,
  /// and add nothing.
  static func refused(_ bowties: BowtiesSandbox, _ target: Target, folder: String, message: String)
    throws
  {
    try copyFixtures(into: bowties)
    #expect(try bowties(["seed", "fixtures/older-model"], store: target.store).status == 0)
    let before = try bowties(["list", "--json"], store: target.store).stdout
    let source = bowties.folder.appendingPathComponent("fixtures/\(folder)")
    let files = try snapshot(source)
    for arguments in [
      ["seed", "fixtures/\(folder)"], ["seed", "fixtures/\(folder)", "--dry-run"],
    ] {
      let result = try bowties(arguments, store: target.store)
      #expect(result.status == 65, "\(arguments): \(result)")
      #expect(result.stderr == message && result.stdout.isEmpty, "\(arguments)")
    }
    #expect(try bowties(["list", "--json"], store: target.store).stdout == before)
    #expect(try snapshot(source) == files)
  }
}

@Suite("Importing the iOS app's Core Data store")
struct CoreDataImportTests {
  @Test(
    "the app's store seeds every tie, the -wal's rows and the external photos included, and is left byte for byte as it was"
  )
  func appStore() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.appStore(bowties, CoreDataImport.sqlite(bowties))
  }

  @Test("the import, exported and seeded into a new store, exports the same again")
  func roundTrip() throws {
    let bowties = BowtiesSandbox()
    let other = bowties.folder.appendingPathComponent("other.sqlite").path
    try CoreDataImport.roundTrip(
      bowties, CoreDataImport.sqlite(bowties),
      CoreDataImport.Target(store: other) { !FileManager.default.fileExists(atPath: other) })
  }

  @Test("the earlier editions' store, without ZID and ZURL, seeds")
  func olderModel() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.olderModel(bowties, CoreDataImport.sqlite(bowties))
  }

  @Test(
    "a store bowties cannot read wholly is refused in one line, exit 65, and nothing is imported",
    arguments: CoreDataImport.refusals)
  func refused(folder: String, message: String) throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.refused(
      bowties, CoreDataImport.sqlite(bowties), folder: folder, message: message)
  }

  @Test(
    "a date keeps its fraction of a second, a colour its components as archived, and each tie its wear in the history"
  )
  func storedAsTheyCame() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.copyFixtures(into: bowties)
    #expect(try bowties("seed", CoreDataImport.appFolder).status == 0)
    #expect(
      try bowties.sqlite("SELECT searchKey, lastWorn FROM bowTie WHERE searchKey IN ('C', 'R')")
        == "R|2026-10-14T19:30:00.000Z\nC|2026-11-20T07:05:30.125Z\n")
    #expect(try bowties("history", "C").stdout == "Nov 20, 2026 at 7:05 AM  C  Charcoal Bow Tie\n")
    // Charcoal's grey 0.25, UIKit's float 3E800000 after the binary plist's marker 22 for a
    // 4-byte real, not 64/255 (3E808081) as an 8-bit colour would have it.
    let charcoal = try bowties.sqlite("SELECT hex(tintColor) FROM bowTie WHERE searchKey = 'C'")
    #expect(charcoal.contains("223E800000") && !charcoal.contains("3E808081"), "\(charcoal)")
    #expect(try bowties("show", "C", "--json").stdout.contains(#""red" : 64"#))
    #expect(try bowties("seed", "fixtures/older-model").status == 0)
    #expect(
      try bowties.sqlite("SELECT lastWorn FROM bowTie WHERE searchKey = 'P'")
        == "2026-03-01T08:00:00.500Z\n")
  }

  @Test("--no-photos reads no photo, and a replaced tie keeps the photo it has")
  func noPhotos() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.copyFixtures(into: bowties)
    // The missing file is not looked for.
    let missing = try bowties("seed", "fixtures/missing-photo", "--no-photos")
    #expect(
      missing.status == 0 && missing.stdout == "added 1, replaced 0, skipped 0\n", "\(missing)")
    #expect(try bowties("seed", CoreDataImport.appFolder).status == 0)
    let photos = try bowties.sqlite("SELECT searchKey, photoSize FROM bowTie ORDER BY searchKey")
    let again = try bowties("seed", CoreDataImport.appFolder, "--replace", "--no-photos")
    #expect(again.stdout == "added 0, replaced 9, skipped 0\n", "\(again)")
    #expect(
      try bowties.sqlite("SELECT searchKey, photoSize FROM bowTie ORDER BY searchKey") == photos)
    let other = BowtiesSandbox()
    try CoreDataImport.copyFixtures(into: other)
    #expect(try other("seed", CoreDataImport.appFolder, "--no-photos").status == 0)
    #expect(try other.sqlite("SELECT count(*) FROM bowTie WHERE photoSize IS NOT NULL") == "0\n")
  }

  @Test("a folder's SQLite files are told apart by content: the app's store is the one read")
  func foldersOfStores() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.copyFixtures(into: bowties)
    let folder = bowties.folder.appendingPathComponent("mixed")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let fixtures = bowties.folder.appendingPathComponent("fixtures")
    // Another app's store, and the older model's under a name that says nothing.
    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent("another-app/Notes.sqlite"),
      to: folder.appendingPathComponent("Notes.sqlite"))
    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent("older-model/Bow_Ties.sqlite"),
      to: folder.appendingPathComponent("data.bin"))
    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent("older-model/.Bow_Ties_SUPPORT"),
      to: folder.appendingPathComponent(".data_SUPPORT"))
    let seeded = try bowties("seed", "mixed")
    #expect(seeded.status == 0 && seeded.stdout == "added 2, replaced 0, skipped 0\n", "\(seeded)")

    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent("older-model/Bow_Ties.sqlite"),
      to: folder.appendingPathComponent("copy.sqlite"))
    let two = try bowties("seed", "mixed")
    #expect(two.status == 64, "\(two)")
    #expect(
      two.stderr
        == "bowties: mixed holds 2 stores of the BowTies app (copy.sqlite, data.bin): give the path of the one to seed\n"
    )

    let others = bowties.folder.appendingPathComponent("others")
    try FileManager.default.createDirectory(at: others, withIntermediateDirectories: true)
    for name in ["Notes.sqlite", "Other.sqlite"] {
      try FileManager.default.copyItem(
        at: fixtures.appendingPathComponent("another-app/Notes.sqlite"),
        to: others.appendingPathComponent(name))
    }
    let none = try bowties("seed", "others")
    #expect(none.status == 65, "\(none)")
    #expect(
      none.stderr
        == "bowties: others: none of its SQLite files is the BowTies app's store: Notes.sqlite, a Core Data store of another app: its entities are Folder, Note, and the BowTies app's is BowTie; Other.sqlite, a Core Data store of another app: its entities are Folder, Note, and the BowTies app's is BowTie\n"
    )
  }

  @Test("a ZLASTWORN after today is refused as a wear after today would be, and nothing stored")
  func futureLastWorn() throws {
    // Core Data's timestamps count seconds from 2001-01-01; 2.0e9 is in 2064.
    let seeded = try CoreDataImport.seedRefused(
      after: "UPDATE ZBOWTIE SET ZLASTWORN = 2.0e9 WHERE ZSEARCHKEY = 'R'", in: BowtiesSandbox())
    #expect(
      seeded.stderr.contains("ZLASTWORN is after today: a wear is today or earlier"), "\(seeded)")
  }

  @Test(
    "any other SQLite file, a -wal, a damaged file and a store on standard input are refused by what they are"
  )
  func otherFiles() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.copyFixtures(into: bowties)
    // bowties' own store is a SQLite file, not a Core Data store.
    #expect(try bowties("seed", "fixtures/older-model").status == 0)
    let ownStore = bowties.folder.appendingPathComponent("own.sqlite").path
    try FileManager.default.copyItem(atPath: bowties.store, toPath: ownStore)
    let own = try bowties("seed", "own.sqlite")
    #expect(own.status == 65, "\(own)")
    #expect(
      own.stderr
        == "bowties: own.sqlite: a SQLite database, but not a Core Data store (it has no Z_PRIMARYKEY and Z_METADATA tables)\n"
    )
    let wal = try bowties("seed", CoreDataImport.appFolder + "/BowTies.sqlite-wal")
    #expect(wal.status == 65, "\(wal)")
    #expect(
      wal.stderr
        == "bowties: \(CoreDataImport.appFolder)/BowTies.sqlite-wal: the -wal file of a SQLite store; give the store itself, the file beside it\n"
    )
    var damaged = Data("SQLite format 3\0".utf8)
    damaged.append(Data(repeating: 0xA5, count: 4096))
    try damaged.write(to: bowties.folder.appendingPathComponent("damaged.sqlite"))
    let broken = try bowties("seed", "damaged.sqlite")
    #expect(broken.status == 65, "\(broken)")
    #expect(
      broken.stderr.hasPrefix("bowties: damaged.sqlite: not a readable SQLite database (")
        && broken.stderr.split(separator: "\n").count == 1, "\(broken.stderr)")
    let piped = try bowties(
      "seed", "-",
      stdin: try Data(
        contentsOf: bowties.folder.appendingPathComponent("fixtures/older-model/Bow_Ties.sqlite")))
    #expect(piped.status == 65, "\(piped)")
    #expect(
      piped.stderr
        == "bowties: standard input: a SQLite database; give its path instead, so that its -wal and its photos are read with it\n"
    )
    #expect(try bowties("list").stdout.hasPrefix("P  Plum Bow Tie"), "nothing else was stored")
  }

  @Test(
    "Z_METADATA must be a binary plist naming a SQLite store; the model's version hashes are not checked"
  )
  func metadata() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.copyFixtures(into: bowties)
    func setMetadata(_ plist: [String: Any]?) throws -> BowtiesSandbox.Result {
      let blob =
        try plist.map {
          try PropertyListSerialization.data(fromPropertyList: $0, format: .binary, options: 0)
        } ?? Data("<plist/>".utf8)
      let hex = blob.map { String(format: "%02X", $0) }.joined()
      try CoreDataImport.change(
        "fixtures/bad-rating", in: bowties,
        "UPDATE Z_METADATA SET Z_PLIST = X'\(hex)'; UPDATE ZBOWTIE SET ZRATING = 1")
      return try bowties("seed", "fixtures/bad-rating", "--dry-run")
    }
    let notBinary = try setMetadata(nil)
    #expect(notBinary.status == 65)
    #expect(
      notBinary.stderr
        == "bowties: fixtures/bad-rating/BowTies.sqlite: a Core Data store whose metadata (Z_METADATA) is not a binary property list\n"
    )
    let binaryStore = try setMetadata(["NSStoreType": "Binary", "NSStoreUUID": "X"])
    #expect(binaryStore.status == 65)
    #expect(
      binaryStore.stderr
        == "bowties: fixtures/bad-rating/BowTies.sqlite: a Core Data store whose metadata says its type is 'Binary', not SQLite\n"
    )
    // Hashes of another model version, and none at all: the store reads the same.
    let otherHashes = try setMetadata([
      "NSStoreType": "SQLite",
      "NSStoreModelVersionHashes": ["BowTie": Data(repeating: 7, count: 32)],
    ])
    #expect(
      otherHashes.status == 0
        && otherHashes.stdout.hasSuffix("would add 3, replace 0, skip 0; nothing changed\n"),
      "\(otherHashes)")
  }

  @Test(
    "a NUL in a ZNAME, or bytes that are not UTF-8, are refused (65), not cut short or replaced",
    arguments: [
      ("'Red' || char(0) || ' Tie'", "row Z_PK 1 (Red): ZNAME contains control characters"),
      ("CAST(x'526564ff20546965' AS TEXT)", "ZNAME is not UTF-8 text"),
    ])
  func textAsStored(_ name: String, _ message: String) throws {
    let bowties = BowtiesSandbox()
    let seeded = try CoreDataImport.seedRefused(
      after: "UPDATE ZBOWTIE SET ZNAME = \(name) WHERE ZSEARCHKEY = 'R'", in: bowties)
    #expect(seeded.stderr.hasSuffix(message + "\n"), "\(seeded)")
    // Text that is UTF-8, a euro sign's three bytes among it, comes across as it is.
    try CoreDataImport.change(
      CoreDataImport.appFolder, in: bowties,
      "UPDATE ZBOWTIE SET ZNAME = CAST(x'526564e282ac20546965' AS TEXT) WHERE ZSEARCHKEY = 'R'")
    #expect(try bowties("seed", CoreDataImport.appFolder).status == 0)
    #expect(try bowties("show", "R").stdout.hasPrefix("Red€ Tie\n"))
  }

  @Test("a refused row's name is quoted in part: a million-character ZNAME is no million-byte line")
  func longNameQuotedInPart() throws {
    let seeded = try CoreDataImport.seedRefused(
      after:
        "UPDATE ZBOWTIE SET ZNAME = replace(hex(zeroblob(500000)), '0', 'N') WHERE ZSEARCHKEY = 'R'",
      in: BowtiesSandbox())
    #expect(seeded.stderr.utf8.count < 400, "\(seeded.stderr.prefix(300))")
    #expect(seeded.stderr.contains("NNN…): "), "\(seeded.stderr.prefix(300))")
  }

  @Test("a row that repeats another's key is named with both rows' Z_PK")
  func repeatedKey() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.copyFixtures(into: bowties)
    try CoreDataImport.change(
      "fixtures/bad-rating", in: bowties,
      "UPDATE ZBOWTIE SET ZRATING = 4, ZSEARCHKEY = 't' WHERE Z_PK = 2")
    let result = try bowties("seed", "fixtures/bad-rating")
    #expect(result.status == 65, "\(result)")
    #expect(
      result.stderr
        == "bowties: fixtures/bad-rating/BowTies.sqlite: row Z_PK 2 (Rust Bow Tie): ZSEARCHKEY 't' repeats row Z_PK 1 (Teal Bow Tie)\n"
    )
  }

  @Test("a temporary folder that cannot take the copy is said so, exit 73, and nothing changes")
  func noRoomForTheCopy() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.copyFixtures(into: bowties)
    let notAFolder = bowties.folder.appendingPathComponent("file").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: notAFolder))
    let result = try bowties(
      "seed", CoreDataImport.appFolder, environment: ["TMPDIR": notAFolder])
    #expect(result.status == 73, "\(result)")
    #expect(
      result.stderr
        == "bowties: cannot write \(notAFolder)/: not a directory (a private copy of the store is read there; set TMPDIR to another folder)\n"
    )
    #expect(!FileManager.default.fileExists(atPath: bowties.store))
  }

  @Test(
    "a temporary folder without room for the copy: exit 73, nothing stored, nothing left there",
    .enabled(if: ScratchMount.available))
  func fullTemporaryFolder() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.copyFixtures(into: bowties)
    let temporary = bowties.folder.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    // Less than the store's 68 KiB.
    let mount = try ScratchMount(over: temporary, size: "32k")
    defer { mount.unmount() }
    let result = try bowties(
      "seed", CoreDataImport.appFolder, environment: ["TMPDIR": temporary.path])
    #expect(result.status == 73, "\(result)")
    #expect(
      result.stderr.hasPrefix("bowties: cannot write \(temporary.path)/bowties-import.")
        && result.stderr.hasSuffix(
          ": no space left on device (a private copy of the store is read there; set TMPDIR to another folder)\n"
        ), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: bowties.store))
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
  }

  @Test("a store its user may only read, on a folder they may only read, seeds")
  func readOnlySource() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.copyFixtures(into: bowties)
    // Root writes any file whatever its mode, so as root the seed runs as nobody.
    let asUser = getuid() == 0 ? BowtiesSandbox.asUser(BowtiesSandbox.nobody) : []
    if getuid() == 0 {
      try #require(
        try bowties.run("/usr/bin/chown", ["-R", "65534:65534", bowties.folder.path]).status == 0)
    }
    let source = bowties.folder.appendingPathComponent(CoreDataImport.appFolder)
    try #require(
      try bowties.run("/bin/chmod", ["-R", "a-w", source.path]).status == 0)
    defer { _ = try? bowties.run("/bin/chmod", ["-R", "u+w", source.path]) }
    let before = try CoreDataImport.snapshot(source)
    let command =
      asUser + [
        BowtiesSandbox.binary.path, "seed", CoreDataImport.appFolder, "--store", bowties.store,
      ]
    let result = try bowties.run(command[0], Array(command.dropFirst()))
    #expect(result.status == 0 && result.stdout == "added 9, replaced 0, skipped 0\n", "\(result)")
    #expect(try CoreDataImport.snapshot(source) == before)
  }
}

@Suite(
  "Importing the iOS app's Core Data store, on PostgreSQL",
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct CoreDataImportPostgreSQLTests {
  @Test("the app's store seeds the same ties, photos and history as on a SQLite file")
  func appStore() throws {
    let bowties = BowtiesSandbox()
    let target = try CoreDataImport.postgreSQL(bowties)
    try CoreDataImport.appStore(bowties, target)
    // Every command answers as on a file seeded from the same store.
    #expect(try bowties("seed", CoreDataImport.appFolder).status == 0)
    for command in [
      ["list", "--json"], ["show", "C", "--json"], ["history"], ["history", "--json"],
    ] {
      #expect(
        try bowties(command, store: target.store).stdout
          == bowties(command, store: bowties.store).stdout,
        "\(command)")
    }
  }

  @Test("a dry run of any seed on a database without a store creates none, as on a file")
  func dryRunCreatesNoStore() throws {
    let bowties = BowtiesSandbox()
    let target = try CoreDataImport.postgreSQL(bowties)
    let plist = bowties.folder.appendingPathComponent("one.plist")
    try Data(
      """
      <plist version="1.0"><array><dict><key>name</key><string>Teal</string>
      <key>searchKey</key><string>T</string><key>rating</key><real>4</real></dict></array></plist>
      """.utf8
    ).write(to: plist)
    let dryRun = try bowties(["seed", plist.path, "--dry-run"], store: target.store)
    #expect(dryRun.stdout == "add     T  Teal\nwould add 1, replace 0, skip 0; nothing changed\n")
    #expect(try target.isUntouched())
    let seeded = try bowties(["seed", plist.path], store: target.store)
    #expect(seeded.stdout == "added 1, replaced 0, skipped 0\n", "\(seeded)")
  }

  @Test("the import, exported and seeded into a new store, exports the same again")
  func roundTrip() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.roundTrip(
      bowties, CoreDataImport.postgreSQL(bowties), CoreDataImport.postgreSQL(bowties))
  }

  @Test("the earlier editions' store, without ZID and ZURL, seeds")
  func olderModel() throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.olderModel(bowties, CoreDataImport.postgreSQL(bowties))
  }

  @Test(
    "a store bowties cannot read wholly is refused in one line, exit 65, and nothing is imported",
    arguments: CoreDataImport.refusals)
  func refused(folder: String, message: String) throws {
    let bowties = BowtiesSandbox()
    try CoreDataImport.refused(
      bowties, CoreDataImport.postgreSQL(bowties), folder: folder, message: message)
  }
}
