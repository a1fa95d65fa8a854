import Foundation
import Testing

/// `doctor`, `backup` and `restore`, through the binary.
@Suite("Maintenance")
struct MaintenanceCommandTests {
  private func photo(bytes: Int) -> Data {
    // Only the size decides where a photo lives.
    testPNG(bytes: bytes)
  }

  private var photoFolder: (BowtiesSandbox) -> URL {
    { $0.folder.appendingPathComponent(".BowTies_SUPPORT/_EXTERNAL_DATA") }
  }

  @Test("doctor finds what other tools broke, repairs what it can, and says what remains")
  func doctor() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let healthy = try bowties("doctor")
    #expect(healthy.status == 0 && healthy.stdout.hasSuffix("healthy\n"), "\(healthy)")
    try photo(bytes: 200_000).write(to: bowties.folder.appendingPathComponent("big.png"))
    try #require(try bowties("edit", "B", "--photo", "big.png").status == 0)
    try bowties.sqlite(
      """
      UPDATE bowTie SET searchKey = 'rr' WHERE searchKey = 'R';
      UPDATE bowTie SET timesWorn = timesWorn + 5 WHERE searchKey = 'G';
      UPDATE bowTie SET tintColor = x'62706c6973743030ff' WHERE searchKey = 'O';
      UPDATE bowTie SET searchKey = 'Y Y' WHERE searchKey = 'Y';
      """)
    let photos = photoFolder(bowties)
    let blueFile = try #require(
      try FileManager.default.contentsOfDirectory(atPath: photos.path).first)
    try Data("changed".utf8).write(to: photos.appendingPathComponent(blueFile))
    let stray = String(repeating: "0", count: 64)
    try Data("stray".utf8).write(to: photos.appendingPathComponent(stray))
    try Data("mine".utf8).write(to: photos.appendingPathComponent("notes.txt"))

    let found = try bowties("doctor", "--json")
    #expect(found.status == 65)
    let report = try #require(
      JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any])
    #expect(report["healthy"] as? Bool == false && report["tiesChecked"] as? Int == 7)
    let problems = try #require(report["problems"] as? [[String: Any]])
    let kinds = problems.map { "\($0["kind"]!) \($0["subject"] ?? "-")" }.sorted()
    #expect(
      kinds == [
        "color Orange Bow Tie (O)", "invalidRow Green Bow Tie (G)", "invalidRow Red Bow Tie (rr)",
        "invalidRow Yellow Bow Tie (Y Y)", "invalidRow Yellow Bow Tie (Y Y)",
        "orphanedPhoto \(stray)", "orphanedPhoto notes.txt", "photo Blue Bow Tie (B)",
      ], "\(kinds)")
    #expect(problems.allSatisfy { $0["repaired"] as? Bool == false })

    let repaired = try bowties("doctor", "--repair")
    #expect(repaired.status == 65, "\(repaired)")
    #expect(repaired.stdout.contains("repaired  orphanedPhoto  \(stray)"))
    #expect(repaired.stdout.contains("problem   orphanedPhoto  notes.txt: bowties did not write"))
    #expect(repaired.stdout.contains("repaired  invalidRow  Red Bow Tie (rr)"))
    #expect(repaired.stdout.contains("problem   color  Orange Bow Tie (O)"))
    #expect(repaired.stdout.hasSuffix("4 problems remain\n"), "\(repaired.stdout)")
    #expect(!FileManager.default.fileExists(atPath: photos.appendingPathComponent(stray).path))
    #expect(FileManager.default.fileExists(atPath: photos.appendingPathComponent("notes.txt").path))
    try FileManager.default.removeItem(at: photos.appendingPathComponent("notes.txt"))
    // The repaired rows read as the other tool meant them.
    #expect(try bowties("show", "rr").status == 0)
    #expect(try bowties.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'G'") == "12\n")
    try bowties("wear", "G")
    #expect(try bowties.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'G'") == "13\n")

    // What doctor cannot fix, the user can.
    try bowties("edit", "O", "--color", "orange")
    try bowties("edit", "B", "--no-photo")
    try bowties("edit", "Yellow Bow Tie", "--key", "Y")
    let fixed = try bowties("doctor")
    #expect(fixed.status == 0 && fixed.stdout.hasSuffix("healthy\n"), "\(fixed)")
  }

  @Test("a date before October 1582 reads the same in text as in JSON: proleptic Gregorian")
  func datesBeforeTheGregorianReform() throws {
    let bowties = BowtiesSandbox()
    #expect(try bowties("edit", "R", "--last-worn", "1000-03-01").status == 0)
    let json = try bowties("show", "R", "--json").stdout
    #expect(json.contains("\"lastWorn\" : \"1000-03-01T00:00:00Z\""), "\(json)")
    for locale in ["C", "en_US.UTF-8"] {
      let shown = try bowties("show", "R", environment: ["LANG": locale]).stdout
      #expect(shown.contains("Last worn   Mar 1, 1000\n"), "\(locale): \(shown)")
    }
    let report = try bowties("report", "--as-of", "1000-03-02").stdout
    #expect(report.hasPrefix("Bow-tie report as of Mar 2, 1000\n"), "\(report)")
  }

  @Test("a wear before the year 1 is refused; one stored so is found by doctor, and repaired")
  func wearDatesOutOfRange() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let count =
      "SELECT timesWorn, (SELECT count(*) FROM wearEvent) FROM bowTie WHERE searchKey = 'R'"
    let before = try bowties.sqlite(count)
    let refused = try bowties("wear", "R", "--date", "-3000y")
    #expect(refused.status == 65, "\(refused)")
    #expect(refused.stderr == "bowties: '-3000y' is not a date: years go from 0001 to 9999\n")
    #expect(try bowties.sqlite(count) == before)

    // As a store written before the check holds it: history stops there, doctor says why.
    try bowties.sqlite(
      """
      UPDATE wearEvent SET wornAt = ')'')--09-26T00:00:00.000Z'
      WHERE tieId = (SELECT id FROM bowTie WHERE searchKey = 'R')
      """)
    #expect(try bowties("history").status == 74)
    let found = try bowties("doctor")
    #expect(found.status == 65, "\(found)")
    #expect(
      found.stdout.contains("problem   invalidRow  Red Bow Tie (R): wear ")
        && found.stdout.contains("its date ')')--09-26T00:00:00.000Z' cannot be read"),
      "\(found.stdout)")
    let repaired = try bowties("doctor", "--repair")
    #expect(repaired.status == 0, "\(repaired)")
    #expect(try bowties("history").status == 0)
    // The wear still counts, from before the history.
    #expect(before == "10|6\n")
    #expect(try bowties.sqlite(count) == "10|5\n")
    #expect(try bowties("doctor").stdout.hasSuffix("healthy\n"))
  }

  @Test(
    "values another tool wrote that cannot be read: doctor --repair clears those a tie can do without"
  )
  func unreadableOptionalValues() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    // A date as a Julian day, a price in words, a link as bytes or as no absolute URL.
    try bowties.sqlite(
      """
      UPDATE bowTie SET lastWorn = 2461371.5 WHERE searchKey = 'O';
      UPDATE bowTie SET price = 'twelve', currency = 'EUR' WHERE searchKey = 'Y';
      UPDATE bowTie SET url = x'00ff' WHERE searchKey = 'G';
      UPDATE bowTie SET url = 'javascript:alert(1)' WHERE searchKey = 'I';
      """)
    let blocked = try bowties("list")
    #expect(blocked.status == 74, "\(blocked)")
    let found = try bowties("doctor")
    #expect(found.status == 65)
    for line in [
      "problem   invalidRow  row 0B0771E5-0000-4000-8000-000000000002: cannot be read: a row's "
        + "date '2461371.5' cannot be read; --repair clears its lastWorn (lastWorn becomes its "
        + "last recorded wear, if any)",
      "problem   invalidRow  row 0B0771E5-0000-4000-8000-000000000003: cannot be read: a row's "
        + "price 'twelve' is not a number; --repair clears its price",
      "problem   invalidRow  row 0B0771E5-0000-4000-8000-000000000004: cannot be read: a row's "
        + "url cannot be read (2 bytes); --repair clears its url",
      "problem   invalidRow  Indigo Bow Tie (I): url 'javascript:alert(1)' is not an absolute "
        + "URL with a host (https://…); --repair clears its url",
    ] {
      #expect(found.stdout.contains(line + "\n"), "\(found.stdout)")
    }
    let repaired = try bowties("doctor", "--repair")
    #expect(repaired.status == 0, "\(repaired)")
    #expect(try bowties("doctor").stdout.hasSuffix("healthy\n"))
    // O's last wear in its history; nothing else of the ties changed.
    let lastWear = try bowties.sqlite(
      "SELECT max(wornAt) FROM wearEvent JOIN bowTie ON bowTie.id = tieId WHERE searchKey = 'O'")
    #expect(lastWear.hasPrefix("2026-"))
    #expect(
      try bowties.sqlite(
        """
        SELECT searchKey, lastWorn, price IS NULL AND currency IS NULL, url IS NULL FROM bowTie
        WHERE searchKey IN ('O', 'Y', 'G', 'I') ORDER BY searchKey
        """)
        == "G|2026-11-01T18:45:00.000Z|1|1\nI||1|1\nO|\(lastWear.dropLast())|1|0\n"
        + "Y|2026-06-21T12:00:00.000Z|1|0\n")
    #expect(try bowties("list").status == 0)

    // An id that is no UUID, written before the triggers that now refuse one (sqlite3
    // leaves foreign keys off): --repair gives the tie a new id, with its wear.
    try bowties.sqlite(
      """
      DROP TRIGGER bowTie_id_update;
      DROP TRIGGER wearEvent_tieId_update;
      UPDATE wearEvent SET tieId = 'tie-7' WHERE tieId = (SELECT id FROM bowTie WHERE searchKey = 'V');
      UPDATE bowTie SET id = 'tie-7' WHERE searchKey = 'V';
      """)
    #expect(try bowties("list").status == 74)
    let identity = try bowties("doctor")
    #expect(identity.status == 65)
    #expect(
      identity.stdout.contains(
        "problem   invalidRow  row tie-7: cannot be read: a row's id 'tie-7' is not a UUID; "
          + "--repair gives it a new id\n"),
      "\(identity.stdout)")
    let renamed = try bowties("doctor", "--repair")
    #expect(renamed.status == 0, "\(renamed)")
    #expect(try bowties("doctor").stdout.hasSuffix("healthy\n"))
    #expect(
      try bowties.sqlite(
        """
        SELECT id GLOB '????????-????-????-????-????????????', timesWorn, wearsBeforeHistory,
          (SELECT count(*) FROM wearEvent WHERE tieId = bowTie.id)
        FROM bowTie WHERE searchKey = 'V'
        """) == "1|1|0|1\n")
    #expect(try bowties("history", "V").stdout.contains("Dec 24, 2025"))
    #expect(try bowties("list").status == 0)
  }

  @Test(
    "a key another tool gave a second tie: doctor names the tie that holds it and repairs the rest")
  func keyHeldByAnotherTie() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    // Key 'r' is Red Bow Tie's (R), whatever its case, but the row says 'whatever', and its
    // wear count is off by two.
    let id = "B8F193D2-51E9-42C5-99FF-18666DF66589"
    try bowties.sqlite(
      """
      INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating, timesWorn)
        VALUES ('\(id)', 'Red Two', 'red two', 'r', 'whatever', 3, 2)
      """)
    let detail =
      "invalidRow  Red Two (r): its search columns do not match its name and key, and its "
      + "key is Red Bow Tie (R)'s too; give it another with edit \(id) --key NEW\n"
    let found = try bowties("doctor")
    #expect(found.status == 65)
    #expect(found.stdout.contains("problem   " + detail), "\(found.stdout)")
    // The rest is repaired; the key stays as stored, where a repair failed whole on it.
    let repaired = try bowties("doctor", "--repair")
    #expect(repaired.status == 65, "\(repaired)")
    #expect(repaired.stdout.contains("repaired  invalidRow  Red Two (r): timesWorn 2"))
    #expect(repaired.stdout.contains("problem   " + detail), "\(repaired.stdout)")
    #expect(
      try bowties.sqlite("SELECT canonicalKey, wearsBeforeHistory FROM bowTie WHERE id = '\(id)'")
        == "whatever|2\n")
    #expect(try bowties("edit", id, "--key", "R2").status == 0)
    #expect(try bowties("doctor").stdout.hasSuffix("healthy\n"))

    // Two rows whose keys both become 'p', which no tie holds yet: the first takes it.
    try bowties.sqlite(
      """
      INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating) VALUES
        ('B8F193D2-51E9-42C5-99FF-000000000001', 'Paisley', 'paisley', 'P', 'x1', 3),
        ('B8F193D2-51E9-42C5-99FF-000000000002', 'Plaid', 'plaid', 'p', 'x2', 3)
      """)
    let both = try bowties("doctor", "--repair")
    #expect(both.status == 65, "\(both)")
    #expect(
      both.stdout.contains(
        "repaired  invalidRow  Paisley (P): its search columns do not match its name and key\n"),
      "\(both.stdout)")
    #expect(
      both.stdout.contains(
        "problem   invalidRow  Plaid (p): its search columns do not match its name and key, and "
          + "its key is Paisley (P)'s too; give it another with edit "
          + "B8F193D2-51E9-42C5-99FF-000000000002 --key NEW\n"),
      "\(both.stdout)")
    #expect(
      try bowties.sqlite(
        "SELECT name, canonicalKey FROM bowTie WHERE canonicalKey IN ('p', 'x2') ORDER BY name")
        == "Paisley|p\nPlaid|x2\n")
  }

  @Test("a tie another tool added with a lower-case id works after the upgrade; no new one gets in")
  func lowerCaseIDs() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    // The store as bowties left it before ids were checked, then a tie, a wear and an undo
    // entry added with sqlite3 under a lower-case UUID (as uuidgen and Python print one),
    // and a wear whose tie is gone.
    let id = "b8f193d2-51e9-42c5-99ff-18666df66589"
    try bowties.sqlite(
      """
      DROP TRIGGER bowTie_id_insert;
      DROP TRIGGER bowTie_id_update;
      DROP TRIGGER wearEvent_tieId_insert;
      DROP TRIGGER wearEvent_tieId_update;
      DELETE FROM grdb_migrations WHERE identifier = 'v9: tie ids in upper case';
      INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating)
        VALUES ('\(id)', 'Paisley', 'paisley', 'P', 'p', 3);
      INSERT INTO wearEvent (tieId, wornAt) VALUES ('\(id)', '2026-11-01T10:00:00.000Z');
      INSERT INTO undoEntry (madeAt, tieId, change)
        VALUES ('2026-11-01T10:00:00.000Z', '\(id)', 'x');
      INSERT INTO wearEvent (tieId, wornAt) VALUES ('gone', '2026-11-02T10:00:00.000Z');
      """)
    for command in [["wear", "P"], ["rate", "P", "5"], ["favorite", "P"]] {
      let result = try bowties(command)
      #expect(result.status == 0, "\(command): \(result)")
    }
    let upper = id.uppercased()
    #expect(
      try bowties.sqlite(
        """
        SELECT id, rating, isFavorite, timesWorn FROM bowTie WHERE searchKey = 'P';
        SELECT count(*) FROM wearEvent WHERE tieId = '\(upper)';
        SELECT count(*) FROM undoEntry WHERE tieId = '\(id)';
        """) == "\(upper)|5.0|1|2\n2\n0\n")
    // The wear of no tie was counted in the monthly chart: doctor finds it.
    let orphan = try bowties("doctor")
    #expect(orphan.status == 65)
    #expect(
      orphan.stdout.contains(
        "problem   invalidRow  tie 'GONE': 1 wear names this tie, which is not in the store; "
          + "--repair removes it from the history\n"),
      "\(orphan.stdout)")
    #expect(try bowties("doctor", "--repair").status == 0)
    #expect(try bowties.sqlite("SELECT count(*) FROM wearEvent WHERE tieId = 'GONE'") == "0\n")
    let removed = try bowties("remove", "P", "--yes")
    #expect(removed.status == 0, "\(removed)")
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie WHERE searchKey = 'P'") == "0\n")

    // From now on another tool's id that is not a UUID in upper case is refused as it is
    // written, as a bad rating is.
    for sql in [
      """
      INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating)
        VALUES ('\(id)', 'Paisley', 'paisley', 'P', 'p', 3)
      """,
      "UPDATE bowTie SET id = 'tie-7' WHERE searchKey = 'V'",
      "UPDATE bowTie SET id = lower(id) WHERE searchKey = 'V'",
      """
      INSERT INTO wearEvent (tieId, wornAt)
        SELECT lower(id), '2026-11-02T10:00:00.000Z' FROM bowTie WHERE searchKey = 'V'
      """,
    ] {
      #expect {
        try bowties.sqlite(sql)
      } throws: { error in
        guard let failure = error as? BowtiesSandbox.SQLiteFailure else { return false }
        return failure.result.stderr.contains(
          "CHECK constraint failed: a tie id is a UUID in upper case")
      }
    }
    #expect(try bowties("list").status == 0)

    // Where the triggers were taken away, remove refuses rather than report a removal
    // that did not happen, and doctor writes the id in upper case.
    try bowties.sqlite(
      """
      DROP TRIGGER bowTie_id_update;
      DROP TRIGGER wearEvent_tieId_update;
      UPDATE wearEvent SET tieId = lower(tieId) WHERE tieId LIKE '%7';
      UPDATE bowTie SET id = lower(id) WHERE searchKey = 'V';
      """)
    let refused = try bowties("remove", "V", "--yes")
    #expect(refused.status == 74, "\(refused)")
    #expect(refused.stderr.contains("is not found by its id 0B0771E5-0000-4000-8000-000000000007"))
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie WHERE searchKey = 'V'") == "1\n")
    let lower = try bowties("doctor")
    #expect(lower.status == 65)
    #expect(
      lower.stdout.contains(
        "problem   invalidRow  Violet Bow Tie (V): its id 0b0771e5-0000-4000-8000-000000000007 is "
          + "not in upper case, which bowties finds ties by; --repair writes it so\n"),
      "\(lower.stdout)")
    #expect(try bowties("doctor", "--repair").status == 0)
    #expect(
      try bowties.sqlite(
        """
        SELECT id, timesWorn, (SELECT count(*) FROM wearEvent WHERE tieId = bowTie.id)
        FROM bowTie WHERE searchKey = 'V'
        """) == "0B0771E5-0000-4000-8000-000000000007|1|1\n")
    #expect(try bowties("remove", "V", "--yes").status == 0)
  }

  /// Canonical forms became composed (NFC) after fuzzing found Hangul typed as jamo not
  /// finding a tie stored precomposed: a store written before keeps jamo in its search
  /// columns, which doctor finds and --repair recomputes.
  @Test("a store with search columns from before NFC: doctor --repair makes Hangul findable")
  func decomposedSearchColumns() throws {
    let bowties = BowtiesSandbox()
    let jamoName = "\u{1100}\u{1161}\u{1107}\u{1161}\u{11BC} Tie"  // 가방 Tie, decomposed
    let jamoKey = "\u{1100}\u{1161}"  // 가, decomposed
    try #require(try bowties("add", "--name", jamoName, "--key", jamoKey).status == 0)
    // What the folding wrote before: the jamo as they came, the name lowercased.
    try bowties.sqlite(
      """
      UPDATE bowTie SET canonicalKey = '\(jamoKey)', canonicalName = '\(jamoName.lowercased())'
      WHERE searchKey = '\(jamoKey)';
      """)
    #expect(try bowties("show", "\u{AC00}").status == 1)
    let found = try bowties("doctor")
    #expect(found.status == 65 && found.stdout.contains("invalidRow  \(jamoName)"), "\(found)")
    #expect(try bowties("doctor", "--repair").status == 0)
    #expect(try bowties("show", "\u{AC00}").stdout.hasPrefix(jamoName))
    #expect(try bowties("show", "\u{AC00}\u{BC29}").stdout.hasPrefix(jamoName))
  }

  @Test("doctor on a damaged, truncated or newer store reports it, exits 65, changes nothing")
  func doctorOnDamage() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    try bowties.sqlite("INSERT INTO grdb_migrations VALUES ('v99: from the future')")
    let newer = try Data(contentsOf: URL(fileURLWithPath: bowties.store))
    let future = try bowties("doctor", "--repair")
    #expect(future.status == 65 && future.stdout.contains("written by a newer bowties"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == newer)

    try bowties.sqlite("DELETE FROM grdb_migrations WHERE identifier LIKE 'v99%'")
    let whole = try Data(contentsOf: URL(fileURLWithPath: bowties.store))
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: bowties.store))
    let truncated = try bowties("doctor")
    #expect(truncated.status == 65, "\(truncated)")
    #expect(truncated.stdout.contains("problem   integrity"), "\(truncated.stdout)")
    // The way back is named, on stderr; a newer store gets no such advice.
    #expect(
      truncated.stderr
        == "bowties: the store file is damaged, which --repair cannot mend: "
        + "bowties restore BACKUP puts a backup in its place\n", "\(truncated)")
    #expect(future.stderr == "", "\(future)")

    let missing = try bowties(
      "doctor", "--store", bowties.folder.appendingPathComponent("no").path, withStore: false)
    #expect(missing.status == 74 && missing.stderr.contains("no such file"), "\(missing)")

    // An empty file is a store not made yet, which doctor, repairing or not, leaves so.
    try Data().write(to: URL(fileURLWithPath: bowties.store))
    for repair in [[], ["--repair"]] {
      let empty = try bowties(["doctor"] + repair)
      #expect(empty.status == 65, "\(empty)")
      #expect(
        empty.stdout.contains(
          "problem   schema  an empty SQLite file, no store yet: the next command makes it one"),
        "\(empty.stdout)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)).isEmpty)
    }
  }

  @Test("a backup taken during 100 concurrent wears restores to a store that passes doctor")
  func backupUnderLoad() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    try photo(bytes: 150_000).write(to: bowties.folder.appendingPathComponent("big.png"))
    try #require(try bowties("edit", "R", "--photo", "big.png").status == 0)
    let wears = bowties.processes(100, "wear", "I")
    for process in wears.prefix(50) { try process.run() }
    let backupPath = bowties.folder.appendingPathComponent("backups/copy.sqlite").path
    let backup = try bowties("backup", backupPath)
    for process in wears.suffix(50) { try process.run() }
    for process in wears { process.waitUntilExit() }
    #expect(backup.status == 0, "\(backup)")
    // The missing folder is made, and it and the copy are private, as the store is.
    let modes = try [backupPath, bowties.folder.appendingPathComponent("backups").path].map {
      try (FileManager.default.attributesOfItem(atPath: $0)[.posixPermissions] as? Int) ?? -1
    }
    #expect(modes == [0o600, 0o700])
    #expect(wears.allSatisfy { $0.terminationStatus == 0 })
    #expect(try bowties.sqlite("SELECT count(*) FROM wearEvent") == "\(100 + 6)\n", "and 6 seeded")

    // The copy is a store in its own right, and sound.
    let copyCheck = try bowties("doctor", "--store", backupPath, withStore: false)
    #expect(copyCheck.status == 0, "\(copyCheck)")
    let copied = try bowties.run(
      "/usr/bin/sqlite3", [backupPath, "SELECT count(*) FROM wearEvent"])
    let copiedWears = Int(copied.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    #expect((6...106).contains(copiedWears))

    // Restored over the live store: the backup's inventory, healthy, photo included.
    let restored = try bowties("restore", backupPath, "--yes")
    #expect(restored.status == 0, "\(restored)")
    #expect(try bowties.sqlite("SELECT count(*) FROM wearEvent") == "\(copiedWears)\n")
    #expect(try bowties("doctor").status == 0)
    let photoOut = bowties.folder.appendingPathComponent("out.png").path
    #expect(try bowties("photo", "R", "--output", photoOut).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: photoOut)) == photo(bytes: 150_000))

    // A second backup to the same path is refused; nothing is overwritten.
    let again = try bowties("backup", backupPath)
    #expect(again.status == 73 && again.stderr.contains("already exists"))
  }

  @Test("restore refuses a damaged or missing backup first, then asks for --yes without a terminal")
  func restoreRefusals() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    #expect(try bowties("backup", "backup.sqlite").status == 0)
    try bowties("wear", "R")
    let before = try bowties.sqlite(".dump")
    let noYes = try bowties("restore", "backup.sqlite")
    #expect(noYes.status == 64, "\(noYes)")
    #expect(
      noYes.stderr
        == "bowties: restore asks before replacing the store, which needs a terminal: add --yes\n")
    let damaged = bowties.folder.appendingPathComponent("damaged.sqlite")
    try Data(repeating: 0x42, count: 8192).write(to: damaged)
    // With --yes or without it: the file is not a backup, whether or not one may be asked.
    for yes in [["--yes"], []] {
      let refused = try bowties(["restore", damaged.path] + yes)
      #expect(refused.status == 66 && refused.stderr.contains("not a usable bowties backup"))
      let missing = try bowties(["restore", "nowhere.sqlite"] + yes)
      #expect(missing.status == 66, "\(missing)")
      // An empty file is no backup either; not one the next command would make a store of.
      try Data().write(to: bowties.folder.appendingPathComponent("empty.sqlite"))
      let empty = try bowties(["restore", "empty.sqlite"] + yes)
      #expect(empty.status == 66, "\(empty)")
      #expect(
        empty.stderr.hasSuffix(
          "empty.sqlite: not a usable bowties backup: an empty SQLite file, no store in it\n"),
        "\(empty)")
    }
    #expect(try bowties.sqlite(".dump") == before)
  }

  @Test(
    "doctor reports what another program did to the schema; restore refuses such a backup, and any doctor reports a problem in",
    arguments: [
      (
        "CREATE TRIGGER evil AFTER INSERT ON wearEvent BEGIN DELETE FROM bowTie WHERE id <> NEW.tieId; END",
        66, "not a usable bowties backup: trigger evil on wearEvent is not one of bowties' own"
      ),
      (
        "DROP TRIGGER wearEvent_afterInsert",
        66,
        "not a usable bowties backup: trigger wearEvent_afterInsert on wearEvent is missing; --repair makes it again"
      ),
      (
        "DROP TRIGGER wearEvent_afterDelete; CREATE TRIGGER wearEvent_afterDelete AFTER DELETE ON wearEvent BEGIN SELECT 1; END",
        66,
        "not a usable bowties backup: trigger wearEvent_afterDelete on wearEvent is not as bowties made it"
      ),
      ("CREATE VIEW ties AS SELECT * FROM bowTie", 66, "view ties is not one of bowties' own"),
      ("CREATE TABLE notes (text)", 66, "table notes is not one of bowties' own"),
      (
        "UPDATE undoEntry SET change = '{not json'",
        65, "doctor reports undo entry 1: cannot be read"
      ),
      (
        "UPDATE bowTie SET lastWorn = '2459000.5' WHERE searchKey = 'R'",
        65, "a row's date '2459000.5' cannot be read"
      ),
    ])
  func restoreRefusesWhatDoctorReports(change: String, status: Int32, message: String) throws {
    let bowties = BowtiesSandbox()
    try bowties("wear", "R")
    #expect(try bowties("backup", "backup.sqlite").status == 0)
    let backup = bowties.folder.appendingPathComponent("backup.sqlite").path
    let changed = try bowties.run("/usr/bin/sqlite3", [backup, change])
    try #require(changed.status == 0, "\(changed)")
    let doctor = try bowties(["doctor"], store: backup)
    #expect(doctor.status == 65, "\(doctor)")
    if status == 66 {
      #expect(doctor.stdout.contains("problem   schemaObject  "), "\(doctor)")
    }
    let before = try bowties.sqlite(".dump")
    let restored = try bowties("restore", backup, "--yes")
    #expect(restored.status == status, "\(restored)")
    #expect(restored.stderr.contains(message), "\(restored)")
    #expect(try bowties.sqlite(".dump") == before)
    try bowties("wear", "O")
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie") == "7\n")
    // --repair makes a missing trigger of bowties' again; it repairs nothing, and changes
    // nothing, where another program's trigger or view would run or be read.
    let schema = try bowties.run("/usr/bin/sqlite3", [backup, ".schema"])
    let repair = try bowties(["doctor", "--repair"], store: backup)
    let missing = message.hasSuffix("--repair makes it again")
    #expect(repair.status == (missing || status == 65 ? 0 : 65), "\(repair)")
    #expect(repair.stdout.contains("repaired  ") == (missing || status == 65), "\(repair)")
    if status == 66 && !missing {
      #expect(try bowties.run("/usr/bin/sqlite3", [backup, ".schema"]).stdout == schema.stdout)
    }
    if missing {
      #expect(
        try bowties.run("/usr/bin/sqlite3", [backup, ".schema"]).stdout
          .contains("CREATE TRIGGER wearEvent_afterInsert"))
      #expect(try bowties("restore", backup, "--yes").status == 0)
    }
  }

  @Test(
    "a backup another tool vacuumed with another page size restores, into a store that is there or not"
  )
  func restoreOtherPageSize() throws {
    let bowties = BowtiesSandbox()
    try bowties("wear", "R")
    #expect(try bowties("backup", "back.sqlite").status == 0)
    let backup = bowties.folder.appendingPathComponent("back.sqlite").path
    let vacuumed = try bowties.run(
      "/usr/bin/sqlite3",
      [backup, "PRAGMA journal_mode = DELETE; PRAGMA page_size = 8192; VACUUM; PRAGMA page_size"])
    try #require(vacuumed.stdout.hasSuffix("8192\n"), "\(vacuumed)")
    try bowties("wear", "O")
    let fresh = bowties.folder.appendingPathComponent("fresh.sqlite").path
    for store in [bowties.store, fresh] {
      let restored = try bowties(["restore", backup, "--yes"], store: store)
      #expect(restored.status == 0, "\(restored)")
      #expect(try bowties(["doctor"], store: store).status == 0)
      let wears = try bowties.run(
        "/usr/bin/sqlite3", [store, "SELECT count(*) FROM wearEvent; PRAGMA page_size"])
      #expect(wears.stdout == "7\n4096\n", "\(store): \(wears)")
    }
  }

  @Test("a backup of a store that lost a photo file: 74, naming the file, and nothing written")
  func backupMissingPhoto() throws {
    let bowties = BowtiesSandbox()
    let file = bowties.folder.appendingPathComponent("big.png")
    try testPNG(bytes: 150_008).write(to: file)
    try bowties("add", "--name", "Big", "--key", "BG", "--color", "red", "--photo", file.path)
    let photos = bowties.folder.appendingPathComponent(".BowTies_SUPPORT/_EXTERNAL_DATA")
    let names = try FileManager.default.contentsOfDirectory(atPath: photos.path)
    try #require(names.count == 1)
    try FileManager.default.removeItem(at: photos.appendingPathComponent(names[0]))
    let before = try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path).sorted()
    let backup = try bowties("backup", "back.sqlite")
    #expect(backup.status == 74, "\(backup)")
    #expect(
      backup.stderr.hasSuffix("\(names[0]) is missing; bowties doctor names the tie\n"),
      "\(backup)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path).sorted() == before)
  }

  @Test("remove of a tie that is not there says so, with or without a terminal")
  func removeMissing() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let missing = try bowties("remove", "Plaid")
    #expect(missing.status == 1 && missing.stderr == "bowties: no tie matches 'Plaid'\n")
    let refused = try bowties("remove", "R")
    #expect(refused.status == 64, "\(refused)")
    #expect(
      refused.stderr == "bowties: remove asks before removing, which needs a terminal: add --yes\n")
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie") == "7\n")
  }

  @Test("a backup from an older bowties restores, migrated in a copy; the backup stays as it was")
  func restoreOlderBackup() throws {
    let bowties = BowtiesSandbox()
    try bowties("wear", "R")
    try bowties("rate", "B", "2")
    let old = bowties.folder.appendingPathComponent("old.sqlite").path
    #expect(try bowties("backup", old).status == 0)
    // What bowties wrote before undo entries said who made them.
    let older = try bowties.run(
      "/usr/bin/sqlite3",
      [
        old,
        """
        ALTER TABLE undoEntry DROP COLUMN madeBy;
        DELETE FROM grdb_migrations WHERE identifier = 'v6: undo by user';
        """,
      ])
    try #require(older.status == 0, "\(older.stderr)")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: old))
    try bowties("wear", "G")
    let restored = try bowties("restore", old, "--yes")
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: old)) == bytes)
    #expect(try bowties.sqlite("SELECT count(*) FROM undoEntry WHERE madeBy = ''") == "2\n")
    #expect(try bowties("doctor").status == 0)
    // An entry from before anyone was recorded is anyone's to take back.
    let undone = try bowties("undo")
    #expect(undone.status == 0 && undone.stdout.contains("Blue"), "\(undone)")
  }
}
