import Foundation
import GRDB
import Testing

@testable import BowTieKit
@testable import BowTieModel

/// Photos on their way into the store: checked, described, and found in asset catalogs;
/// and stores from before photo formats were recorded, migrated.
@Suite("Photos in the store")
struct PhotoStoreTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")
  static let book = fixtures.appendingPathComponent("BookProject/BowTies")

  static func photo(_ name: String) throws -> Data {
    try Data(contentsOf: fixtures.appendingPathComponent("Photos/\(name)"))
  }

  @Test("a JPEG is kept byte for byte and described upright; a PDF becomes a PNG at 3×")
  func intake() throws {
    let jpeg = try Self.photo("phone.jpg")
    let checked = try PhotoIntake.check(jpeg)
    #expect(checked.data == jpeg)
    #expect(checked.description == PhotoDescription(format: .jpeg, width: 480, height: 640))
    let pdf = try Data(
      contentsOf: Self.book.appendingPathComponent(
        "Assets.xcassets/bowties/red.imageset/red.pdf"))
    let rasterized = try PhotoIntake.check(pdf)
    #expect(rasterized.data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    #expect(rasterized.description == PhotoDescription(format: .png, width: 384, height: 384))
    #expect(PhotoDescription(of: rasterized.data) == rasterized.description)
  }

  @Test("a photo that does not decode is refused; a HEIC names the command that converts it")
  func refusals() throws {
    #expect(throws: (any Error).self) {
      try PhotoIntake.check(try Self.photo("corrupt/truncated.jpg"))
    }
    #expect(throws: (any Error).self) {
      try PhotoIntake.check(try Self.photo("corrupt/signature-only.png"))
    }
    let heic = try Self.photo("corrupt/photo.heic")
    do {
      _ = try PhotoIntake.check(heic)
      Issue.record("a HEIC was accepted")
    } catch {
      #expect(
        PhotoIntake.reason(error, file: "tie.heic")
          == "a HEIC image, which bowties cannot read (PNG and JPEG only); convert it first: heif-convert tie.heic tie.jpg"
      )
    }
  }

  @Test("a library caller's unchecked bytes are checked when saved")
  func saveChecks() throws {
    let store = try makeInMemoryStore()
    let bad = BowTie(
      name: "Bad", searchKey: "BAD", photoData: try Self.photo("corrupt/garbage.jpg"))
    #expect {
      try store.add(bad)
    } throws: { error in
      guard case .invalidTie("Bad", let failure)? = error as? BowTieError else { return false }
      return failure.attribute == "photoData"
        && failure.reason.hasPrefix("not a readable JPEG image")
    }
    let good = try store.add(
      BowTie(name: "Good", searchKey: "GOOD", photoData: try Self.photo("phone.jpg")))
    #expect(good.photoDescription == PhotoDescription(format: .jpeg, width: 480, height: 640))
    // A later edit of something else leaves the photo and what is known of it alone.
    var edit = TieEdit()
    edit.rating = 3
    #expect(try store.edit("GOOD", edit).photoDescription == good.photoDescription)
  }

  @Test("the book's asset catalog: folder groups, the universal image at the highest scale")
  func assetCatalog() throws {
    let plist = Self.book.appendingPathComponent("SampleData.plist")
    let entries = try SeedFile.parse(
      Data(contentsOf: plist), source: "SampleData.plist",
      images: .folder(Self.book.appendingPathComponent("images")))
    #expect(entries.count == 7)
    let byKey = Dictionary(uniqueKeysWithValues: entries.map { ($0.tie.searchKey, $0.tie) })
    let catalog = Self.book.appendingPathComponent("Assets.xcassets")
    #expect(byKey["R"]?.photoDescription == PhotoDescription(format: .png, width: 384, height: 384))
    #expect(
      byKey["O"]?.photoData
        == (try Data(
          contentsOf: catalog.appendingPathComponent("bowties/orange.imageset/orange@3x.jpg"))))
    #expect(
      byKey["Y"]?.photoData
        == (try Data(
          contentsOf: catalog.appendingPathComponent("bowties/summer/yellow.imageset/yellow@3x.png")
        )))
    for key in ["G", "B", "I", "V"] {
      #expect(
        byKey[key]?.photoDescription == PhotoDescription(format: .png, width: 300, height: 300))
    }
  }

  @Test("two image sets of one name in a catalog are refused, as Xcode refuses them")
  func ambiguousCatalog() throws {
    let folder = TemporaryFolder()
    let catalog = folder.url.appendingPathComponent("Assets.xcassets")
    for group in ["a", "b"] {
      let set = catalog.appendingPathComponent("\(group)/red.imageset")
      try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
      try photoBytes(count: 200, seed: 1).write(to: set.appendingPathComponent("red.png"))
      try Data(#"{"images":[{"idiom":"universal","filename":"red.png"}]}"#.utf8)
        .write(to: set.appendingPathComponent("Contents.json"))
    }
    let file = try folder.writePlist([tieEntry("A", key: "A", imageName: "red.png")])
    #expect {
      try SeedFile.parse(
        Data(contentsOf: file), source: "x",
        images: .folder(folder.url.appendingPathComponent("images")))
    } throws: { error in
      (error as? BowTieError)?.localizedDescription.hasSuffix(
        "has more than one image set named red: a/red.imageset, b/red.imageset") == true
    }
  }

  @Test("a store from before v5 gets each photo's format and size from its header")
  func migration() throws {
    let folder = TemporaryFolder()
    ColorAttributeTransformer.register()
    let queue = try DatabaseQueue(path: folder.storeURL.path)
    try Schema.migrator.migrate(queue, upTo: "v3: prices, photos kept for undo")
    let inline = try Self.photo("phone.jpg")  // (a store of that age held PNGs only)
    let png = photoBytes(count: 300, seed: 5)
    let external = photoBytes(count: 200_000, seed: 6)
    let externalName = PhotoStorage.contentName(external)
    let photoFolder = StoreLocation.externalDataDirectory(forStoreAt: folder.storeURL)
    try FileManager.default.createDirectory(at: photoFolder, withIntermediateDirectories: true)
    try external.write(to: photoFolder.appendingPathComponent(externalName))
    try queue.write { db in
      for (key, data, file) in [
        ("J", inline as Data?, nil as String?), ("P", png, nil), ("X", nil, externalName),
        ("G", Data("garbage".utf8), nil), ("M", nil, String(repeating: "0", count: 64)),
        ("N", nil, nil),
      ] {
        try db.execute(
          sql: """
            INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating,
              photoData, photoFile, photoSize)
            VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)
            """,
          arguments: [
            UUID().uuidString, "Tie \(key)", "tie \(key.lowercased())", key, key.lowercased(),
            data, file, data?.count ?? (file == nil ? nil : 200_000),
          ])
      }
    }
    try queue.close()
    let store = try folder.openStore()
    func description(_ key: String) throws -> PhotoDescription? {
      try store.tie(matching: key).photoDescription
    }
    #expect(try description("J") == PhotoDescription(format: .jpeg, width: 480, height: 640))
    #expect(try description("P") == PhotoDescription(format: .png, width: 1, height: 1))
    #expect(try description("X") == PhotoDescription(format: .png, width: 1, height: 1))
    #expect(try description("G") == nil, "unreadable: no description, the bytes kept")
    #expect(try store.tie(matching: "G").photoByteCount == 7)
    #expect(try description("M") == nil, "its file is missing")
    #expect(try description("N") == nil)
  }
}
