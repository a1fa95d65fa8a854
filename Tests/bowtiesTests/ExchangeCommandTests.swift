import Foundation
import Testing

@Suite("export, seed formats and --dry-run")
struct ExchangeCommandTests {
  /// A store with something of everything: wears, a price, a large external photo.
  private func richStore() throws -> BowtiesSandbox {
    let bowties = BowtiesSandbox()
    try bowties("wear", "R", "--date", "2026-11-20T08:30:15.250Z")
    try bowties("edit", "G", "--price", "24.99 EUR")
    let big = testPNG(bytes: 150_008)
    let file = bowties.folder.appendingPathComponent("big.png")
    try big.write(to: file)
    try bowties(
      "add", "--name", "Café Noir", "--key", "CN", "--color", "black", "--photo", file.path)
    return bowties
  }

  private func read(_ url: URL) throws -> Data { try Data(contentsOf: url) }

  @Test(
    "export, seed into a new store, export again: the same bytes",
    arguments: [["--format", "plist"], ["--format", "plist", "--binary"], ["--format", "json"]])
  func roundTrip(format: [String]) throws {
    let bowties = try richStore()
    let first = bowties.folder.appendingPathComponent("first")
    let second = bowties.folder.appendingPathComponent("second")
    let other = bowties.folder.appendingPathComponent("other.sqlite").path
    let exported = try bowties.run(
      BowtiesSandbox.binary.path, ["export", "--store", bowties.store, "-o", first.path] + format)
    #expect(exported.status == 0, "\(exported.stderr)")
    let seeded = try bowties.run(
      BowtiesSandbox.binary.path, ["seed", first.path, "--store", other])
    #expect(seeded.stdout == "added 8, replaced 0, skipped 0\n", "\(seeded.stderr)")
    let again = try bowties.run(
      BowtiesSandbox.binary.path, ["export", "--store", other, "-o", second.path] + format)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try read(first) == read(second))
    #expect(try read(first).count > 150_000, "photos travel inside a single-file export")
    // Each price comes back in its currency, not in the one a seed assumes without.
    let prices = { (store: String) throws -> [String] in
      let listed = try bowties.run(
        BowtiesSandbox.binary.path, ["list", "--json", "--store", store])
      let ties =
        try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
      return (ties ?? []).compactMap { tie in
        (tie["price"] as? String).map { "\(tie["searchKey"] ?? "") \($0) \(tie["currency"] ?? "")" }
      }
    }
    #expect(try prices(other) == ["G 24.99 EUR"])
    #expect(try prices(other) == prices(bowties.store))
  }

  @Test("the notes of seed, export, backup and restore count one tie as one tie")
  func countsOfOne() throws {
    let bowties = BowtiesSandbox()
    let plist = bowties.folder.appendingPathComponent("one.plist")
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><array><dict>
      <key>name</key><string>Only Tie</string><key>searchKey</key><string>T</string>
      <key>rating</key><real>3</real><key>timesWorn</key><integer>0</integer>
      <key>isFavorite</key><false/><key>url</key><string>https://example.com</string>
      <key>tintColor</key><dict><key>red</key><integer>25</integer>
      <key>green</key><integer>50</integer><key>blue</key><integer>75</integer></dict>
      </dict></array></plist>
      """.utf8
    ).write(to: plist)
    let seeded = try bowties("seed", plist.path, "--no-photos")
    #expect(seeded.status == 0, "\(seeded)")
    #expect(seeded.stderr == "bowties: created the store \(bowties.store) with 1 tie\n")
    let folder = bowties.folder.appendingPathComponent("out/")
    let exported = try bowties("export", "--output", folder.path + "/")
    #expect(exported.stdout == "exported 1 tie and 0 photos to \(folder.path)\n", "\(exported)")
    let backup = bowties.folder.appendingPathComponent("back.sqlite").path
    let backedUp = try bowties("backup", backup)
    #expect(backedUp.stdout == "backed up 1 tie and 0 photo files to \(backup)\n", "\(backedUp)")
    let restored = try bowties("restore", backup, "--yes")
    #expect(
      restored.stdout == "restored 1 tie and 0 photo files into \(bowties.store)\n", "\(restored)")
  }

  @Test("an export folder holds SampleData.plist and images/, and seeds as it is")
  func folders() throws {
    let bowties = try richStore()
    let first = bowties.folder.appendingPathComponent("out1/")
    // The trailing slash names a folder that does not exist yet.
    let result = try bowties("export", "--output", first.path + "/")
    #expect(result.stdout.hasPrefix("exported 8 ties and 8 photos to "))
    let images = try FileManager.default.contentsOfDirectory(
      atPath: first.appendingPathComponent("images").path)
    #expect(
      images.sorted() == ["B.png", "CN.png", "G.png", "I.png", "O.png", "R.png", "V.png", "Y.png"])
    let other = bowties.folder.appendingPathComponent("other.sqlite").path
    #expect(
      try bowties.run(BowtiesSandbox.binary.path, ["seed", first.path, "--store", other]).status
        == 0)
    let second = bowties.folder.appendingPathComponent("out2/")
    let again = try bowties.run(
      BowtiesSandbox.binary.path, ["export", "--store", other, "-o", second.path + "/"])
    #expect(again.status == 0, "\(again.stderr)")
    for name in ["SampleData.plist"] + images.map({ "images/\($0)" }) {
      #expect(
        try read(first.appendingPathComponent(name)) == read(second.appendingPathComponent(name)),
        "\(name)")
    }
    let json = bowties.folder.appendingPathComponent("json/")
    try bowties("export", "--format", "json", "-o", json.path + "/")
    #expect(
      FileManager.default.fileExists(atPath: json.appendingPathComponent("SampleData.json").path))
  }

  @Test("Python's plistlib and json read our exports")
  func pythonReads() throws {
    let bowties = try richStore()
    for (name, format) in [
      ("ties.plist", ["--format", "plist"]), ("ties.bin", ["--format", "plist", "--binary"]),
      ("ties.json", ["--format", "json"]),
    ] {
      let exported = try bowties.run(
        BowtiesSandbox.binary.path,
        [
          "export", "--store", bowties.store, "-o",
          bowties.folder.appendingPathComponent(name).path,
        ]
          + format)
      #expect(exported.status == 0, "\(name): \(exported.stderr)")
    }
    let script = """
      import json, plistlib
      for name in ("ties.plist", "ties.bin"):
          ties = plistlib.load(open(name, "rb"))
          assert len(ties) == 8, len(ties)
          red = ties[0]
          assert red["name"] == "Red Bow Tie" and red["timesWorn"] == 11, red
          assert red["tintColor"] == {"red": 239, "green": 48, "blue": 36}
          assert str(red["lastWorn"]) == "2026-11-20 08:30:15", red["lastWorn"]
          assert isinstance(red["photoData"], bytes) and red["photoData"][:4] == b"\\x89PNG"
          assert ties[3]["price"] == "24.99" and ties[3]["currency"] == "EUR"
      ties = json.load(open("ties.json"))
      assert len(ties) == 8 and ties[0]["lastWorn"] == "2026-11-20T08:30:15Z"
      assert ties[7]["name"] == "Café Noir" and ties[7]["searchKey"] == "CN"
      print("ok")
      """
    let result = try bowties.run("/usr/bin/env", ["python3", "-c", script])
    #expect(result.stdout == "ok\n", "\(result.stderr)")
  }

  @Test(
    "a store's own export seeded back with --replace changes nothing, its last wear's milliseconds included"
  )
  func replaceWithOwnExport() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    // A wear now has milliseconds, which a plist's dates do not keep.
    try bowties("wear", "R")
    let tables = "SELECT * FROM bowTie ORDER BY id; SELECT * FROM wearEvent ORDER BY id"
    let before = try bowties.sqlite(tables)
    for format in ["plist", "json"] {
      #expect(try bowties("export", "--format", format, "--output", "own.\(format)").status == 0)
      let seeded = try bowties("seed", "own.\(format)", "--replace")
      #expect(seeded.stdout == "added 0, replaced 7, skipped 0\n", "\(format): \(seeded)")
      #expect(try bowties.sqlite(tables) == before, "\(format)")
    }
  }

  @Test("plists written by plistlib, XML and binary, seed; so does JSON on stdin")
  func pythonWrites() throws {
    let bowties = BowtiesSandbox()
    let script = """
      import datetime, plistlib
      ties = [dict(name="Py Tie %d" % i, searchKey="P%d" % i, rating=i, timesWorn=i,
                   isFavorite=bool(i % 2), lastWorn=datetime.datetime(2026, 1, i + 1, 12, 0),
                   tintColor=dict(red=i, green=2 * i, blue=3 * i), price="%d.50" % i)
              for i in range(1, 4)]
      plistlib.dump(ties, open("py.xml", "wb"), fmt=plistlib.FMT_XML)
      plistlib.dump(ties, open("py.bin", "wb"), fmt=plistlib.FMT_BINARY)
      """
    #expect(try bowties.run("/usr/bin/env", ["python3", "-c", script]).status == 0)
    #expect(try bowties("seed", "py.xml").stdout == "added 3, replaced 0, skipped 0\n")
    #expect(try bowties("seed", "py.bin", "--replace").stdout == "added 0, replaced 3, skipped 0\n")
    #expect(try bowties("show", "P2").stdout.contains("Price       $ 2.50"))
    let json = Data(
      #"[{"name": "JSON Tie", "searchKey": "J", "rating": 4, "lastWorn": "2026-11-01T10:00:00Z"}]"#
        .utf8)
    #expect(try bowties("seed", "-", stdin: json).stdout == "added 1, replaced 0, skipped 0\n")
    // Its lastWorn without a count is one wear, not a never-worn tie's.
    #expect(try bowties("show", "J").stdout.contains("Times worn  1\n"))
    #expect(!(try bowties("list", "--never-worn").stdout.contains("JSON Tie")))
    let bad = Data(#"[{"name": "Bad", "searchKey": "X", "rating": "high"}]"#.utf8)
    let refused = try bowties("seed", "-", "--format", "json", stdin: bad)
    #expect(
      refused.status == 65 && refused.stderr.contains("entry 0 (Bad): rating must be a number"))
  }

  @Test("--dry-run says what would happen and changes nothing, not even a new store")
  func dryRun() throws {
    let bowties = BowtiesSandbox()
    let plan = try bowties("seed", "--dry-run")
    #expect(plan.status == 0)
    #expect(plan.stdout.hasSuffix("would add 7, replace 0, skip 0; nothing changed\n"))
    #expect(!FileManager.default.fileExists(atPath: bowties.store))
    // An empty file (touch) is left empty, with nothing beside it.
    #expect(FileManager.default.createFile(atPath: bowties.store, contents: nil))
    let onEmpty = try bowties("seed", "--dry-run")
    #expect(onEmpty.stdout == plan.stdout, "\(onEmpty)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path) == ["BowTies.sqlite"]
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)).isEmpty)
    // So is the header alone the sqlite3 shell leaves: its bytes (its journal mode among
    // them) as they were.
    try bowties.sqlite("VACUUM")
    let header = try Data(contentsOf: URL(fileURLWithPath: bowties.store))
    #expect(header.count == 4096)
    let onHeader = try bowties("seed", "--dry-run")
    #expect(onHeader.stdout == plan.stdout, "\(onHeader)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path) == ["BowTies.sqlite"]
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == header)
    try bowties("list")
    try bowties("rate", "R", "1")
    let replace = try bowties("seed", "--dry-run", "--replace", "--json")
    #expect(replace.stdout.contains("\"replaced\" : 7"))
    #expect(try bowties.sqlite("SELECT rating FROM bowTie WHERE searchKey = 'R'") == "1.0\n")
    let lines = try bowties("seed", "--dry-run").stdout.split(separator: "\n")
    #expect(lines.first == "skip    R  Red Bow Tie")
  }

  @Test("csv export has a header and a row per tie")
  func csv() throws {
    let bowties = try richStore()
    let rows = try bowties("export", "--format", "csv").stdout.split(separator: "\n")
    let header = "id,searchKey,name,rating,timesWorn,lastWorn,isFavorite,url,price,currency,color,"
    #expect(rows.first.map(String.init) == header + "photoBytes")
    #expect(rows.contains { $0.contains(",24.99,EUR,") })
    #expect(rows.count == 9)
    #expect(try bowties("export", "--format", "csv", "--binary").status == 64)
  }
}
