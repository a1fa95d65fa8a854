import Foundation
import Testing

/// Stores, backups and values written by someone other than bowties, tried as an attacker
/// would: nothing may reach outside the store's folder, run as SQL, or crash the binary.
@Suite("Hostile input")
struct HostileInputTests {
  /// A real PNG above the 128 KiB external-storage cutoff: noise does not compress.
  static let largePhoto = Bowtie.noisePNG(seed: 0x0B_AD_5EED)

  private func photoFolder(_ bowtie: Bowtie) -> URL {
    bowtie.folder.appendingPathComponent(".BowTies_SUPPORT/_EXTERNAL_DATA")
  }

  /// A store whose red tie has an external photo, and the photo's file name.
  private func storeWithExternalPhoto(_ bowtie: Bowtie) throws -> String {
    try Self.largePhoto.write(to: bowtie.folder.appendingPathComponent("big.png"))
    try #require(try bowtie("edit", "R", "--photo", "big.png").status == 0)
    let name = try bowtie.sqlite("SELECT photoFile FROM bowTie WHERE searchKey = 'R'")
      .trimmingCharacters(in: .newlines)
    try #require(name.count == 64)
    return name
  }

  private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

  @Test("a backup whose photoFile leads outside its folder is refused before anything is copied")
  func restoreRefusesEscapingPhotoNames() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    _ = try storeWithExternalPhoto(bowtie)
    let backups = bowtie.folder.appendingPathComponent("backups")
    let backup = backups.appendingPathComponent("b.sqlite")
    try #require(try bowtie("backup", backup.path).status == 0)
    // From the live photo folder, ../../victim is the test folder's "victim"; from the
    // backup's, it is backups/victim, which a restore would have linked across.
    let tampered = try bowtie.run(
      "/usr/bin/sqlite3",
      [backup.path, "UPDATE bowTie SET photoFile = '../../victim' WHERE searchKey = 'R'"])
    try #require(tampered.status == 0, "\(tampered.stderr)")
    try Data("not yours".utf8).write(to: backups.appendingPathComponent("victim"))
    let before = try bowtie.sqlite(".dump")
    let filesBefore = try FileManager.default.contentsOfDirectory(atPath: photoFolder(bowtie).path)

    let restored = try bowtie("restore", backup.path, "--yes")
    #expect(restored.status == 65, "\(restored)")
    #expect(restored.stderr.contains("'../../victim', which is not a photo file name"))
    #expect(restored.stderr.split(separator: "\n").count == 1, "\(restored.stderr)")
    #expect(!exists(bowtie.folder.appendingPathComponent("victim")))
    #expect(try bowtie.sqlite(".dump") == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: photoFolder(bowtie).path) == filesBefore)

