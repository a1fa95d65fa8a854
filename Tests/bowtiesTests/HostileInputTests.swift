import Foundation
import Testing

/// Stores, backups and values written by someone other than bowties, tried as an attacker
/// would: nothing may reach outside the store's folder, run as SQL, or crash the binary.
@Suite("Hostile input")
struct HostileInputTests {
  /// A real PNG above the 128 KiB external-storage cutoff: noise does not compress.
  static let largePhoto = BowtiesSandbox.noisePNG(seed: 0x0B_AD_5EED)

  private func photoFolder(_ bowties: BowtiesSandbox) -> URL {
    bowties.folder.appendingPathComponent(".BowTies_SUPPORT/_EXTERNAL_DATA")
  }

  /// A store whose red tie has an external photo, and the photo's file name.
  private func storeWithExternalPhoto(_ bowties: BowtiesSandbox) throws -> String {
    try Self.largePhoto.write(to: bowties.folder.appendingPathComponent("big.png"))
    try #require(try bowties("edit", "R", "--photo", "big.png").status == 0)
    let name = try bowties.sqlite("SELECT photoFile FROM bowTie WHERE searchKey = 'R'")
      .trimmingCharacters(in: .newlines)
    try #require(name.count == 64)
    return name
  }

  private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

  @Test("a backup whose photoFile leads outside its folder is refused before anything is copied")
  func restoreRefusesEscapingPhotoNames() throws {
    let bowties = BowtiesSandbox()
    _ = try storeWithExternalPhoto(bowties)
    let backups = bowties.folder.appendingPathComponent("backups")
    let backup = backups.appendingPathComponent("b.sqlite")
    try #require(try bowties("backup", backup.path).status == 0)
    // From the live photo folder, ../../victim is the test folder's "victim"; from the
    // backup's, it is backups/victim, which a restore would have linked across.
    let tampered = try bowties.run(
      "/usr/bin/sqlite3",
      [backup.path, "UPDATE bowTie SET photoFile = '../../victim' WHERE searchKey = 'R'"])
    try #require(tampered.status == 0, "\(tampered.stderr)")
    try Data("not yours".utf8).write(to: backups.appendingPathComponent("victim"))
    let before = try bowties.sqlite(".dump")
    let filesBefore = try FileManager.default.contentsOfDirectory(atPath: photoFolder(bowties).path)

    let restored = try bowties("restore", backup.path, "--yes")
    #expect(restored.status == 65, "\(restored)")
    #expect(
      restored.stderr.contains("its photo file name '../../victim' is not a photo file name"),
      "\(restored)")
    #expect(restored.stderr.split(separator: "\n").count == 1, "\(restored.stderr)")
    #expect(!exists(bowties.folder.appendingPathComponent("victim")))
    #expect(try bowties.sqlite(".dump") == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: photoFolder(bowties).path) == filesBefore)

