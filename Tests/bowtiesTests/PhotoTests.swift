import Foundation
import ImageCodecs
import TerminalImage
import Testing

/// `show`'s photo, through the built binary: byte-for-byte renderings of the sample ties,
/// a photo stored in its own file, and photos that cannot be drawn.
@Suite("Photos in the terminal")
struct PhotoTests {
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden")

  /// Compares with `Golden/NAME`, or rewrites it when `BOWTIES_UPDATE_GOLDEN=1`.
  private func expectGolden(_ output: String, _ name: String) throws {
    let file = Self.golden.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["BOWTIES_UPDATE_GOLDEN"] == "1" {
      try Data(output.utf8).write(to: file)
      return
    }
    let expected = try String(contentsOf: file, encoding: .utf8)
    #expect(output == expected, "differs from Golden/\(name); BOWTIES_UPDATE_GOLDEN=1 rewrites it")
  }

  private static let details = """
    Red Bow Tie
      Key         R
      Rating      4/5
      Times worn  10
      Last worn   Oct 14, 2026
      Favorite    yes
      URL         https://en.wikipedia.org/wiki/Bow_tie
      Price       none
      Color       #EF3024

    """

  @Test(
    "each sample tie in truecolor half-blocks at 100 columns, as checked in",
    arguments: ["red", "orange", "yellow", "green", "blue", "indigo", "violet"])
  func samples(color: String) throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    let key = color.prefix(1).uppercased()
    let result = try bowtie("show", key, "--image", "always", environment: ["COLUMNS": "100"])
    #expect(result.status == 0)
    #expect(!result.stderr.contains("warning"))
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    // The photo beside the details: the name on the first row, after the photo's cells.
    #expect(lines[0].hasSuffix("  \(color.capitalized) Bow Tie"))
    #expect(lines[0].contains("\u{1B}[38;2;"))
    #expect(lines.contains { $0.contains("▀") })
    try expectGolden(result.stdout, "show-\(color).ansi")
  }

  @Test("narrow: the photo above the details; 256 colors when asked")
  func narrowAnd256() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    let narrow = try bowtie("show", "R", "--image", "always", environment: ["COLUMNS": "40"])
    #expect(narrow.status == 0)
    #expect(
      narrow.stdout.hasSuffix(
        Self.details.replacingOccurrences(
          of: "#EF3024\n", with: "#EF3024\n  Photo       PNG 128×128, 10.8 KB\n"
        ).dropFirst(Self.details.count)))
    let rows = narrow.stdout.split(separator: "\n")
    #expect(rows.first!.contains("\u{1B}[38;2;"))
    #expect(rows[rows.count - 10] == "Red Bow Tie")
    try expectGolden(narrow.stdout, "show-red-narrow.ansi")

    let palette = try bowtie(
      "show", "R", "--image", "always",
      environment: ["COLUMNS": "100", "BOWTIES_IMAGE_PROTOCOL": "halfblocks-256"])
    #expect(palette.status == 0)
    #expect(palette.stdout.contains("\u{1B}[38;5;196m"), "the red tie stays red in 256 colors")
    #expect(!palette.stdout.contains("\u{1B}[38;2;"))
    try expectGolden(palette.stdout, "show-red-256.ansi")
  }

  @Test("no photo into a pipe by default, nor with --image never; --json ignores --image")
  func whenNot() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    let plain = try bowtie("show", "R")
    #expect(plain.stdout.hasPrefix(Self.details))
    #expect(!plain.stdout.contains("\u{1B}"))
    #expect(try bowtie("show", "R", "--image", "never").stdout == plain.stdout)
    #expect(try bowtie("show", "R", "--image", "auto").stdout == plain.stdout)
    let json = try bowtie("show", "R", "--json")
    #expect(try bowtie("show", "R", "--json", "--image", "always").stdout == json.stdout)
    // --image always draws whatever NO_COLOR says: it was asked for.
    let always = try bowtie("show", "R", "--image", "always", environment: ["NO_COLOR": "1"])
    #expect(always.stdout.contains("▀"))
    let bad = try bowtie("show", "R", "--image", "sometimes")
    #expect(bad.status == 65)
  }

  @Test("the kitty, iTerm2 and sixel encodings reach stdout when asked for by name")
  func protocols() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("show", "R")
    func show(_ name: String) throws -> String {
      let result = try bowtie(
        "show", "R", "--image", "always",
        environment: ["COLUMNS": "100", "BOWTIES_IMAGE_PROTOCOL": name])
      #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
      return result.stdout
    }
    let kitty = try show("kitty")
    #expect(kitty.contains("\u{1B}7\u{1B}_Ga=T,f=100,q=2,c="))
    #expect(kitty.contains("m=0;"))
    #expect(kitty.contains("\u{1B}8\u{1B}[") && kitty.contains("GRed Bow Tie\n"))
    let iTerm = try show("iterm2")
    #expect(iTerm.contains("\u{1B}]1337;File=inline=1;size="))
    let sixel = try show("sixel")
    #expect(sixel.contains("\u{1B}P0;1;0q\"1;1;"))
    #expect(sixel.contains("\u{1B}\\\u{1B}8"))
    let unknown = try bowtie(
      "show", "R", "--image", "always",
      environment: ["COLUMNS": "100", "BOWTIES_IMAGE_PROTOCOL": "braille"])
    #expect(unknown.status == 0)
    #expect(
      unknown.stderr.hasPrefix("bowties: warning: BOWTIES_IMAGE_PROTOCOL=braille is not one of"))
    #expect(unknown.stdout.contains("▀"), "half-blocks instead")
  }

  @Test("a photo stored in its own file is drawn from that file; a missing one is a warning")
  func externalPhoto() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    // Noise does not compress: 256×256 opaque pixels make a PNG well over 128 KiB.
    var generator: UInt64 = 0x0B0E_7135
    var noise = RGBAImage(width: 256, height: 256, filledWith: RGBA(0, 0, 0, 255))
    for y in 0..<256 {
      for x in 0..<256 {
        generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let bits = generator >> 33
        noise[x, y] = RGBA(
          UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8),
          UInt8(truncatingIfNeeded: bits >> 16), 255)
      }
    }
    let png = try PNG.encode(noise)
    #expect(png.count > 128 * 1024)
    let file = bowtie.folder.appendingPathComponent("noise.png")
    try png.write(to: file)
    #expect(
      try bowtie("add", "--name", "Noise Bow Tie", "--key", "N", "--photo", file.path).status == 0)
    let external = bowtie.folder.appendingPathComponent(".BowTies_SUPPORT/_EXTERNAL_DATA")
    let files = try FileManager.default.contentsOfDirectory(atPath: external.path)
    #expect(files.count == 1)

    let shown = try bowtie("show", "N", "--image", "always", environment: ["COLUMNS": "100"])
    #expect(shown.status == 0)
    #expect(shown.stderr.isEmpty)
    // A square photo, height-limited: 48 columns by 24 rows, each row what the renderer
    // makes of the photo scaled to 48×48.
    let expected = HalfBlockRenderer(depth: .truecolor, background: RGB(0, 0, 0))
      .render(noise.resized(width: 48, height: 48))
    let lines = shown.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 24)
    for (row, line) in expected.enumerated() {
      #expect(lines[row].hasPrefix(line), "row \(row)")
    }
    #expect(lines[0].hasSuffix("  Noise Bow Tie"))
    #expect(lines[9].hasSuffix("  Photo       PNG 256×256, 230.5 KB"))
    #expect(png.count == 230_530)

    try FileManager.default.removeItem(at: external.appendingPathComponent(files[0]))
    let missing = try bowtie("show", "N", "--image", "always", environment: ["COLUMNS": "100"])
    #expect(missing.status == 0)
    #expect(missing.stdout.hasPrefix("Noise Bow Tie\n  Key         N\n"))
    #expect(!missing.stdout.contains("\u{1B}"))
    let warnings = missing.stderr.split(separator: "\n")
    #expect(warnings.count == 1, "one warning, not one per attempt: \(missing.stderr)")
    #expect(warnings.first?.hasPrefix("bowties: warning: Noise Bow Tie: photo file ") == true)
    #expect(warnings.first?.hasSuffix(" is missing") == true)
  }

  @Test(
    "a corrupt PNG is refused on its way in (66); written into the store by another tool, it is a one-line warning at show, exit 0",
    arguments: ["garbage", "truncated", "bad CRC"])
  func corruptPhoto(kind: String) throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    let good = try Data(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
          "images/red.png"))
    var bad: Data
    switch kind {
    case "garbage":
      // Passes `edit --photo`'s signature check, and nothing else.
      bad = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("not really".utf8)
    case "truncated":
      bad = good.prefix(good.count / 2)
    default:
      bad = good
      let idat = try #require(bad.firstRange(of: Data("IDAT".utf8)))
      let length = bad[(idat.lowerBound - 4)..<idat.lowerBound].reduce(0) { $0 << 8 | Int($1) }
      bad[idat.upperBound + length] ^= 0xFF
    }
    let file = bowtie.folder.appendingPathComponent("bad.png")
    try bad.write(to: file)
    try bowtie("show", "R")
    let refused = try bowtie("edit", "R", "--photo", file.path)
    #expect(refused.status == 66)
    #expect(
      refused.stderr.hasPrefix("bowties: cannot read \(file.path): not a readable PNG image ("))
    #expect(refused.stderr.split(separator: "\n").count == 1)
    #expect(
      try bowtie("show", "R").stdout.contains("Photo       PNG 128×128, 10.8 KB"), "unchanged")
    try bowtie.sqlite(
      "UPDATE bowTie SET photoData = X'\(bad.map { String(format: "%02X", $0) }.joined())', "
        + "photoSize = \(bad.count), photoFormat = NULL, photoWidth = NULL, photoHeight = NULL "
        + "WHERE searchKey = 'R'")
    let result = try bowtie("show", "R", "--image", "always", environment: ["COLUMNS": "100"])
    #expect(result.status == 0)
    #expect(result.stdout == Self.details + "  Photo       \(bad.count) bytes\n")
    let warnings = result.stderr.split(separator: "\n")
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.hasPrefix(
        "bowties: warning: Red Bow Tie: its photo cannot be shown: not a readable PNG image (")
        == true, "\(result.stderr)")
  }

  @Test("a photo that is not a PNG at all, written straight into the store, is a warning")
  func notAPNGInTheStore() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("show", "O")
    try bowtie.sqlite(
      "UPDATE bowTie SET photoData = X'474946383961', photoSize = 6 WHERE searchKey = 'O'")
    let result = try bowtie("show", "O", "--image", "always")
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Orange Bow Tie\n"))
    #expect(!result.stdout.contains("\u{1B}"))
    #expect(
      result.stderr
        == "bowties: warning: Orange Bow Tie: its photo cannot be shown: a GIF image, which bowties cannot read (PNG and JPEG only)\n"
    )
    #expect(result.stderr.split(separator: "\n").count == 1)
  }
}
