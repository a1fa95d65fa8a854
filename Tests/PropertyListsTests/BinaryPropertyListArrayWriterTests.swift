import Foundation
import SeededRandom
import Testing

@testable import PropertyLists

/// The `bplist00` array written an element at a time, as `export --binary` writes it.
@Suite struct BinaryPropertyListArrayWriterTests {
  /// The whole document for `elements`, split where the writer hands its bytes out.
  static func document(_ elements: [PropertyListValue]) throws -> [UInt8] {
    var writer = BinaryPropertyListArrayWriter()
    var bytes = writer.start()
    for element in elements { bytes += try writer.append(element) }
    try writer.finish { bytes += $0 }
    return bytes
  }

  static func tie(_ number: Int) -> PropertyListValue {
    var fields: [String: PropertyListValue] = [
      "name": .string("Tie \(number) nœud 🎀"), "rating": .real(Double(number % 11) / 2),
      "timesWorn": .integer(Int64(number * 37)), "isFavorite": .bool(number % 3 == 0),
      "lastWorn": .date(Date(timeIntervalSinceReferenceDate: Double(number) * 86_400)),
      "tintColor": .dictionary(["red": .integer(239), "green": .integer(48), "blue": .integer(36)]),
    ]
    if number % 2 == 0 {
      fields["photoData"] = .data(Data(repeating: UInt8(number & 0xFF), count: 300))
    }
    return .dictionary(fields)
  }

  @Test("what it writes reads back as the array, by our reader and by Foundation's")
  func readsBack() throws {
    let elements = (0..<300).map(Self.tie)
    let bytes = try Self.document(elements)
    let limits = PropertyListLimits.seedFile(byteCount: bytes.count)
    #expect(try BinaryPropertyList.read(bytes, limits: limits) == .array(elements))
    var format = PropertyListSerialization.PropertyListFormat.xml
    let plist = try PropertyListSerialization.propertyList(from: Data(bytes), format: &format)
    #expect(format == .binary)
    let ties = try #require(plist as? [[String: Any]])
    #expect(ties.count == 300)
    #expect(ties[7]["name"] as? String == "Tie 7 nœud 🎀")
    #expect(ties[8]["photoData"] as? Data == Data(repeating: 8, count: 300))
    #expect((ties[299]["tintColor"] as? [String: Int])?["green"] == 48)
  }

  @Test("an empty array, and one element, are documents too")
  func small() throws {
    #expect(try BinaryPropertyList.read(Self.document([])) == .array([]))
    let one = PropertyListValue.array([.string("R")])
    #expect(try BinaryPropertyList.read(Self.document([.string("R")])) == one)
  }

  @Test("each dictionary key is written once, however many elements have it")
  func keysShared() throws {
    let bytes = try Self.document((0..<300).map(Self.tie))
    let key = Array("timesWorn".utf8)
    let found = (0...(bytes.count - key.count)).filter { Array(bytes[$0..<$0 + key.count]) == key }
    #expect(found.count == 1)
    // 300 dictionaries of six values, one a colour of three; 150 photos; 10 keys; the root.
    let objectCount = bytes[(bytes.count - 24)..<(bytes.count - 16)].reduce(0) { $0 << 8 | Int($1) }
    #expect(objectCount == 300 * (1 + 6 + 3) + 150 + 10 + 1)
  }

  @Test("a long offset table is handed out in pieces, which make the document")
  func pieces() throws {
    let elements = (0..<40_000).map { PropertyListValue.integer(Int64($0) * 1_000) }
    var writer = BinaryPropertyListArrayWriter()
    var bytes = writer.start()
    for element in elements { bytes += try writer.append(element) }
    var pieces: [Int] = []
    try writer.finish {
      pieces.append($0.count)
      bytes += $0
    }
    // The first piece holds the root array too, four bytes an element.
    #expect(pieces.count > 2)
    #expect(pieces.dropFirst().dropLast().allSatisfy { $0 >= 1 << 16 && $0 < (1 << 16) + 8 })
    let limits = PropertyListLimits.seedFile(byteCount: bytes.count)
    #expect(try BinaryPropertyList.read(bytes, limits: limits) == .array(elements))
  }

  @Test("the same elements give the same bytes")
  func sameBytes() throws {
    let elements = (0..<50).map(Self.tie)
    #expect(try Self.document(elements) == Self.document(elements))
  }

  @Test("random trees read back as themselves")
  func randomTrees() throws {
    var random = SplitMix64(seed: 0xA_77A7)
    for _ in 0..<300 {
      let elements = (0..<random.next(below: 8)).map { _ in
        BinaryPropertyListTests.randomTree(&random)
      }
      #expect(try BinaryPropertyList.read(Self.document(elements)) == .array(elements))
    }
  }
}
