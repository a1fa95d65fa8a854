import CLibXML2
import Foundation
import Testing

@testable import BowTieKit

/// What the libFuzzer targets in `Fuzz/` found, one test each. The inputs that found them
/// are in `Fuzz/Corpus/<target>/` under the names given here.
@Suite("Fuzzing findings")
struct FuzzFindingTests {
  private func samples() throws -> BowTieStore {
    let store = try makeInMemoryStore()
    try store.seed(SampleData.entries())
    return store
  }

  private func json(_ text: String) throws -> [SeedEntry] {
    try SeedFile.parse(Data(text.utf8), source: "x.json", images: .embedded([:]), format: .json)
  }

  private func refusal(_ body: () throws -> Void) -> String {
    do {
      try body()
      return "accepted"
    } catch {
      return error.localizedDescription
    }
  }

  // MARK: tie-resolver

  /// crash-nul-after-key, crash-id-nul-suffix: GRDB binds text as a C string, so SQLite
  /// saw "B\0…" as "B"; and UUID(uuidString:) stops at a NUL too.
  @Test("a query with a NUL matches nothing, not what comes before the NUL")
  func nulInQuery() throws {
    let store = try samples()
    let id = "0B0771E5-0000-4000-8000-000000000001"
    for query in ["B\u{0}\u{0}", "Red Bow Tie\u{0}garbage", "\u{0}", id + "\u{0}e"] {
      #expect(throws: BowTieError.noSuchTie(query)) { try store.tie(matching: query) }
    }
    #expect(try store.tie(matching: " B ").name == "Blue Bow Tie")
  }

  /// crash-hangul-jamo: "가" typed as jamo (U+1100 U+1161, as macOS file names hold it)
  /// did not find the key "가" stored precomposed (U+AC00), though Swift calls them equal.
  @Test("keys and names match whether Hangul comes precomposed or as jamo")
  func hangulNormalization() throws {
    let store = try makeInMemoryStore()
    try store.add(BowTie(name: "가방 넥타이", searchKey: "가", rating: 3))
    #expect(try store.tie(matching: "\u{1100}\u{1161}").searchKey == "가")
    #expect(try store.tie(matching: "\u{1100}\u{1161}\u{1107}\u{1161}\u{11BC}").name == "가방 넥타이")
    #expect(BowTie.canonicalize("\u{1100}\u{1161}") == BowTie.canonicalize("\u{AC00}"))
    let duplicate = refusal {
      try store.add(BowTie(name: "Other", searchKey: "\u{1100}\u{1161}", rating: 1))
    }
    #expect(duplicate.contains("is already used by 가방 넥타이"), "\(duplicate)")
  }

