import Foundation
import Testing

/// Photos as people have them, through the built binary: a phone's JPEG with its EXIF
/// orientation, damaged and unsupported files, and the Core Data book's project with its
/// asset catalog.
@Suite("Phone photos and asset catalogs")
struct PhonePhotoTests {
  /// The red, green, blue and yellow of each corner of the orientation fixtures.
  private static let corners = [(220, 30, 30), (30, 180, 60), (30, 60, 220), (240, 210, 20)]

  /// The truecolor escape's color at the start of each half-block cell of `line`:
  /// foreground (the upper pixel) and background (the lower).
  private func cells(_ line: Substring) -> [(fg: [Int], bg: [Int])] {
    var result: [(fg: [Int], bg: [Int])] = []
    var fg: [Int] = []
    var bg: [Int] = []
    var rest = line[...]
    while let escape = rest.firstRange(of: "\u{1B}[") {
      let after = rest[escape.upperBound...]
      guard let m = after.firstIndex(of: "m") else { break }
      let numbers = after[..<m].split(separator: ";").compactMap { Int($0) }
      if numbers.count == 5 && numbers[0] == 38 { fg = Array(numbers[2...]) }
      if numbers.count == 5 && numbers[0] == 48 { bg = Array(numbers[2...]) }
      rest = after[after.index(after: m)...]
      // Each run of cells of one color follows its escapes.
      let run = rest.prefix { $0 == "▀" }
      for _ in run { result.append((fg, bg)) }
    }
    return result
  }

  private func near(_ color: [Int], _ expected: (Int, Int, Int)) -> Bool {
    color.count == 3 && abs(color[0] - expected.0) <= 30 && abs(color[1] - expected.1) <= 30
      && abs(color[2] - expected.2) <= 30
  }

