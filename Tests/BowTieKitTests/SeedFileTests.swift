import Foundation
import Testing

@testable import BowTieKit
@testable import BowTieModel

@Suite("Seed files")
struct SeedFileTests {
  private func parse(_ entries: Any, images: [String: Data] = [:]) throws -> [SeedEntry] {
    let folder = TemporaryFolder()
    let file = try folder.writePlist(entries, images: images)
    return try SeedFile.parse(
      Data(contentsOf: file), source: "ties.plist",
      images: .folder(folder.url.appendingPathComponent("images")))
  }

  /// Parses, expecting a refusal, and returns its message.
  private func refusal(_ entries: Any, images: [String: Data] = [:]) -> String {
    do {
      _ = try parse(entries, images: images)
      return "accepted"
    } catch {
      return error.localizedDescription
    }
  }

  @Test("the bundled sample data holds the seven rainbow ties with photos")
  func sampleData() throws {
    let entries = try SampleData.entries()
    #expect(entries.map(\.tie.searchKey) == ["R", "O", "Y", "G", "B", "I", "V"])
    #expect(entries.map(\.tie.name).allSatisfy { $0.hasSuffix(" Bow Tie") })
    #expect(entries.allSatisfy { ($0.tie.photoData?.count ?? 0) > 0 && $0.hasExplicitID })
    let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(entries.allSatisfy { $0.tie.photoData?.prefix(8) == pngSignature })
    #expect(entries[0].tie.tintColor?.hex == "#EF3024")
  }

