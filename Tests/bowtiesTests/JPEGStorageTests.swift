import Foundation
import Testing

/// JPEGs along every way a photo travels, through the built binary: inline in a seed, from
/// a seed's images/ folder, into a file beside the store, and through backup and restore.
@Suite("JPEG photos in seeds, external files, backups")
struct JPEGStorageTests {
  /// phone.jpg is stored 640×480 with EXIF orientation 6 (scripts/make-photo-fixtures.py),
  /// so 480×640 as seen.
  private static let phoneSize = (width: 480, height: 640)

  /// The photo folder of the store at `store`: `.NAME_SUPPORT/_EXTERNAL_DATA` beside it, as
  /// Core Data names it.
  private static func photoFolder(_ store: String) -> URL {
    let url = URL(fileURLWithPath: store)
    return url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.deletingPathExtension().lastPathComponent)_SUPPORT/_EXTERNAL_DATA")
  }

  private func entry(_ name: String, _ key: String, _ extra: String = "") -> String {
    """
    <dict><key>name</key><string>\(name)</string><key>searchKey</key><string>\(key)</string>
    <key>rating</key><integer>3</integer>\(extra)</dict>
    """
  }

  /// An entry's photo given inline, as plist data.
  private func photoData(_ data: Data) -> String {
    "<key>photoData</key><data>\(data.base64EncodedString())</data>"
  }

  private func plist(_ entries: [String]) -> Data {
    Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><array>\(entries.joined())</array></plist>
      """.utf8)
  }

  private func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// The SHA-256 of `file` in lowercase hex, by coreutils rather than the code under test.
  private func sha256(_ bowties: BowtiesSandbox, _ file: URL) throws -> String {
    let result = try bowties.run("/usr/bin/sha256sum", [file.path])
    try #require(result.status == 0)
    return String(result.stdout.prefix(64))
  }

  /// Everything a command could change: the database and the photo folder's files.
  private func state(_ bowties: BowtiesSandbox) throws -> String {
    let folder = Self.photoFolder(bowties.store)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return try bowties.sqlite(".dump") + files.sorted().joined(separator: "\n")
  }

  /// Checks that `key`'s photo is `data`, a JPEG seen at phone.jpg's size: kept inline, or
  /// in the photo folder under its SHA-256; and that `photo --output` gives it back.
  private func expectStored(
    _ data: Data, as key: String, external: Bool, _ bowties: BowtiesSandbox,
    store: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let store = store ?? bowties.store
    let shown = try bowties.run(
      BowtiesSandbox.binary.path, ["show", key, "--json", "--store", store])
    #expect(shown.status == 0, "\(shown.stderr)", sourceLocation: sourceLocation)
    let tie = try json(shown.stdout)
    #expect(tie["photoFormat"] as? String == "jpeg", sourceLocation: sourceLocation)
    #expect(tie["photoBytes"] as? Int == data.count, sourceLocation: sourceLocation)
    #expect(
      tie["photoWidth"] as? Int == Self.phoneSize.width
        && tie["photoHeight"] as? Int == Self.phoneSize.height,
      "\(tie)", sourceLocation: sourceLocation)
    let original = bowties.folder.appendingPathComponent("original-\(key).jpg")
    try data.write(to: original)
    let row = try bowties.run(
      "/usr/bin/sqlite3",
      [store, "SELECT hex(photoData), photoFile FROM bowTie WHERE searchKey = '\(key)'"]
    ).stdout
    if external {
      let name = try sha256(bowties, original)
      #expect(row == "|\(name)\n", sourceLocation: sourceLocation)
      let file = Self.photoFolder(store).appendingPathComponent(name)
      #expect(try Data(contentsOf: file) == data, sourceLocation: sourceLocation)
    } else {
      #expect(row == "\(data.hexText)|\n", sourceLocation: sourceLocation)
    }
    let output = bowties.folder.appendingPathComponent("out-\(key)-\(UUID().uuidString).jpg")
    let written = try bowties.run(
      BowtiesSandbox.binary.path, ["photo", key, "--output", output.path, "--store", store])
    #expect(written.status == 0, "\(written.stderr)", sourceLocation: sourceLocation)
    #expect(try Data(contentsOf: output) == data, sourceLocation: sourceLocation)
  }

  enum SeedFormat: String, CaseIterable { case plist, json }

  @Test(
    "a seed's inline photoData may be a JPEG: stored byte for byte, inline or in a file by size",
    arguments: SeedFormat.allCases)
  func inlineJPEG(format: SeedFormat) throws {
    let bowties = BowtiesSandbox()
    let small = try Data(contentsOf: Fixtures.photo("phone.jpg"))
    let large = try testJPEG(bytes: 200_000, seed: 7)
    let file = bowties.folder.appendingPathComponent("ties.\(format.rawValue)")
    switch format {
    case .plist:
      try plist([
        entry("Small JPEG", "J1", photoData(small)),
        entry("Large JPEG", "J2", photoData(large)),
      ]).write(to: file)
    case .json:
      let ties: [[String: Any]] = [
        [
          "name": "Small JPEG", "searchKey": "J1", "rating": 3,
          "photoData": small.base64EncodedString(),
        ],
        [
          "name": "Large JPEG", "searchKey": "J2", "rating": 3,
          "photoData": large.base64EncodedString(),
        ],
      ]
      try JSONSerialization.data(withJSONObject: ties).write(to: file)
    }
    let seeded = try bowties("seed", file.path)
    #expect(seeded.status == 0, "\(seeded.stderr)")
    #expect(seeded.stdout == "added 2, replaced 0, skipped 0\n")
    try expectStored(small, as: "J1", external: false, bowties)
    try expectStored(large, as: "J2", external: true, bowties)
  }

  @Test(
    "an inline photoData that does not decode stops the seed: exit 65, the entry named, nothing changes",
    arguments: [
      ("truncated.jpg", "not a readable JPEG image (Premature end of JPEG file)"),
      ("garbage.jpg", "not a readable JPEG image ("),
      ("photo.gif", "a GIF image, which bowties cannot read (PNG and JPEG only); "),
    ])
  func inlineRefused(name: String, reason: String) throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let before = try state(bowties)
    let good = try testJPEG(bytes: 200_000, seed: 8)
    let bad = try Data(contentsOf: Fixtures.photo("corrupt/\(name)"))
    let file = bowties.folder.appendingPathComponent("ties.plist")
    try plist([
      entry("Good JPEG", "J1", photoData(good)),
      entry("Bad Photo", "J2", photoData(bad)),
    ]).write(to: file)
    let seeded = try bowties("seed", file.path)
    #expect(seeded.status == 65)
    #expect(seeded.stdout.isEmpty)
    #expect(
      seeded.stderr.hasPrefix("bowties: entry 1 (Bad Photo): photoData \(reason)"),
      "\(seeded.stderr)")
    #expect(seeded.stderr.split(separator: "\n").count == 1)
    #expect(try state(bowties) == before)
  }

  @Test(
    "a seed whose image file is a damaged JPEG or PDF, or a GIF, stops with the entry named: exit 66, nothing changes",
    arguments: [
      ("truncated.jpg", "not a readable JPEG image (Premature end of JPEG file)"),
      ("garbage.jpg", "not a readable JPEG image ("),
      ("truncated.pdf", "not a readable PDF document ("),
      ("garbage.pdf", "not a readable PDF document ("),
      ("photo.gif", "a GIF image, which bowties cannot read (PNG and JPEG only); "),
    ])
  func imageFileRefused(name: String, reason: String) throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let before = try state(bowties)
    let images = bowties.folder.appendingPathComponent("mine/images")
    try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
    try testJPEG(bytes: 200_000, seed: 9).write(to: images.appendingPathComponent("good.jpg"))
    try FileManager.default.copyItem(
      at: Fixtures.photo("corrupt/\(name)"), to: images.appendingPathComponent(name))
    let file = bowties.folder.appendingPathComponent("mine/ties.plist")
    try plist([
      entry("Good JPEG", "J1", "<key>imageName</key><string>good</string>"),
      entry("Bad Photo", "J2", "<key>imageName</key><string>\(name)</string>"),
    ]).write(to: file)
    let seeded = try bowties("seed", file.path)
    #expect(seeded.status == 66)
    #expect(seeded.stdout.isEmpty)
    let path = images.appendingPathComponent(name).path
    #expect(
      seeded.stderr.hasPrefix(
        "bowties: entry 1 (Bad Photo): imageName: cannot read \(path): \(reason)"),
      "\(seeded.stderr)")
    #expect(seeded.stderr.split(separator: "\n").count == 1)
    #expect(try state(bowties) == before)
    // Nor is a new store made from it.
    let other = bowties.folder.appendingPathComponent("other.sqlite").path
    let fresh = try bowties.run(BowtiesSandbox.binary.path, ["seed", file.path, "--store", other])
    #expect(fresh.status == 66 && fresh.stderr == seeded.stderr)
    #expect(!FileManager.default.fileExists(atPath: other))
  }

  @Test(
    "a JPEG above 128 KiB from add or edit --photo is kept in a file named by its SHA-256; photo --output gives it back"
  )
  func externalJPEG() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let added = try testJPEG(bytes: 140_000, seed: 1)
    let edited = try testJPEG(bytes: 290_000, seed: 2)
    try added.write(to: bowties.folder.appendingPathComponent("added.jpg"))
    try edited.write(to: bowties.folder.appendingPathComponent("edited.jpg"))
    let add = try bowties("add", "--name", "Large JPEG", "--key", "J", "--photo", "added.jpg")
    #expect(add.status == 0, "\(add.stderr)")
    let edit = try bowties("edit", "R", "--photo", "edited.jpg")
    #expect(edit.status == 0, "\(edit.stderr)")
    try expectStored(added, as: "J", external: true, bowties)
    try expectStored(edited, as: "R", external: true, bowties)
    // Drawn from its file, upright, with no warning.
    let shown = try bowties("show", "J", "--image", "always", environment: ["COLUMNS": "100"])
    #expect(shown.status == 0 && shown.stderr.isEmpty, "\(shown.stderr)")
    #expect(shown.stdout.contains("▀"))
  }

  @Test(
    "backup then restore gives back JPEG photos, inline and in files, byte for byte; doctor: healthy"
  )
  func backupAndRestore() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let small = try Data(contentsOf: Fixtures.photo("phone.jpg"))
    let large = try testJPEG(bytes: 200_000, seed: 3)
    try large.write(to: bowties.folder.appendingPathComponent("large.jpg"))
    try #require(try bowties("edit", "R", "--photo", Fixtures.photo("phone.jpg").path).status == 0)
    try #require(
      try bowties("add", "--name", "Large JPEG", "--key", "J", "--photo", "large.jpg").status == 0)
    let backupPath = bowties.folder.appendingPathComponent("backups/copy.sqlite").path
    let backup = try bowties("backup", backupPath)
    #expect(backup.status == 0, "\(backup.stderr)")
    try expectStored(small, as: "R", external: false, bowties, store: backupPath)
    try expectStored(large, as: "J", external: true, bowties, store: backupPath)

    // The live store moves on: both photos gone, and another large JPEG in their place.
    let other = try testJPEG(bytes: 200_000, seed: 4)
    try other.write(to: bowties.folder.appendingPathComponent("other.jpg"))
    #expect(try bowties("edit", "R", "--photo", "other.jpg").status == 0)
    #expect(try bowties("remove", "J", "--yes").status == 0)

    let restored = try bowties("restore", backupPath, "--yes")
    #expect(restored.status == 0, "\(restored.stderr)")
    try expectStored(small, as: "R", external: false, bowties)
    try expectStored(large, as: "J", external: true, bowties)

    // The live store's undo log still holds the large photo's file: restored into a store
    // that never held it, the file can only come from the backup.
    let elsewhere = bowties.folder.appendingPathComponent("elsewhere/BowTies.sqlite").path
    #expect(
      try bowties.run(BowtiesSandbox.binary.path, ["list", "--store", elsewhere]).status == 0)
    let restoredElsewhere = try bowties.run(
      BowtiesSandbox.binary.path, ["restore", backupPath, "--yes", "--store", elsewhere])
    #expect(restoredElsewhere.status == 0, "\(restoredElsewhere.stderr)")
    try expectStored(small, as: "R", external: false, bowties, store: elsewhere)
    try expectStored(large, as: "J", external: true, bowties, store: elsewhere)
    for store in [bowties.store, elsewhere, backupPath] {
      let doctor = try bowties.run(BowtiesSandbox.binary.path, ["doctor", "--store", store])
      #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
      #expect(doctor.stdout.hasSuffix("\nhealthy\n"), "\(doctor.stdout)")
    }
  }
}