  @Test("a JPEG with each EXIF orientation, 1 to 8, is drawn upright by show", arguments: 1...8)
  func drawnUpright(orientation: Int) throws {
    let bowties = BowtiesSandbox()
    let file = Fixtures.photo("orientation-\(orientation).jpg").path
    let added = try bowties("add", "--name", "Quarters", "--key", "Q", "--photo", file)
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("  Photo       JPEG 48×32, "))
    let shown = try bowties("show", "Q", "--image", "always", environment: ["COLUMNS": "100"])
    #expect(shown.status == 0 && shown.stderr.isEmpty, "\(shown.stderr)")
    let rows = shown.stdout.split(separator: "\n").filter { $0.contains("▀") }
    // Wider than high, as the upright picture is (3:2, half-blocks being 1×2 pixels).
    let top = cells(try #require(rows.first))
    let bottom = cells(try #require(rows.last))
    #expect(top.count == bottom.count && top.count * 2 > rows.count * 2 * 4 / 3)
    guard top.count == bottom.count, top.count > 10 else { return }
    let (left, right) = (2, top.count - 3)
    #expect(near(top[left].fg, Self.corners[0]), "top left: \(top[left].fg)")
    #expect(near(top[right].fg, Self.corners[1]), "top right: \(top[right].fg)")
    #expect(near(bottom[left].bg, Self.corners[2]), "bottom left: \(bottom[left].bg)")
    #expect(near(bottom[right].bg, Self.corners[3]), "bottom right: \(bottom[right].bg)")
  }

  @Test("a phone's JPEG: stored byte for byte, shown upright with its format and size")
  func phone() throws {
    let bowties = BowtiesSandbox()
    let file = Fixtures.photo("phone.jpg")
    let original = try Data(contentsOf: file)
    let edited = try bowties("edit", "R", "--photo", file.path)
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.stdout.contains("  Photo       JPEG 480×640, 63.5 KB\n"))
    let json =
      try JSONSerialization.jsonObject(
        with: Data(try bowties("show", "R", "--json").stdout.utf8)) as? [String: Any]
    #expect(json?["photoFormat"] as? String == "jpeg")
    #expect(json?["photoWidth"] as? Int == 480 && json?["photoHeight"] as? Int == 640)
    #expect(json?["photoBytes"] as? Int == original.count)
    // The bytes given, not a re-encoding: as Core Data keeps Binary Data.
    #expect(
      try bowties.sqlite(
        "SELECT hex(photoData) = '\(original.hexText)' FROM bowTie WHERE searchKey = 'R'") == "1\n")
    let shown = try bowties("show", "R", "--image", "always", environment: ["COLUMNS": "100"])
    #expect(shown.status == 0 && shown.stderr.isEmpty)
    try expectGolden(shown.stdout, "show-phone-jpeg.ansi")
  }

  @Test(
    "a damaged or unsupported photo is refused on its way in, in one line, exit 66; nothing changes",
    arguments: [
      ("truncated.jpg", "not a readable JPEG image (Premature end of JPEG file)"),
      ("garbage.jpg", "not a readable JPEG image ("),
      ("signature-only.png", "not a readable PNG image ("),
      ("garbage.pdf", "not a readable PDF document ("),
      ("truncated.pdf", "not a readable PDF document ("),
      (
        "photo.heic",
        "a HEIC image, which bowties cannot read (PNG and JPEG only); convert it first: heif-convert "
      ),
      (
        "photo.gif",
        "a GIF image, which bowties cannot read (PNG and JPEG only); convert it first: "
      ),
    ])
  func refused(name: String, reason: String) throws {
    let bowties = BowtiesSandbox()
    try bowties("show", "R")
    let before = try bowties("show", "R", "--json").stdout
    let file = Fixtures.photo("corrupt/\(name)").path
    for command in [["edit", "R"], ["add", "--name", "New Bow Tie"]] {
      let result = try bowties.run(
        BowtiesSandbox.binary.path, command + ["--photo", file, "--store", bowties.store])
      #expect(result.status == 66, "\(command): \(result.stderr)")
      #expect(result.stdout.isEmpty)
      #expect(
        result.stderr.hasPrefix("bowties: cannot read \(file): \(reason)"), "\(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1)
    }
    #expect(try bowties("show", "R", "--json").stdout == before)
    #expect(try bowties("list").stdout.split(separator: "\n").count == 7)
    if name == "photo.heic" {
      let heic = try bowties("add", "--name", "X", "--photo", file)
      #expect(heic.stderr.hasSuffix("heif-convert \(file) \(file.dropLast(5)).jpg\n"))
    }
  }

  @Test(
    "a damaged JPEG or a PDF written into the store by another tool: one warning, details shown, exit 0",
    arguments: ["truncated.jpg", "garbage.pdf"])
  func damagedInStore(name: String) throws {
    let bowties = BowtiesSandbox()
    try bowties("show", "R")
    let bad = try Data(contentsOf: Fixtures.photo("corrupt/\(name)"))
    try bowties.sqlite(
      "UPDATE bowTie SET photoData = X'\(bad.hexText)', photoSize = \(bad.count), "
        + "photoFormat = NULL, photoWidth = NULL, photoHeight = NULL WHERE searchKey = 'R'")
    let result = try bowties("show", "R", "--image", "always", environment: ["COLUMNS": "100"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Red Bow Tie\n  Key         R\n"))
    #expect(result.stdout.hasSuffix("  Photo       \(bad.count) bytes\n"))
    #expect(!result.stdout.contains("\u{1B}"))
    let expected =
      name.hasSuffix(".jpg")
      ? "bowties: warning: Red Bow Tie: its photo cannot be shown: not a readable JPEG image (Premature end of JPEG file)\n"
      : "bowties: warning: Red Bow Tie: its photo cannot be shown: a PDF image, which bowties cannot read (PNG and JPEG only)\n"
    #expect(result.stderr == expected)
  }

  @Test(
    "photo --output writes the bytes given; refuses an extension of another format; names the file in a folder"
  )
  func photoOutput() throws {
    let bowties = BowtiesSandbox()
    let original = try Data(contentsOf: Fixtures.photo("phone.jpg"))
    try bowties("edit", "R", "--photo", Fixtures.photo("phone.jpg").path)
    let wrong = try bowties("photo", "R", "-o", "red.png")
    #expect(wrong.status == 64)
    #expect(
      wrong.stderr
        == "bowties: the photo of Red Bow Tie is a JPEG: name the file red.jpg, or give a folder\n")
    #expect(
      !FileManager.default.fileExists(atPath: bowties.folder.appendingPathComponent("red.png").path)
    )
    for name in ["red.jpg", "red.JPEG", "red"] {
      #expect(try bowties("photo", "R", "-o", name).status == 0)
      #expect(try Data(contentsOf: bowties.folder.appendingPathComponent(name)) == original)
    }
    let folder = try bowties("photo", "R", "-o", "out/")
    #expect(folder.status == 0)
    #expect(folder.stdout == bowties.folder.appendingPathComponent("out/R.jpg").path + "\n")
    #expect(try Data(contentsOf: bowties.folder.appendingPathComponent("out/R.jpg")) == original)
    #expect(try bowties("photo", "G", "-o", "out").stdout.hasSuffix("/out/G.png\n"))
    #expect(try bowties("photo", "G", "-o", "green.jpg").status == 64)
    // Exported to a folder, a JPEG keeps its extension, and seeds back as it was.
    #expect(try bowties("export", "-o", "export/").status == 0)
    let exported = bowties.folder.appendingPathComponent("export/images/R.jpg")
    #expect(try Data(contentsOf: exported) == original)
    let other = bowties.folder.appendingPathComponent("other.sqlite").path
    #expect(
      try bowties.run(BowtiesSandbox.binary.path, ["seed", "export", "--store", other]).status == 0)
    let seeded = try bowties.run(BowtiesSandbox.binary.path, ["show", "R", "--store", other])
    #expect(seeded.stdout.contains("  Photo       JPEG 480×640, 63.5 KB\n"))
  }

  @Test("the book's project seeds: images from its asset catalog, a vector PDF at 3×")
  func bookProject() throws {
    let bowties = BowtiesSandbox()
    let plist = Fixtures.bookProject.appendingPathComponent("SampleData.plist").path
    let seeded = try bowties("seed", plist)
    #expect(seeded.status == 0, "\(seeded.stderr)")
    #expect(seeded.stdout == "added 7, replaced 0, skipped 0\n")
    func photoLine(_ key: String) throws -> String {
      let lines = try bowties("show", key).stdout.split(separator: "\n")
      return String(lines.last ?? "")
    }
    // red: a 128-point PDF, rasterized at 3×; orange: the @3x JPEG as it is; yellow: the
    // universal @3x PNG, not the dark or iPhone variants; green: a 100-point PDF.
    #expect(try photoLine("R") == "  Photo       PNG 384×384, 13.1 KB")
    let orange = try Data(
      contentsOf: Fixtures.bookProject.appendingPathComponent(
        "Assets.xcassets/bowties/orange.imageset/orange@3x.jpg"))
    #expect(try photoLine("O") == "  Photo       JPEG 120×90, 3.9 KB")
    #expect(
      try bowties.sqlite(
        "SELECT hex(photoData) = '\(orange.hexText)' FROM bowTie WHERE searchKey = 'O'")
        == "1\n")
    #expect(try photoLine("Y") == "  Photo       PNG 96×96, 1.3 KB")
    #expect(try photoLine("G").hasPrefix("  Photo       PNG 300×300, "))
    let shown = try bowties("show", "R", "--image", "always", environment: ["COLUMNS": "100"])
    #expect(shown.status == 0 && shown.stderr.isEmpty)
    try expectGolden(shown.stdout, "show-red-pdf.ansi")
  }

  @Test("a seed whose photos are nowhere says where it looked and how to seed without them")
  func missingPhotos() throws {
    let bowties = BowtiesSandbox()
    let project = bowties.folder.appendingPathComponent("BowTies")
    try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
    let plist = project.appendingPathComponent("SampleData.plist")
    try FileManager.default.copyItem(
      at: Fixtures.bookProject.appendingPathComponent("SampleData.plist"), to: plist)
    let failed = try bowties("seed", plist.path)
    #expect(failed.status == 66)
    #expect(
      failed.stderr
        == "bowties: entry 0 (Red Bow Tie): imageName: red.png is not in \(project.path)/images/, "
        + "and no asset catalog (*.xcassets) is beside the plist; "
        + "seed with --no-photos to add the ties without their photos\n")
    #expect(!FileManager.default.fileExists(atPath: bowties.store))
    // With a catalog that lacks the image set, the message names the catalog too.
    try FileManager.default.createDirectory(
      at: project.appendingPathComponent("Assets.xcassets/other.imageset"),
      withIntermediateDirectories: true)
    let stillMissing = try bowties("seed", plist.path)
    #expect(
      stillMissing.stderr.contains(
        "red.png is not in \(project.path)/images/ nor in \(project.path)/Assets.xcassets (image set red); "
      ))
    let withoutPhotos = try bowties("seed", plist.path, "--no-photos")
    #expect(withoutPhotos.status == 0, "\(withoutPhotos.stderr)")
    #expect(withoutPhotos.stdout == "added 7, replaced 0, skipped 0\n")
    #expect(try bowties("show", "R").stdout.hasSuffix("  Photo       none\n"))
  }

  @Test("seed --no-photos --replace keeps a replaced tie's photo")
  func noPhotosKeepsPhotos() throws {
    let bowties = BowtiesSandbox()
    try bowties("edit", "R", "--photo", Fixtures.photo("phone.jpg").path, "--rating", "1")
    let replaced = try bowties("seed", "--replace", "--no-photos")
    #expect(replaced.stdout == "added 0, replaced 7, skipped 0\n")
    let shown = try bowties("show", "R").stdout
    #expect(shown.contains("  Rating      4/5\n"), "the plist's values")
    #expect(shown.contains("  Photo       JPEG 480×640, 63.5 KB\n"), "the photo it had")
  }

  @Test("doctor compares each photo with what its row says, and repairs the row")
  func doctorChecksPhotos() throws {
    let bowties = BowtiesSandbox()
    try bowties("show", "R")
    // Another tool put the phone's JPEG in, leaving the red PNG's columns; and garbage in O.
    let phone = try Data(contentsOf: Fixtures.photo("phone.jpg"))
    try bowties.sqlite(
      "UPDATE bowTie SET photoData = X'\(phone.hexText)', photoSize = \(phone.count) WHERE searchKey = 'R'"
    )
    try bowties.sqlite("UPDATE bowTie SET photoData = X'00FF', photoSize = 2 WHERE searchKey = 'O'")
    let found = try bowties("doctor")
    #expect(found.status == 65)
    #expect(
      found.stdout.contains(
        "problem   invalidRow  Red Bow Tie (R): its photo columns (PNG 128×128) do not match its photo (JPEG 480×640)"
      ))
    #expect(
      found.stdout.contains(
        "problem   photo  Orange Bow Tie (O): its photo is not a readable PNG or JPEG image; replace it with edit --photo or --no-photo"
      ))
    let repaired = try bowties("doctor", "--repair")
    #expect(repaired.stdout.contains("repaired  invalidRow  Red Bow Tie (R): its photo columns"))
    #expect(try bowties("show", "R").stdout.contains("  Photo       JPEG 480×640, 63.5 KB\n"))
    #expect(try bowties("show", "O").stdout.contains("  Photo       2 bytes\n"))
    // Undo of an edit puts the photo back with what is known of it.
    #expect(try bowties("edit", "G", "--photo", Fixtures.photo("phone.jpg").path).status == 0)
    #expect(try bowties("undo").status == 0)
    #expect(try bowties("show", "G").stdout.contains("  Photo       PNG 128×128, 10.7 KB\n"))
  }

  /// Compares with `Golden/NAME`, or rewrites it when `BOWTIES_UPDATE_GOLDEN=1`.
  private func expectGolden(_ output: String, _ name: String) throws {
    let file = PhotoTests.golden.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["BOWTIES_UPDATE_GOLDEN"] == "1" {
      try Data(output.utf8).write(to: file)
      return
    }
    let expected = try String(contentsOf: file, encoding: .utf8)
    #expect(output == expected, "differs from Golden/\(name); BOWTIES_UPDATE_GOLDEN=1 rewrites it")
  }
}

extension Data {
  /// Upper-case hex, as SQLite's hex() and X'…' literals write it.
  var hexText: String { map { String(format: "%02X", $0) }.joined() }
}