  @Test("the checked-in SampleData.plist is what the binary embeds")
  func embeddedMatchesFile() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let onDisk = try SeedFile.parse(
      Data(contentsOf: root.appendingPathComponent("SampleData.plist")), source: "SampleData.plist",
      images: .folder(root.appendingPathComponent("images")))
    let embedded = try SampleData.entries()
    #expect(onDisk.map(\.tie) == embedded.map(\.tie))
  }

  @Test("a plist written for the app seeds: integer ratings, binary format, no ids")
  func appPlists() throws {
    var entry = tieEntry("Red Bow Tie", key: "R", rating: 4)
    entry["isFavorite"] = 1
    let folder = TemporaryFolder()
    let file = try folder.writePlist([entry], format: .binary)
    let entries = try SeedFile.parse(
      Data(contentsOf: file), source: "ties.plist", images: .folder(folder.url))
    #expect(entries.first?.tie.rating == 4)
    #expect(entries.first?.tie.isFavorite == true)
    #expect(entries.first?.hasExplicitID == false)
  }

  /// A plist value of the wrong type, Sendable so it can be a test argument.
  enum WrongValue: Sendable {
    case integer(Int), boolean(Bool), string(String), real(Double), array([String])

    var plistValue: Any {
      switch self {
      case .integer(let value): value
      case .boolean(let value): value
      case .string(let value): value
      case .real(let value): value
      case .array(let value): value
      }
    }
  }

  @Test(
    "a wrong type for each key names the entry, the key and what was found",
    arguments: [
      ("name", WrongValue.integer(42), "name must be a string, found an integer (42)"),
      ("searchKey", .boolean(true), "searchKey must be a string, found a boolean (true)"),
      ("rating", .string("high"), "rating must be a number, found a string ('high')"),
      ("tintColor", .string("red"), "tintColor must be a dictionary of red, green and blue"),
      ("timesWorn", .string("3"), "timesWorn must be a whole number, found a string ('3')"),
      ("lastWorn", .string("yesterday"), "lastWorn 'yesterday' is not an ISO 8601 date"),
      ("isFavorite", .string("yes"), "isFavorite must be a boolean, found a string ('yes')"),
      ("url", .real(3.5), "url must be a string, found a number (3.5)"),
      ("id", .integer(7), "id must be a string, found an integer (7)"),
      ("imageName", .array(["a"]), "imageName must be a string, found an array"),
    ])
  func wrongTypes(key: String, value: WrongValue, message: String) {
    var bad = tieEntry("Green Bow Tie", key: "G")
    bad[key] = value.plistValue
    let entries = [
      tieEntry("Red Bow Tie", key: "R"), tieEntry("Blue", key: "B"), tieEntry("Y", key: "Y"), bad,
    ]
    let text = refusal(entries)
    let label = key == "name" ? "entry 3:" : "entry 3 (Green Bow Tie):"
    #expect(text.hasPrefix(label), "\(text)")
    #expect(text.contains(message), "\(text)")
  }

  @Test("missing keys", arguments: ["name", "searchKey", "rating"])
  func missingKeys(key: String) {
    var entry = tieEntry("Red Bow Tie", key: "R")
    entry[key] = nil
    #expect(refusal([entry]).contains("\(key) is missing"))
  }

  @Test("out-of-range values")
  func ranges() {
    #expect(
      refusal([tieEntry("Green Bow Tie", key: "G", rating: 7.5)])
        == "entry 0 (Green Bow Tie): rating 7.5 is outside 0…5")
    #expect(
      refusal([tieEntry("G", key: "G", rating: Double.nan)]).contains("rating nan is not a number"))
    #expect(refusal([tieEntry("G", key: "G", rating: -Double.infinity)]).contains("rating -inf"))
    var negative = tieEntry("G", key: "G")
    negative["timesWorn"] = -1
    #expect(refusal([negative]).contains("timesWorn -1 is negative"))
    // Seeding records lastWorn as a wear, and no wear is after today.
    var future = tieEntry("G", key: "G")
    future["lastWorn"] = Date().addingTimeInterval(2 * 86_400)
    #expect(refusal([future]) == "entry 0 (G): lastWorn is after today: a wear is today or earlier")
    var huge = tieEntry("G", key: "G")
    huge["timesWorn"] = Int64(Int32.max) + 1
    #expect(refusal([huge]).contains("timesWorn 2147483648 is above the largest count"))
    var color = tieEntry("G", key: "G")
    color["tintColor"] = ["red": 256, "green": 0, "blue": 0]
    #expect(refusal([color]).contains("tintColor red 256 is outside 0–255"))
    color["tintColor"] = ["red": 1, "green": 2]
    #expect(refusal([color]).contains("tintColor is missing blue"))
    color["tintColor"] = ["red": 1.5, "green": 2, "blue": 3]
    #expect(refusal([color]).contains("red must be a whole number"))
    var link = tieEntry("G", key: "G")
    link["url"] = "not a url"
    #expect(refusal([link]).contains("url 'not a url' is not an absolute URL"))
    var id = tieEntry("G", key: "G")
    id["id"] = "12345"
    #expect(refusal([id]).contains("id '12345' is not a UUID"))
    var extra = tieEntry("G", key: "G")
    extra["ratng"] = 3
    #expect(refusal([extra]).contains("ratng is not a known key"))
  }

  @Test("a price may be a string or a number, and stays exact")
  func prices() throws {
    var asString = tieEntry("A", key: "A")
    asString["price"] = "19.99"
    var asReal = tieEntry("B", key: "B")
    asReal["price"] = 19.99
    var asInteger = tieEntry("C", key: "C")
    asInteger["price"] = 5
    let entries = try parse([asString, asReal, asInteger])
    #expect(entries.map(\.tie.price) == [Decimal(string: "19.99"), Decimal(string: "19.99"), 5])
    var bad = tieEntry("D", key: "D")
    bad["price"] = "cheap"
    #expect(refusal([bad]).contains("price 'cheap' is not an amount"))
    bad["price"] = -3
    #expect(refusal([bad]).contains("price '-3' is not an amount"))
    bad["price"] = true
    #expect(refusal([bad]).contains("price must be an amount, found a boolean"))
  }

  @Test("a price's currency is a key or follows the amount; without one it is US dollars")
  func currencies() throws {
    var keyed = tieEntry("A", key: "A")
    keyed["price"] = "19.99"
    keyed["currency"] = "EUR"
    var typed = tieEntry("B", key: "B")
    typed["price"] = "2500 JPY"
    var bare = tieEntry("C", key: "C")
    bare["price"] = 5
    let entries = try parse([keyed, typed, bare])
    #expect(entries.map(\.tie.currency) == ["EUR", "JPY", "USD"])
    #expect(entries.map(\.tie.price) == [Decimal(string: "19.99"), 2500, 5])
    var bad = tieEntry("D", key: "D")
    bad["price"] = "5"
    bad["currency"] = "eur"
    #expect(refusal([bad]).contains("currency 'eur' is not an ISO 4217 currency code"))
    bad["currency"] = "ZZZ"
    #expect(refusal([bad]).contains("currency 'ZZZ' is not a known ISO 4217 currency code"))
    bad["currency"] = "EUR"
    bad["price"] = "5 EUR"
    #expect(refusal([bad]).contains("currency is given twice"))
    bad["price"] = nil
    #expect(refusal([bad]).contains("currency is given without a price"))
  }

  @Test("duplicate ids or search keys in one plist")
  func duplicates() {
    let id = UUID().uuidString
    #expect(
      refusal([tieEntry("A", key: "A", id: id), tieEntry("B", key: "B", id: id)])
        .contains("entry 1 (B): id \(id) repeats entry 0 (A)"))
    #expect(
      refusal([tieEntry("A", key: "R"), tieEntry("B", key: "r")])
        .contains("entry 1 (B): searchKey 'r' repeats entry 0 (A)"))
  }

  @Test(
    "image names may not leave images/",
    arguments: ["../secret.png", "/etc/passwd", "sub/dir.png", ".hidden", "..", "a\\b"])
  func imageEscapes(name: String) {
    #expect(
      refusal([tieEntry("A", key: "A", imageName: name)]).contains(
        "must be a plain file name inside images/"))
  }

  @Test("a symbolic link out of images/ is refused; a missing image is an input error")
  func imageLinks() throws {
    let folder = TemporaryFolder()
    let secret = folder.url.appendingPathComponent("secret.png")
    try Data("secret".utf8).write(to: secret)
    let file = try folder.writePlist([tieEntry("A", key: "A", imageName: "link.png")])
    let images = folder.url.appendingPathComponent("images")
    try FileManager.default.createSymbolicLink(
      at: images.appendingPathComponent("link.png"), withDestinationURL: secret)
    #expect(throws: BowTieError.self) {
      try SeedFile.parse(Data(contentsOf: file), source: "x", images: .folder(images))
    }
    do {
      _ = try SeedFile.parse(Data(contentsOf: file), source: "x", images: .folder(images))
    } catch {
      #expect(error.localizedDescription.contains("leads outside images/"))
    }
    let missing = try folder.writePlist(
      [tieEntry("A", key: "A", imageName: "nope")], name: "m.plist")
    #expect {
      try SeedFile.parse(Data(contentsOf: missing), source: "x", images: .folder(images))
    } throws: { error in
      guard
        case BowTieError.seedImageMissing(0, "A", "nope", let places, false)? = error
          as? BowTieError
      else { return false }
      return places == [images.path + "/"]
    }
  }

  @Test("photos are found by imageName, with or without .png")
  func imagesFound() throws {
    let png = photoBytes(count: 100, seed: 1)
    let entries = try parse(
      [tieEntry("A", key: "A", imageName: "red"), tieEntry("B", key: "B", imageName: "red.png")],
      images: ["red.png": png])
    #expect(entries.map(\.tie.photoData) == [png, png])
  }

  @Test("empty, non-plist and wrongly shaped files")
  func wholeFileProblems() throws {
    #expect(throws: BowTieError.invalidSeedFile(source: "x", reason: "the file is empty")) {
      try SeedFile.parse(Data(), source: "x", images: .embedded([:]))
    }
    for garbage in [
      Data("hello, world".utf8), Data([0xFF, 0x00, 0x13]), Data("<plist><array><dict>".utf8),
    ] {
      do {
        _ = try SeedFile.parse(garbage, source: "x", images: .embedded([:]))
        Issue.record("accepted garbage")
      } catch {
        #expect(error.localizedDescription.hasPrefix("x: not a property list"), "\(error)")
      }
    }
    #expect(
      refusal(["name": "A"]).contains("expected an array of tie dictionaries, found a dictionary"))
    #expect(
      refusal(["just a string"]) == "entry 0: is a string ('just a string'), not a dictionary")
  }

  /// Found by fuzzing (Fuzz/Corpus/seed-file/crash-binary-plist-set): PropertyListSerialization
  /// crashed (a null dereference while bridging an NSSet) on a binary plist holding a set: an array
  /// holding a set of 1.
  @Test("a binary plist holding a set is refused, not a crash")
  func binaryPlistWithSet() {
    let header = Array("bplist00".utf8)
    let objects: [UInt8] = [0xA1, 0x01, 0xC1, 0x02, 0x10, 0x01]
    let trailer: [UInt8] =
      [0x08, 0x0A, 0x0C] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 3]
      + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 14]
    let message = refusalMessage {
      _ = try SeedFile.parse(
        Data(header + objects + trailer), source: "x.plist", images: .embedded([:]))
    }
    #expect(message.hasPrefix("x.plist: not a property list (malformed binary property list: "))
    #expect(message.contains("0xC1"), "\(message)")
  }

  /// Found by fuzzing (Fuzz/Corpus/seed-file/crash-json-rating-ulp): JSONSerialization read
  /// 4.5371093750000036 as 4.537109375000003, so a JSON export seeded and exported again changed.
  @Test("JSON numbers are read exactly", arguments: [4.5371093750000036, 1.0000000000000002])
  func jsonNumbers(rating: Double) throws {
    let entries = try parseJSONSeed(#"[{"name": "A", "searchKey": "A", "rating": \#(rating)}]"#)
    #expect(entries.first?.tie.rating.bitPattern == rating.bitPattern)
  }

  /// Found by fuzzing (Fuzz/Corpus/seed-file/crash-negative-zero-rating): a rating of -0 exported
  /// to JSON as "-0", which reads back as the integer 0, so the export seeded and exported again
  /// changed.
  @Test("a rating of -0 is read as 0")
  func negativeZeroRating() throws {
    let plist = """
      <plist><array><dict><key>name</key><string>A</string><key>searchKey</key>
      <string>A</string><key>rating</key><real>-0</real></dict></array></plist>
      """
    let entries = try SeedFile.parse(Data(plist.utf8), source: "x.plist", images: .embedded([:]))
    #expect(entries.first?.tie.rating.sign == .plus)
  }
}