    // doctor says what is wrong with such a backup.
    let checked = try bowties("doctor", "--store", backup.path, withStore: false)
    #expect(checked.status == 65)
    #expect(checked.stdout.contains("problem   photoFileName  Red Bow Tie (R)"), "\(checked)")
  }

  @Test("trimming the undo log never removes a file outside the photo folder")
  func undoTrimmingStaysInside() throws {
    let bowties = BowtiesSandbox()
    // The photo folder must exist for a path through it to lead anywhere.
    _ = try storeWithExternalPhoto(bowties)
    let victim = bowties.folder.appendingPathComponent("victim")
    try Data("keep me".utf8).write(to: victim)
    let red = try bowties.sqlite("SELECT id FROM bowTie WHERE searchKey = 'R'")
      .trimmingCharacters(in: .newlines)
    // An entry old enough that the next change forgets it, naming the victim.
    try bowties.sqlite(
      """
      DELETE FROM undoEntry;
      INSERT INTO undoEntry (id, madeAt, tieId, change, photoFile) VALUES
        (1, '2026-01-01T00:00:00.000Z', '\(red)', '{"add":{"name":"x"}}', '../../victim'),
        (300, '2026-01-01T00:00:00.000Z', '\(red)', '{"add":{"name":"x"}}', NULL);
      """)
    let doctor = try bowties("doctor")
    #expect(doctor.status == 65)
    #expect(doctor.stdout.contains("problem   photoFileName  undo entry 1: names the photo file"))
    #expect(try bowties("wear", "R").status == 0)
    #expect(try bowties.sqlite("SELECT count(*) FROM undoEntry WHERE id = 1") == "0\n")
    #expect(exists(victim))
    #expect(try bowties("doctor").status == 0)
  }

  @Test("a tie whose photoFile leads outside: show warns, doctor reports, --repair clears it")
  func tiePhotoNameOutside() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let victim = bowties.folder.appendingPathComponent("victim")
    try Data("secret".utf8).write(to: victim)
    try bowties.sqlite(
      """
      UPDATE bowTie SET photoData = NULL, photoFile = '../../victim', photoSize = 6
      WHERE searchKey = 'R'
      """)
    let shown = try bowties("show", "R")
    #expect(shown.status == 0)
    #expect(shown.stderr.contains("photo file ../../victim is not a photo file name"), "\(shown)")
    let written = try bowties("photo", "R", "--output", "out.bin")
    #expect(written.status == 74, "\(written)")
    #expect(!exists(bowties.folder.appendingPathComponent("out.bin")))
    // Removing the tie, then forgetting its undo entry, must not remove the victim either.
    #expect(try bowties("remove", "R", "--yes").status == 0)
    #expect(try bowties("undo").status == 74)
    #expect(exists(victim))

    let found = try bowties("doctor")
    #expect(found.status == 65)
    #expect(found.stdout.contains("problem   photoFileName  undo entry"), "\(found)")
    let repaired = try bowties("doctor", "--repair")
    #expect(repaired.stdout.contains("repaired  photoFileName  undo entry"), "\(repaired)")
    #expect(try bowties("doctor").status == 0)
    #expect(exists(victim))
  }

  @Test("doctor --repair clears a tie's photo file name that is not one")
  func doctorClearsPhotoName() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    try bowties.sqlite(
      "UPDATE bowTie SET photoData = NULL, photoFile = '/etc/passwd', photoSize = 1 WHERE searchKey = 'G'"
    )
    let found = try bowties("doctor", "--json")
    #expect(found.status == 65)
    #expect(found.stdout.contains(#""kind" : "photoFileName""#), "\(found)")
    let repaired = try bowties("doctor", "--repair")
    #expect(repaired.status == 0, "\(repaired)")
    #expect(
      try bowties.sqlite("SELECT quote(photoFile) FROM bowTie WHERE searchKey = 'G'") == "NULL\n")
    let shown = try bowties("show", "G")
    #expect(shown.stdout.contains("Photo       none") && shown.stderr.isEmpty, "\(shown)")
  }

  @Test("an undo entry naming a column the table does not have is refused, the tie unchanged")
  func undoRefusesUnknownColumns() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    try #require(try bowties("edit", "R", "--rating", "1").status == 0)
    let id = try bowties.sqlite("SELECT max(id) FROM undoEntry").trimmingCharacters(in: .newlines)
    let change = try bowties.sqlite("SELECT change FROM undoEntry WHERE id = \(id)")
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(change.utf8)) as? [String: Any])
    var edit = try #require(json["edit"] as? [String: Any])
    var previous = try #require(edit["previous"] as? [String: Any])
    var columns = try #require(previous["columns"] as? [String: Any])
    // Spliced into the UPDATE's SET list, this would rename the tie.
    columns["name = 'pwned', rating"] = ["real": ["_0": 2.0]]
    previous["columns"] = columns
    edit["previous"] = previous
    json["edit"] = edit
    let hex = try JSONSerialization.data(withJSONObject: json).map { String(format: "%02X", $0) }
      .joined()
    try bowties.sqlite("UPDATE undoEntry SET change = CAST(x'\(hex)' AS TEXT) WHERE id = \(id)")

    let undone = try bowties("undo")
    #expect(undone.status == 74, "\(undone)")
    #expect(undone.stderr.contains("undo entry \(id) cannot be undone: it names a column"))
    #expect(undone.stderr.split(separator: "\n").count == 1)
    #expect(
      try bowties.sqlite("SELECT name, rating FROM bowTie WHERE searchKey = 'R'")
        == "Red Bow Tie|1.0\n")
    let found = try bowties("doctor")
    #expect(
      found.stdout.contains("problem   undoEntry  undo entry \(id): cannot be undone"), "\(found)")
    #expect(try bowties("doctor", "--repair").status == 0)
    #expect(try bowties("undo").status == 0)
  }

  @Test("doctor and restore read a backup without leaving -wal or -shm files beside it")
  func readingLeavesNoLogFiles() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let backup = bowties.folder.appendingPathComponent("copy.sqlite")
    try #require(try bowties("backup", backup.path).status == 0)
    let bytes = try Data(contentsOf: backup)
    func leftovers() -> [String] {
      ["-wal", "-shm"].filter { exists(URL(fileURLWithPath: backup.path + $0)) }
    }
    #expect(leftovers().isEmpty)
    #expect(try bowties("doctor", "--store", backup.path, withStore: false).status == 0)
    #expect(leftovers().isEmpty)
    #expect(try bowties("restore", backup.path, "--yes").status == 0)
    #expect(leftovers().isEmpty)
    #expect(try Data(contentsOf: backup) == bytes)
  }

  @Test("a seed file over 4 GiB is refused by its length, before it is read: 66")
  func seedTooLong() throws {
    let bowties = BowtiesSandbox()
    let seed = bowties.folder.appendingPathComponent("big.plist")
    // A plist's beginning, then holes to 5 GiB, which take no room on the disk.
    try Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n".utf8)
      .write(to: seed)
    let handle = try FileHandle(forWritingTo: seed)
    try handle.truncate(atOffset: 5 << 30)
    try handle.close()
    // With 3 GB of address space: a seed read before it is refused runs out of it.
    let result = try bowties.run(
      "/usr/bin/prlimit",
      ["--as=3000000000", BowtiesSandbox.binary.path, "seed", seed.path, "--store", bowties.store])
    #expect(result.status == 66, "\(result)")
    #expect(result.stderr == "bowties: cannot read \(seed.path): it is larger than 4096 MiB\n")
    #expect(!exists(URL(fileURLWithPath: bowties.store)))
  }
}