    // doctor says what is wrong with such a backup.
    let checked = try bowtie("doctor", "--store", backup.path, withStore: false)
    #expect(checked.status == 65)
    #expect(checked.stdout.contains("problem   photoFileName  Red Bow Tie (R)"), "\(checked)")
  }

  @Test("trimming the undo log never removes a file outside the photo folder")
  func undoTrimmingStaysInside() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    // The photo folder must exist for a path through it to lead anywhere.
    _ = try storeWithExternalPhoto(bowtie)
    let victim = bowtie.folder.appendingPathComponent("victim")
    try Data("keep me".utf8).write(to: victim)
    let red = try bowtie.sqlite("SELECT id FROM bowTie WHERE searchKey = 'R'")
      .trimmingCharacters(in: .newlines)
    // An entry old enough that the next change forgets it, naming the victim.
    try bowtie.sqlite(
      """
      DELETE FROM undoEntry;
      INSERT INTO undoEntry (id, madeAt, tieId, change, photoFile) VALUES
        (1, '2026-01-01T00:00:00.000Z', '\(red)', '{"add":{"name":"x"}}', '../../victim'),
        (300, '2026-01-01T00:00:00.000Z', '\(red)', '{"add":{"name":"x"}}', NULL);
      """)
    let doctor = try bowtie("doctor")
    #expect(doctor.status == 65)
    #expect(doctor.stdout.contains("problem   photoFileName  undo entry 1: names the photo file"))
    #expect(try bowtie("wear", "R").status == 0)
    #expect(try bowtie.sqlite("SELECT count(*) FROM undoEntry WHERE id = 1") == "0\n")
    #expect(exists(victim))
    #expect(try bowtie("doctor").status == 0)
  }

  @Test("a tie whose photoFile leads outside: show warns, doctor reports, --repair clears it")
  func tiePhotoNameOutside() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("list")
    let victim = bowtie.folder.appendingPathComponent("victim")
    try Data("secret".utf8).write(to: victim)
    try bowtie.sqlite(
      """
      UPDATE bowTie SET photoData = NULL, photoFile = '../../victim', photoSize = 6
      WHERE searchKey = 'R'
      """)
    let shown = try bowtie("show", "R")
    #expect(shown.status == 0)
    #expect(shown.stderr.contains("photo file ../../victim is not a photo file name"), "\(shown)")
    let written = try bowtie("photo", "R", "--output", "out.bin")
    #expect(written.status == 74, "\(written)")
    #expect(!exists(bowtie.folder.appendingPathComponent("out.bin")))
    // Removing the tie, then forgetting its undo entry, must not remove the victim either.
    #expect(try bowtie("remove", "R", "--yes").status == 0)
    #expect(try bowtie("undo").status == 74)
    #expect(exists(victim))

    let found = try bowtie("doctor")
    #expect(found.status == 65)
    #expect(found.stdout.contains("problem   photoFileName  undo entry"), "\(found)")
    let repaired = try bowtie("doctor", "--repair")
    #expect(repaired.stdout.contains("repaired  photoFileName  undo entry"), "\(repaired)")
    #expect(try bowtie("doctor").status == 0)
    #expect(exists(victim))
  }

  @Test("doctor --repair clears a tie's photo file name that is not one")
  func doctorClearsPhotoName() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("list")
    try bowtie.sqlite(
      "UPDATE bowTie SET photoData = NULL, photoFile = '/etc/passwd', photoSize = 1 WHERE searchKey = 'G'"
    )
    let found = try bowtie("doctor", "--json")
    #expect(found.status == 65)
    #expect(found.stdout.contains(#""kind" : "photoFileName""#), "\(found)")
    let repaired = try bowtie("doctor", "--repair")
    #expect(repaired.status == 0, "\(repaired)")
    #expect(
      try bowtie.sqlite("SELECT quote(photoFile) FROM bowTie WHERE searchKey = 'G'") == "NULL\n")
    let shown = try bowtie("show", "G")
    #expect(shown.stdout.contains("Photo       none") && shown.stderr.isEmpty, "\(shown)")
  }

  @Test("an undo entry naming a column the table does not have is refused, the tie unchanged")
  func undoRefusesUnknownColumns() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("list")
    try #require(try bowtie("edit", "R", "--rating", "1").status == 0)
    let id = try bowtie.sqlite("SELECT max(id) FROM undoEntry").trimmingCharacters(in: .newlines)
    let change = try bowtie.sqlite("SELECT change FROM undoEntry WHERE id = \(id)")
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
    try bowtie.sqlite("UPDATE undoEntry SET change = CAST(x'\(hex)' AS TEXT) WHERE id = \(id)")

    let undone = try bowtie("undo")
    #expect(undone.status == 74, "\(undone)")
    #expect(undone.stderr.contains("undo entry \(id) cannot be undone: it names a column"))
    #expect(undone.stderr.split(separator: "\n").count == 1)
    #expect(
      try bowtie.sqlite("SELECT name, rating FROM bowTie WHERE searchKey = 'R'")
        == "Red Bow Tie|1.0\n")
    let found = try bowtie("doctor")
    #expect(
      found.stdout.contains("problem   undoEntry  undo entry \(id): cannot be undone"), "\(found)")
    #expect(try bowtie("doctor", "--repair").status == 0)
    #expect(try bowtie("undo").status == 0)
  }

  @Test("doctor and restore read a backup without leaving -wal or -shm files beside it")
  func readingLeavesNoLogFiles() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("list")
    let backup = bowtie.folder.appendingPathComponent("copy.sqlite")
    try #require(try bowtie("backup", backup.path).status == 0)
    let bytes = try Data(contentsOf: backup)
    func leftovers() -> [String] {
      ["-wal", "-shm"].filter { exists(URL(fileURLWithPath: backup.path + $0)) }
    }
    #expect(leftovers().isEmpty)
    #expect(try bowtie("doctor", "--store", backup.path, withStore: false).status == 0)
    #expect(leftovers().isEmpty)
    #expect(try bowtie("restore", backup.path, "--yes").status == 0)
    #expect(leftovers().isEmpty)
    #expect(try Data(contentsOf: backup) == bytes)
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
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("list")
    let before = try bowtie.sqlite(".dump")
    let store = test.arguments.contains("--store") ? [] : ["--store", bowtie.store]
    let result = try bowtie.run(
      Bowtie.binary.path, test.arguments + store, environment: test.environment)
    #expect(result.status == test.status, "\(result)")
    #expect(result.stdout.isEmpty, "\(result)")
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("bowties: "), "\(result)")
    #expect(
      !result.stderr.unicodeScalars.contains {
        $0.properties.generalCategory == .control && $0 != "\n"
      })
    #expect(try bowtie.sqlite(".dump") == before)
  }

  @Test("an argument that is not UTF-8 is refused, not repaired into another name")
  func invalidUTF8() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    // Through the shell, which passes the bytes as they are.
    let script = "\"$0\" list --store \"$1\"$(printf '\\377')"
    let result = try bowtie.run("/bin/sh", ["-c", script, Bowtie.binary.path, bowtie.store])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr == "bowties: argument 3 is not valid UTF-8 text\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: bowtie.folder.path).isEmpty)
    let environment = try bowtie.run(
      "/bin/sh",
      [
        "-c", "BOWTIES_STORE=\"$1\"$(printf '\\377') \"$0\" list", Bowtie.binary.path,
        bowtie.store,
      ])
    #expect(environment.status == 64, "\(environment)")
    #expect(environment.stderr == "bowties: BOWTIES_STORE is not valid UTF-8 text\n")
  }

  @Test("control characters from the store are made visible wherever people read them")
  func controlCharactersMadeVisible() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("list")
    try bowtie("wear", "O", "--date", "2026-10-01")
    // ESC [2J clears the screen; U+009B is CSI in C1; a line break; BEL.
    let name = "Orange\u{1B}[2J\u{9B}31m\nTie\u{07}"
    let hex = Data(name.utf8).map { String(format: "%02X", $0) }.joined()
    try bowtie.sqlite("UPDATE bowTie SET name = CAST(x'\(hex)' AS TEXT) WHERE searchKey = 'O'")
    let visible = #"Orange\033[2J\302\23331m\nTie\a"#
    func hasNoControls(_ text: String) -> Bool {
      !text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }
    }
    for arguments in [
      ["show", "O"], ["list"], ["history"], ["suggest", "--count", "7", "--as-of", "2026-11-21"],
      ["report", "--as-of", "2026-11-21"], ["report", "--format", "html", "--as-of", "2026-11-21"],
    ] {
      let result = try bowtie.run(Bowtie.binary.path, arguments + ["--store", bowtie.store])
      #expect(result.status == 0, "\(arguments): \(result)")
      #expect(hasNoControls(result.stdout) && hasNoControls(result.stderr), "\(arguments)")
      #expect(result.stdout.contains(visible), "\(arguments): \(result.stdout)")
    }
    let markdown = try bowtie("report", "--format", "markdown", "--as-of", "2026-11-21")
    #expect(hasNoControls(markdown.stdout))
    #expect(
      markdown.stdout.contains(#"Orange\\033\[2J\\302\\23331m\\nTie\\a"#), "\(markdown.stdout)")
    // An error that quotes a name from the store.
    let clash = try bowtie("edit", "R", "--key", "O")
    #expect(clash.status == 65)
    #expect(hasNoControls(clash.stderr) && clash.stderr.contains(visible), "\(clash)")
    // JSON is for programs: the name exactly as stored, escaped as JSON escapes it.
    let json = try bowtie("show", "O", "--json")
    #expect(json.stdout.contains(#"\u001b[2J"#))
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["name"] as? String == name)
    // A removal prints the name; its undo is validated like any save, and says why not.
    let removed = try bowtie("remove", "O", "--yes")
    #expect(removed.status == 0 && removed.stdout.contains(visible), "\(removed)")
    let undone = try bowtie("undo")
    #expect(undone.status == 65, "\(undone)")
    #expect(hasNoControls(undone.stderr) && undone.stderr.contains(visible), "\(undone)")
  }
}