  /// crash-id-with-plus: UUID(uuidString:) read "…-80+0-…" as "…-8000-…", so a text that
  /// is no id found Green; and " B0771E5-…" as the id B0771E05-….
  @Test("only a whole, well-formed id finds a tie or names one in a seed file")
  func strictIDs() throws {
    let store = try samples()
    let green = "0B0771E5-0000-4000-8000-000000000004"
    #expect(try store.tie(matching: green.lowercased()).name == "Green Bow Tie")
    let plus = "0B0771E5-0000-4000-80+0-000000000004"
    #expect(throws: BowTieError.noSuchTie(plus)) { try store.tie(matching: plus) }
    let shifted = " B0771E5-0000-4000-8000-000000000004"
    let message = refusal {
      _ = try json(#"[{"name": "A", "searchKey": "A", "rating": 1, "id": "\#(shifted)"}]"#)
    }
    #expect(message == "entry 0 (A): id '\(shifted)' is not a UUID")
  }

  // MARK: seed-file

  /// crash-binary-plist-set: PropertyListSerialization crashed (a null dereference while
  /// bridging an NSSet) on a binary plist holding a set: an array holding a set of 1.
  @Test("a binary plist holding a set is refused, not a crash")
  func binaryPlistWithSet() {
    let header = Array("bplist00".utf8)
    let objects: [UInt8] = [0xA1, 0x01, 0xC1, 0x02, 0x10, 0x01]
    let trailer: [UInt8] =
      [0x08, 0x0A, 0x0C] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 3]
      + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 14]
    let message = refusal {
      _ = try SeedFile.parse(
        Data(header + objects + trailer), source: "x.plist", images: .embedded([:]))
    }
    #expect(message.hasPrefix("x.plist: not a property list (malformed binary property list: "))
    #expect(message.contains("0xC1"), "\(message)")
  }

  /// crash-binary-plist-nan-date: a date of NaN passed validation (Date's <= holds both
  /// ways) and trapped when stored as text.
  @Test("a NaN date is refused by validation, from a binary plist too")
  func nanDate() throws {
    let nan = Date(timeIntervalSinceReferenceDate: .nan)
    let tie = BowTie(name: "Red Bow Tie", searchKey: "R", rating: 4, lastWorn: nan)
    #expect(tie.validationFailure?.attribute == "lastWorn")
    let entry: PropertyListValue = .dict([
      "name": .string("Red Bow Tie"), "searchKey": .string("R"), "rating": .int(4),
      "lastWorn": .date(.nan),
    ])
    let file = Data(BinaryPropertyList.write(.array([entry])))
    let message = refusal {
      _ = try SeedFile.parse(file, source: "x.plist", images: .embedded([:]))
    }
    #expect(message == "entry 0 (Red Bow Tie): lastWorn is not a date (NaN)")
  }

  /// crash-json-rating-ulp: JSONSerialization read 4.5371093750000036 as
  /// 4.537109375000003, so a JSON export seeded and exported again changed.
  @Test("JSON numbers are read exactly", arguments: [4.5371093750000036, 1.0000000000000002])
  func jsonNumbers(rating: Double) throws {
    let entries = try json(#"[{"name": "A", "searchKey": "A", "rating": \#(rating)}]"#)
    #expect(entries.first?.tie.rating.bitPattern == rating.bitPattern)
  }

  /// crash-negative-zero-rating: a rating of -0 exported to JSON as "-0", which reads
  /// back as the integer 0, so the export seeded and exported again changed.
  @Test("a rating of -0 is read as 0")
  func negativeZeroRating() throws {
    let plist = """
      <plist><array><dict><key>name</key><string>A</string><key>searchKey</key>
      <string>A</string><key>rating</key><real>-0</real></dict></array></plist>
      """
    let entries = try SeedFile.parse(Data(plist.utf8), source: "x.plist", images: .embedded([:]))
    #expect(entries.first?.tie.rating.sign == .plus)
  }

  /// crash-noncharacter-name: a name holding U+FFFF seeded, and its XML export could not
  /// be read back ("PCDATA invalid Char value 65535"): XML cannot hold the character.
  @Test("names and keys with a noncharacter are invalid")
  func noncharacters() throws {
    var tie = BowTie(name: "Red\u{FFFF}", searchKey: "R", rating: 4)
    #expect(tie.validationFailure?.reason == "contains the noncharacter U+FFFF")
    tie.name = "Red"
    tie.searchKey = "R\u{FFFE}"
    #expect(tie.validationFailure?.attribute == "searchKey")
    let message = refusal { _ = try json(#"[{"name": "A\uffff", "searchKey": "A", "rating": 1}]"#) }
    #expect(message == "entry 0 (A\u{FFFF}): name contains the noncharacter U+FFFF")
  }

  /// crash-xml-export-julian-date: PropertyListEncoder wrote 1013-11-21 as
  /// <date>1013-11-15T08:00:00Z</date> (Julian), which every reader takes as Gregorian.
  @Test("an XML export keeps dates before 1582 and reads back as written")
  func xmlExportOldDates() throws {
    let worn = try #require(ISO8601.parse("1013-11-21T08:00:00Z"))
    let tie = BowTie(name: "Old Bow Tie", searchKey: "O", rating: 2, lastWorn: worn)
    let document = try Exporter(format: .plist).export(
      [Exporter.Item(tie: tie, photo: nil)], toFolder: false
    ).document
    #expect(String(decoding: document, as: UTF8.self).contains("<date>1013-11-21T08:00:00Z</date>"))
    let reread = try SeedFile.parse(document, source: "export", images: .embedded([:]))
    #expect(reread.first?.tie.lastWorn == worn)
  }

  /// crash-xml-escape-combining-mark: our XML writer (the fix above) first compared
  /// Characters, and "<" followed by U+0301 is one Character, so it went out unescaped.
  @Test("an XML export escapes markup followed by a combining mark")
  func xmlExportEscapes() throws {
    let name = "<\u{301}ct> & >\u{301}"
    let tie = BowTie(name: name, searchKey: "A", rating: 2)
    let document = try Exporter(format: .plist).export(
      [Exporter.Item(tie: tie, photo: nil)], toFolder: false
    ).document
    let reread = try SeedFile.parse(document, source: "export", images: .embedded([:]))
    #expect(reread.first?.tie.name.unicodeScalars.elementsEqual(name.unicodeScalars) == true)
  }

  /// crash-xml-export-empty-data: a tie with an empty photo (a JSON or binary seed can give
  /// one) exported to XML as `<data>` holding only the layout's white space, which the XML
  /// reader refused ("<data> is not base64"): Foundation's base64 decoder returns nil for it.
  @Test("an empty <data>, white space only, reads as empty data: no photo")
  func emptyData() throws {
    let tie = BowTie(name: "Empty Photo", searchKey: "E", rating: 2, photoData: Data())
    let document = try Exporter(format: .plist).export(
      [Exporter.Item(tie: tie, photo: Data())], toFolder: false
    ).document
    let reread = try SeedFile.parse(document, source: "export", images: .embedded([:]))
    // An empty photo is no photo (it is no image to check).
    #expect(reread.count == 1 && reread.first?.tie.photoData == nil)
    let plist = """
      <plist><array><dict><key>name</key><string>A</string><key>searchKey</key>
      <string>A</string><key>rating</key><integer>1</integer><key>photoData</key><data>
      \t </data></dict></array></plist>
      """
    let entries = try SeedFile.parse(Data(plist.utf8), source: "x.plist", images: .embedded([:]))
    #expect(entries.count == 1 && entries.first?.tie.photoData == nil)
  }

  /// leak-entity-declaration: for an internal subset that declares an entity, libxml2 builds
  /// a document even for a SAX parser ("for expat compatibility"), and xmlFreeParserCtxt
  /// leaves it to the caller: about 13 KB a parse.
  @Test("a plist that declares an entity leaks nothing")
  func entityDeclarationLeak() throws {
    let plist = Data(#"<!DOCTYPE plist [<!ENTITY e "x">]><plist><array/></plist>"#.utf8)
    #expect(try SeedFile.parse(plist, source: "x.plist", images: .embedded([:])).isEmpty)
    let held = try LibXML2Allocations.counting {
      for _ in 0..<100 { _ = try SeedFile.parse(plist, source: "x.plist", images: .embedded([:])) }
    }
    #expect(held < 64 * 1024, "libxml2 still holds \(held) bytes after 100 parses")
  }
}

/// The blocks libxml2 allocates on the calling thread, through allocators that note them and
/// call the C library's own, so memory crosses between them safely: tests on other threads
/// may be inside libxml2 meanwhile.
private enum LibXML2Allocations {
  nonisolated(unsafe) static var thread = pthread_self()
  nonisolated(unsafe) static var isCounting = false
  /// Size by address of each block allocated on `thread` while counting and not yet freed.
  nonisolated(unsafe) static var blocks: [UnsafeMutableRawPointer: Int] = [:]
  private static let blocksLock = NSLock()
  private static let lock = NSLock()

  private static func note(_ block: UnsafeMutableRawPointer?, size: Int) {
    guard isCounting, pthread_equal(pthread_self(), thread) != 0, let block else { return }
    blocksLock.withLock { blocks[block] = size }
  }

  private static func forget(_ block: UnsafeMutableRawPointer?) {
    guard isCounting, let block else { return }
    blocksLock.withLock { _ = blocks.removeValue(forKey: block) }
  }

  /// The bytes libxml2 allocated on this thread during `body` and had not freed by its end.
  static func counting(_ body: () throws -> Void) throws -> Int {
    lock.lock()
    defer { lock.unlock() }
    var free: xmlFreeFunc?
    var malloc: xmlMallocFunc?
    var realloc: xmlReallocFunc?
    var strdup: xmlStrdupFunc?
    xmlMemGet(&free, &malloc, &realloc, &strdup)
    defer { xmlMemSetup(free, malloc, realloc, strdup) }
    xmlMemSetup(
      { block in
        LibXML2Allocations.forget(block)
        Glibc.free(block)
      },
      { size in
        let block = Glibc.malloc(size)
        LibXML2Allocations.note(block, size: size)
        return block
      },
      { block, size in
        LibXML2Allocations.forget(block)
        let moved = Glibc.realloc(block, size)
        LibXML2Allocations.note(moved, size: size)
        return moved
      },
      { text in
        guard let text, let copy = Glibc.strdup(text) else { return nil }
        LibXML2Allocations.note(UnsafeMutableRawPointer(copy), size: strlen(copy) + 1)
        return copy
      })
    thread = pthread_self()
    blocksLock.withLock { blocks = [:] }
    isCounting = true
    defer { isCounting = false }
    try body()
    return blocksLock.withLock { blocks.values.reduce(0, +) }
  }
}