/// Values typed or scripted on the command line, and text from the store on its way to a
/// person: refused in one line with a documented exit code, shown without control codes.
@Suite("Hostile arguments and text")
struct HostileArgumentTests {
  /// A command line, the environment it runs in, and the exit code it must end with.
  struct Case: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var environment: [String: String] = [:]
    var status: Int32
    var testDescription: String { "\(arguments) \(environment) → \(status)" }
  }

  static let cases: [Case] = [
    // Colors: digits of other scripts pass Character.isHexDigit and isNumber.
    Case(arguments: ["add", "--name", "X", "--color", "#ＡＢＣ"], status: 65),
    Case(arguments: ["add", "--name", "X", "--color", "#ＡＢＣＤＥＦ"], status: 65),
    Case(arguments: ["add", "--name", "X", "--color", "１,２,３"], status: 65),
    Case(arguments: ["add", "--name", "X", "--color", "+1,2,3"], status: 65),
    Case(arguments: ["add", "--name", "X", "--color", "#GGG"], status: 65),
    Case(arguments: ["add", "--name", "X", "--color", ""], status: 65),
    // Ratings and prices: signs, exponents, nan, inf, hexadecimal, other scripts' digits.
    Case(arguments: ["rate", "R", "４"], status: 65),
    Case(arguments: ["rate", "R", "+4"], status: 65),
    Case(arguments: ["rate", "R", "nan"], status: 65),
    Case(arguments: ["rate", "R", "inf"], status: 65),
    Case(arguments: ["rate", "R", "4e0"], status: 65),
    Case(arguments: ["rate", "R", "0x4"], status: 65),
    Case(arguments: ["rate", "R", ""], status: 65),
    Case(arguments: ["add", "--name", "X", "--price", "１９.９９"], status: 65),
    Case(arguments: ["add", "--name", "X", "--price", "1e3"], status: 65),
    Case(arguments: ["add", "--name", "X", "--price", "-5"], status: 65),
    Case(arguments: ["add", "--name", "X", "--price", "0x10"], status: 65),
    Case(
      arguments: ["add", "--name", "X", "--price", String(repeating: "9", count: 400)], status: 65),
    // Dates.
    Case(arguments: ["wear", "R", "--date", "-+5d"], status: 65),
    Case(arguments: ["wear", "R", "--date", "-５d"], status: 65),
    Case(arguments: ["wear", "R", "--date", "--5d"], status: 65),
    Case(arguments: ["wear", "R", "--date", "２０２６-11-21"], status: 65),
    Case(arguments: ["wear", "R", "--date", "-99999999999999999999d"], status: 65),
    Case(arguments: ["wear", "R", "--date", ""], status: 65),
    Case(arguments: ["history", "--since", "2026-02-30"], status: 65),
    // Counts and limits.
    Case(arguments: ["list", "--limit", "５"], status: 65),
    Case(arguments: ["list", "--limit", "99999999999999999999"], status: 65),
    Case(arguments: ["list", "--limit", "-1"], status: 65),
    Case(arguments: ["suggest", "--count", "0"], status: 65),
    Case(arguments: ["report", "--stale-days", "9223372036854775807"], status: 65),
    Case(arguments: ["report", "--months", "121"], status: 65),
    Case(arguments: ["edit", "R", "--times-worn", "２"], status: 65),
    Case(arguments: ["edit", "R", "--times-worn", "99999999999"], status: 65),
    // Keys, URLs, names, the store.
    Case(arguments: ["add", "--name", "X", "--key", "a b"], status: 65),
    Case(arguments: ["add", "--name", "X", "--key", ""], status: 65),
    Case(arguments: ["add", "--name", "X", "--url", "javascript"], status: 65),
    Case(arguments: ["add", "--name", ""], status: 65),
    Case(arguments: ["add", "--name", "X\u{1B}[2J"], status: 65),
    Case(arguments: ["show", "\u{1B}]0;owned\u{07}"], status: 1),
    Case(arguments: ["list", "--store", ""], status: 64),
    // The environment.
    Case(arguments: ["show", "R"], environment: ["BOWTIES_BUSY_TIMEOUT": "inf"], status: 64),
    Case(arguments: ["show", "R"], environment: ["BOWTIES_BUSY_TIMEOUT": "1e300"], status: 64),
    Case(arguments: ["show", "R"], environment: ["BOWTIES_BUSY_TIMEOUT": "0x10"], status: 64),
    Case(arguments: ["show", "R"], environment: ["BOWTIES_BUSY_TIMEOUT": "-1"], status: 64),
  ]

  @Test("each hostile value is refused in one line with its documented exit code", arguments: cases)
  func refused(_ test: Case) throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let before = try bowties.sqlite(".dump")
    let store = test.arguments.contains("--store") ? [] : ["--store", bowties.store]
    let result = try bowties.run(
      BowtiesSandbox.binary.path, test.arguments + store, environment: test.environment)
    #expect(result.status == test.status, "\(result)")
    #expect(result.stdout.isEmpty, "\(result)")
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("bowties: "), "\(result)")
    #expect(
      !result.stderr.unicodeScalars.contains {
        $0.properties.generalCategory == .control && $0 != "\n"
      })
    #expect(try bowties.sqlite(".dump") == before)
  }

  @Test("a store written as a URI no engine takes is refused, 64, and no folder is made for it")
  func storeURIs() throws {
    let bowties = BowtiesSandbox()
    for (arguments, environment, source, location) in [
      (["list", "--store", "sqlite:///tmp/t.sqlite"], [:], "--store", "sqlite:///tmp/t.sqlite"),
      (["list", "--store", "file:t.sqlite"], [:], "--store", "file:t.sqlite"),
      (
        ["list"], ["BOWTIES_STORE": "mysql://db.example/ties"], "BOWTIES_STORE",
        "mysql://db.example/ties"
      ),
    ] {
      let result = try bowties.run(
        BowtiesSandbox.binary.path, arguments, environment: environment)
      #expect(result.status == 64, "\(result)")
      #expect(result.stdout.isEmpty)
      #expect(
        result.stderr
          == "bowties: \(source) '\(location)' is a URI bowties cannot open: a store is a file "
          + "path (./\(location) for a file named so) or a postgresql:// URI\n")
    }
    let long = try bowties.run(
      BowtiesSandbox.binary.path, ["list", "--store", "sqlite://" + Self.long])
    #expect(long.status == 64 && long.stderr.count < 300 && long.stderr.contains("aaa…"))
    let made = try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path)
    #expect(!made.contains { $0.hasPrefix("sqlite:") || $0.hasPrefix("file:") || $0 == ".local" })
    // A file whose name begins so, as the message says.
    let named = try bowties.run(BowtiesSandbox.binary.path, ["list", "--store", "./file:t.sqlite"])
    #expect(named.status == 0, "\(named)")
    #expect(
      FileManager.default.fileExists(
        atPath: bowties.folder.appendingPathComponent("file:t.sqlite").path))
  }

  static let long = String(repeating: "a", count: 5_000)

  /// Command lines that quote a long value, and the exit code each gives.
  static let longValueCases: [([String], Int32)] = [
    (["show", long], 1), (["rate", long, "3"], 1), (["rate", "R", long], 65),
    (["add", "--name", long], 65), (["add", "--name", "X", "--key", long], 65),
    (["add", "--name", "X", "--url", long], 65), (["add", "--name", "X", "--price", long], 65),
    (["add", "--name", "X", "--color", long], 65), (["wear", "R", "--date", long], 65),
    (["list", "--limit", long], 65),
  ]

  @Test(
    "a 5,000-character value is quoted by its start: a message short enough to read",
    arguments: longValueCases)
  func longValues(_ arguments: [String], _ status: Int32) throws {
    let bowties = BowtiesSandbox()
    let result = try bowties.run(
      BowtiesSandbox.binary.path, arguments + ["--store", bowties.store])
    #expect(result.status == status, "\(result.stderr)")
    #expect(result.stderr.count < 300 && result.stderr.contains("aaa…"), "\(result.stderr)")
  }

  @Test("a name of spaces is refused as empty, not quoted")
  func blankName() throws {
    let result = try BowtiesSandbox()("add", "--name", "   ")
    #expect(
      result.status == 65 && result.stderr.hasSuffix("\nbowties: name is empty\n"), "\(result)")
  }

  @Test("an argument that is not UTF-8 is refused, not repaired into another name")
  func invalidUTF8() throws {
    let bowties = BowtiesSandbox()
    // Through the shell, which passes the bytes as they are.
    let script = "\"$0\" list --store \"$1\"$(printf '\\377')"
    let result = try bowties.run(
      "/bin/sh", ["-c", script, BowtiesSandbox.binary.path, bowties.store])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr == "bowties: argument 3 is not valid UTF-8 text\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path).isEmpty)
    let environment = try bowties.run(
      "/bin/sh",
      [
        "-c", "BOWTIES_STORE=\"$1\"$(printf '\\377') \"$0\" list", BowtiesSandbox.binary.path,
        bowties.store,
      ])
    #expect(environment.status == 64, "\(environment)")
    #expect(environment.stderr == "bowties: BOWTIES_STORE is not valid UTF-8 text\n")
  }

  @Test("control characters from the store are made visible wherever people read them")
  func controlCharactersMadeVisible() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    try bowties("wear", "O", "--date", "2026-10-01")
    // ESC [2J clears the screen; U+009B is CSI in C1; a line break; BEL.
    let name = "Orange\u{1B}[2J\u{9B}31m\nTie\u{07}"
    let hex = Data(name.utf8).map { String(format: "%02X", $0) }.joined()
    try bowties.sqlite("UPDATE bowTie SET name = CAST(x'\(hex)' AS TEXT) WHERE searchKey = 'O'")
    let visible = #"Orange\033[2J\302\23331m\nTie\a"#
    func hasNoControls(_ text: String) -> Bool {
      !text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }
    }
    for arguments in [
      ["show", "O"], ["list"], ["history"], ["suggest", "--count", "7", "--as-of", "2026-11-21"],
      ["report", "--as-of", "2026-11-21"], ["report", "--format", "html", "--as-of", "2026-11-21"],
    ] {
      let result = try bowties.run(
        BowtiesSandbox.binary.path, arguments + ["--store", bowties.store])
      #expect(result.status == 0, "\(arguments): \(result)")
      #expect(hasNoControls(result.stdout) && hasNoControls(result.stderr), "\(arguments)")
      #expect(result.stdout.contains(visible), "\(arguments): \(result.stdout)")
    }
    let markdown = try bowties("report", "--format", "markdown", "--as-of", "2026-11-21")
    #expect(hasNoControls(markdown.stdout))
    #expect(
      markdown.stdout.contains(#"Orange\\033\[2J\\302\\23331m\\nTie\\a"#), "\(markdown.stdout)")
    // An error that quotes a name from the store.
    let clash = try bowties("edit", "R", "--key", "O")
    #expect(clash.status == 65)
    #expect(hasNoControls(clash.stderr) && clash.stderr.contains(visible), "\(clash)")
    // JSON is for programs: the name exactly as stored, escaped as JSON escapes it.
    let json = try bowties("show", "O", "--json")
    #expect(json.stdout.contains(#"\u001b[2J"#))
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["name"] as? String == name)
    // A removal prints the name; its undo is validated like any save, and says why not.
    let removed = try bowties("remove", "O", "--yes")
    #expect(removed.status == 0 && removed.stdout.contains(visible), "\(removed)")
    let undone = try bowties("undo")
    #expect(undone.status == 65, "\(undone)")
    #expect(hasNoControls(undone.stderr) && undone.stderr.contains(visible), "\(undone)")
  }

  @Test("a bidirectional override in a name cannot turn the line it is printed on around")
  func bidirectionalControlsMadeVisible() throws {
    let bowties = BowtiesSandbox()
    // U+202E (RLO) shows "eit woB" as "Bow tie", and everything after it on the line
    // backwards; U+200F, a mark that opens nothing, stays.
    let name = "Evil \u{202E}eit woB\u{200F}"
    let added = try bowties("add", "--name", name, "--key", "EV")
    #expect(added.status == 0, "\(added)")
    try bowties("wear", "EV", "--date", "2026-10-01")
    let visible = #"Evil \342\200\256eit woB"# + "\u{200F}"
    for arguments in [
      ["show", "EV"], ["list"], ["history"], ["report", "--as-of", "2026-11-21"],
      ["report", "--format", "html", "--as-of", "2026-11-21"],
    ] {
      let result = try bowties.run(
        BowtiesSandbox.binary.path, arguments + ["--store", bowties.store])
      #expect(result.status == 0, "\(arguments): \(result)")
      #expect(!result.stdout.unicodeScalars.contains("\u{202E}"), "\(arguments)")
      #expect(result.stdout.contains(visible), "\(arguments): \(result.stdout)")
    }
    let json = try bowties("show", "EV", "--json")
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["name"] as? String == name)
  }
}
