import Foundation
import Testing

@Suite("seed command")
struct SeedCommandTests {
  private static let greenEntry = """
    <dict><key>name</key><string>Green Bow Tie</string><key>searchKey</key><string>G</string>
    <key>rating</key><real>7.5</real><key>tintColor</key><dict><key>red</key><integer>1</integer>
    <key>green</key><integer>2</integer><key>blue</key><integer>3</integer></dict></dict>
    """

  private func entry(_ name: String, _ key: String, extra: String = "") -> String {
    """
    <dict><key>name</key><string>\(name)</string><key>searchKey</key><string>\(key)</string>
    <key>rating</key><integer>3</integer><key>tintColor</key><dict><key>red</key><integer>9</integer>
    <key>green</key><integer>8</integer><key>blue</key><integer>7</integer></dict>\(extra)</dict>
    """
  }

  private func plist(_ entries: [String]) -> Data {
    Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><array>\(entries.joined())</array></plist>
      """.utf8)
  }

  @Test("seed with no argument adds the samples once, then skips them; --replace overwrites")
  func sampleSeeds() throws {
    let bowties = BowtiesSandbox()
    let first = try bowties("seed")
    #expect(first.status == 0 && first.stdout == "added 7, replaced 0, skipped 0\n")
    #expect(try bowties("seed").stdout == "added 0, replaced 0, skipped 7\n")
    try bowties("rate", "R", "1")
    let replaced = try bowties("seed", "--replace", "--json")
    #expect(replaced.stdout.contains("\"replaced\" : 7"))
    #expect(try bowties.sqlite("SELECT rating FROM bowTie WHERE searchKey = 'R'") == "4.0\n")
  }

  @Test("seed PLIST on a new store seeds only that plist, photos from images/ beside it")
  func customPlist() throws {
    let bowties = BowtiesSandbox()
    let folder = bowties.folder.appendingPathComponent("mine")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
    let photo = testPNG(bytes: 100)
    try photo.write(to: folder.appendingPathComponent("images/teal.png"))
    try plist([entry("Teal Bow Tie", "T", extra: "<key>imageName</key><string>teal</string>")])
      .write(to: folder.appendingPathComponent("ties.plist"))
    let result = try bowties("seed", "mine/ties.plist")
    #expect(result.status == 0 && result.stdout == "added 1, replaced 0, skipped 0\n")
    let ties = try bowties.listJSON()
    #expect(ties.count == 1 && ties.first?["photoBytes"] as? Int == photo.count)
  }

  @Test("seed - reads standard input; binary plists work too")
  func standardInput() throws {
    let bowties = BowtiesSandbox()
    let xml = plist([entry("Teal Bow Tie", "T")])
    let value = try PropertyListSerialization.propertyList(from: xml, format: nil)
    let binary = try PropertyListSerialization.data(
      fromPropertyList: value, format: .binary, options: 0)
    let result = try bowties("seed", "-", stdin: binary)
    #expect(result.status == 0 && result.stdout == "added 1, replaced 0, skipped 0\n", "\(result)")
  }

  @Test("seed <(…) reads a pipe the shell names, /dev/fd/N")
  func processSubstitution() throws {
    let bowties = BowtiesSandbox()
    try plist([entry("Teal Bow Tie", "T")]).write(to: bowties.folder.appendingPathComponent("t"))
    let result = try bowties.run(
      "/bin/bash",
      ["-c", #""$0" seed <(cat t) --store "$1""#, BowtiesSandbox.binary.path, bowties.store])
    #expect(result.status == 0 && result.stdout == "added 1, replaced 0, skipped 0\n", "\(result)")
  }

  @Test("seed - with standard input closed, or redirected from a folder: exit 66, no crash")
  func unreadableStandardInput() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let before = try bowties("list", "--json").stdout
    for (redirect, reason) in [("<&-", "bad file descriptor"), ("< .", "is a directory")] {
      let result = try bowties.run(
        "/bin/bash",
        ["-c", #""$0" seed - --store "$1" "# + redirect, BowtiesSandbox.binary.path, bowties.store])
      #expect(result.status == 66, "\(redirect): \(result)")
      #expect(result.stderr == "bowties: cannot read standard input: \(reason)\n", "\(result)")
    }
    #expect(try bowties("list", "--json").stdout == before)
  }

  /// Each under a 2 GB address-space limit, which reading the input to its end would meet
  /// (`cannot read …: bad address`, 66) rather than the machine's memory. The writers'
  /// complaints go to /dev/null: where the tests ignore SIGPIPE, so do their children, and
  /// `yes` then says that its reader went.
  @Test(
    "something endless that begins no plist (yes, /dev/zero, /dev/urandom) is refused from its start: 65"
  )
  func endlessInput() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let before = try bowties("list", "--json").stdout
    for (line, source) in [
      (#"yes 2>/dev/null | "$0" seed - --store "$1""#, "standard input"),
      (#""$0" seed /dev/zero --store "$1""#, "/dev/zero"),
      (
        #"head -c 3 /dev/zero | tr '\0' '!' | cat - /dev/urandom 2>/dev/null | "$0" seed - --store "$1""#,
        "standard input"
      ),
    ] {
      let result = try bowties.run(
        "/bin/bash",
        ["-c", "ulimit -v 2000000; " + line, BowtiesSandbox.binary.path, bowties.store])
      #expect(result.status == 65, "\(line): \(result)")
      #expect(
        result.stderr
          == "bowties: \(source): not a property list (neither XML nor a binary plist)\n",
        "\(result)")
    }
    #expect(try bowties("list", "--json").stdout == before)
  }

  @Test("a long seed shows a progress bar on a terminal, and never in a pipe")
  func progressBar() throws {
    let bowties = BowtiesSandbox()
    let many = (0..<5_000).map { entry("Tie \($0)", "K\($0)") }
    try plist(many).write(to: bowties.folder.appendingPathComponent("many.plist"))
    let terminal = try bowties.onTerminal("seed", "many.plist")
    #expect(terminal.status == 0)
    #expect(terminal.stdout.contains("seeding █"), "\(terminal.stdout.prefix(300))")
    #expect(terminal.stdout.contains("added 5000, replaced 0, skipped 0"))
    let piped = try bowties("seed", "many.plist", "--replace")
    #expect(piped.stderr.isEmpty && piped.stdout == "added 0, replaced 5000, skipped 0\n")
  }

  @Test("a plist with one bad entry changes nothing and names it")
  func allOrNothing() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let before = try bowties("list", "--json").stdout
    let file = bowties.folder.appendingPathComponent("bad.plist")
    try plist([entry("Teal", "T"), entry("Plum", "P"), entry("Sand", "S"), Self.greenEntry]).write(
      to: file)
    let result = try bowties("seed", file.path)
    #expect(result.status == 65)
    #expect(result.stderr == "bowties: entry 3 (Green Bow Tie): rating 7.5 is outside 0…5\n")
    #expect(result.stdout.isEmpty)
    #expect(try bowties("list", "--json").stdout == before)
  }

  @Test("a bad plist on a new store creates no store")
  func noStoreFromBadSeed() throws {
    let bowties = BowtiesSandbox()
    let file = bowties.folder.appendingPathComponent("bad.plist")
    try plist([Self.greenEntry]).write(to: file)
    #expect(try bowties("seed", file.path).status == 65)
    #expect(!FileManager.default.fileExists(atPath: bowties.store))
  }

  /// Found by fuzzing: PropertyListSerialization crashed the process on a binary plist
  /// holding a set. This one is an array holding a set of 1.
  static let binaryPlistWithSet: Data = {
    let objects: [UInt8] = [0xA1, 0x01, 0xC1, 0x02, 0x10, 0x01]
    let offsets: [UInt8] = [0x08, 0x0A, 0x0C]
    let sizes: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 1]
    let counts: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 3] + [0, 0, 0, 0, 0, 0, 0, 0]
    let tableOffset: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 14]
    return Data("bplist00".utf8) + objects + offsets + sizes + counts + tableOffset
  }()

  @Test(
    "hostile and broken input files",
    arguments: [
      ("empty.plist", Data(), 65, "empty.plist: the file is empty"),
      ("text.plist", Data("name = red".utf8), 65, "text.plist: not a property list"),
      (
        "dict.plist", Data("<plist><dict/></plist>".utf8), 65,
        "expected an array of tie dictionaries"
      ),
      (
        "set.plist", binaryPlistWithSet, 65,
        "set.plist: not a property list (malformed binary property list: unsupported marker 0xC1"
      ),
    ])
  func brokenFiles(name: String, content: Data, status: Int32, message: String) throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    try content.write(to: bowties.folder.appendingPathComponent(name))
    let result = try bowties("seed", name)
    #expect(result.status == status)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  /// Seen while fuzzing: libxml2, which read the XML before Expat, printed every error on
  /// stderr, with the line and a caret under it (or, for encodings, several lines), before
  /// our own message; and CoreFoundation logged a line of its own for an OpenStep text plist.
  @Test(
    "malformed plists are reported in one line",
    arguments: [
      (
        Data(#"<?xml version="1.0"><plist><array/></plist>"#.utf8),
        "line 1: unclosed token"
      ),
      (
        Data(#"<?xml version="1.0" encoding="EUC-JP"?><plist>"#.utf8) + [0xA2, 0x01, 0x1D, 0xDB]
          + Data("</plist>".utf8),
        "line 1: unknown encoding"
      ),
      (Data(#"( { name = "Red Bow Tie" } "#.utf8), "neither XML nor a binary plist"),
    ])
  func malformedXMLInOneLine(content: Data, reason: String) throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    try content.write(to: bowties.folder.appendingPathComponent("bad.plist"))
    let result = try bowties("seed", "bad.plist")
    #expect(result.status == 65)
    #expect(result.stderr == "bowties: bad.plist: not a property list (\(reason))\n")
  }

  @Test("export's CSV given to seed: exit 65, saying which formats seed reads")
  func csvIsNotSeeded() throws {
    let bowties = BowtiesSandbox()
    try bowties("export", "--format", "csv", "--output", "ties.csv")
    let result = try bowties("seed", "ties.csv")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "bowties: ties.csv: seed reads plists, JSON and Core Data stores, not CSV, which "
        + "export writes for spreadsheets (export --format plist or json writes what seed reads "
        + "back)\n")
  }

  @Test("a missing plist, a folder, or a missing image is an input error (66)")
  func missingInputs() throws {
    let bowties = BowtiesSandbox()
    let missing = try bowties("seed", "nowhere.plist")
    #expect(
      missing.status == 66 && missing.stderr == "bowties: cannot read nowhere.plist: no such file\n"
    )
    #expect(try bowties("seed", ".").status == 66)
    try plist([entry("Teal", "T", extra: "<key>imageName</key><string>teal</string>")])
      .write(to: bowties.folder.appendingPathComponent("p.plist"))
    let image = try bowties("seed", "p.plist")
    #expect(image.status == 66)
    #expect(
      image.stderr
        == "bowties: entry 0 (Teal): imageName: teal is not in \(bowties.folder.path)/images/, "
        + "and no asset catalog (*.xcassets) is beside the plist; "
        + "seed with --no-photos to add the ties without their photos\n")
    #expect(!FileManager.default.fileExists(atPath: bowties.store))
  }

  @Test("imageName may not climb out of images/")
  func traversal() throws {
    let bowties = BowtiesSandbox()
    try Data("secret".utf8).write(to: bowties.folder.appendingPathComponent("secret.png"))
    try plist([entry("Teal", "T", extra: "<key>imageName</key><string>../secret.png</string>")])
      .write(to: bowties.folder.appendingPathComponent("p.plist"))
    let result = try bowties("seed", "p.plist")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "bowties: entry 0 (Teal): imageName '../secret.png' must be a plain file name inside images/\n"
    )
  }

  @Test("a photo above 128 KiB is stored beside the store, once")
  func externalPhotos() throws {
    let bowties = BowtiesSandbox()
    let images = bowties.folder.appendingPathComponent("images")
    try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
    let big = testPNG(bytes: 200_000)
    try big.write(to: images.appendingPathComponent("big.png"))
    let image = "<key>imageName</key><string>big</string>"
    try plist([entry("Big One", "B1", extra: image), entry("Big Two", "B2", extra: image)])
      .write(to: bowties.folder.appendingPathComponent("big.plist"))
    #expect(try bowties("seed", "big.plist").status == 0)
    let external = bowties.folder.appendingPathComponent(".BowTies_SUPPORT/_EXTERNAL_DATA")
    let files = try FileManager.default.contentsOfDirectory(atPath: external.path)
    #expect(files.count == 1)
    #expect(try bowties("show", "B1", "--json").stdout.contains("\"photoBytes\" : 200000"))
    try FileManager.default.removeItem(at: external.appendingPathComponent(files[0]))
    let shown = try bowties("show", "B2")
    #expect(shown.status == 0)
    #expect(shown.stderr.contains("bowties: warning: Big Two: photo file"))
    #expect(shown.stderr.contains("is missing"))
  }
}
