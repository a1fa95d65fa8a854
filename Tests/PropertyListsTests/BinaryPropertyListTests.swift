import Foundation
import SeededRandom
import Testing

@testable import PropertyLists

/// The `bplist00` reader and writer under the keyed archive codec.
@Suite struct BinaryPropertyListTests {
  static let scalars: [PropertyListValue] = [
    .bool(false), .bool(true),
    .integer(0), .integer(255), .integer(256), .integer(65_535), .integer(65_536),
    .integer(0xFFFF_FFFF),
    .integer(0x1_0000_0000), .integer(.max), .integer(-1), .integer(.min),
    .real(0), .real(-2.5), .real(.greatestFiniteMagnitude), .real(.infinity),
    .string(""), .string("TieColor"), .string("nœud papillon"), .string("🎀 bow"),
    .data(Data()), .data(Data([0, 1, 2, 0xFF])),
    .uid(0), .uid(255), .uid(256), .uid(70_000), .uid(.max),
  ]

  @Test(arguments: scalars)
  func scalarRoundTrip(value: PropertyListValue) throws {
    #expect(try BinaryPropertyList.read(BinaryPropertyList.write(value)) == value)
  }

  /// A 4-byte real, as NSKeyedArchiver writes an encoded Float, reads back as the number.
  @Test(arguments: [Float(0.5), 0.34117645, 1.0004386, -.infinity, .leastNonzeroMagnitude])
  func fourByteReals(value: Float) throws {
    let bytes = BinaryPropertyList.write(.array([.real32(value)]))
    #expect(bytes.contains(0x22))
    #expect(!bytes.contains(0x23))
    #expect(try BinaryPropertyList.read(bytes) == .array([.real(Double(value))]))
    var format = PropertyListSerialization.PropertyListFormat.xml
    let foundation = try PropertyListSerialization.propertyList(from: Data(bytes), format: &format)
    #expect((foundation as? [Any])?.first as? Float == value)
  }

  @Test func containersRoundTrip() throws {
    let long = (0..<40).map { PropertyListValue.integer(Int64($0) * 1000) }
    let value = PropertyListValue.dictionary([
      "long": .array(long),
      "nested": .dictionary(["empty": .array([]), "none": .dictionary([:]), "uid": .uid(3)]),
      "$escaped": .string(String(repeating: "ü", count: 20)),
      "mixed": .array(Self.scalars),
    ])
    let bytes = BinaryPropertyList.write(value)
    #expect(try BinaryPropertyList.read(bytes) == value)
    #expect(BinaryPropertyList.write(value) == bytes)  // Deterministic.
  }

  @Test func manyObjectsUseWiderReferencesAndOffsets() throws {
    let value = PropertyListValue.array((0..<300).map { .string("item \($0)") })
    let bytes = BinaryPropertyList.write(value)
    #expect(bytes[bytes.count - 25] == 2)  // Reference size: 301 objects need 2 bytes.
    #expect(try BinaryPropertyList.read(bytes) == value)
  }

  /// Foundation can read what we write (everything but UIDs, which it cannot produce).
  @Test func foundationReadsOurOutput() throws {
    let value = PropertyListValue.dictionary([
      "int": .integer(-7), "big": .integer(1 << 40), "real": .real(1.5), "yes": .bool(true),
      "text": .string("bow"), "unicode": .string("nœud 🎀"), "bytes": .data(Data([1, 2, 3])),
      "list": .array((0..<20).map { .integer(Int64($0)) }),
    ])
    var format = PropertyListSerialization.PropertyListFormat.xml
    let plist = try PropertyListSerialization.propertyList(
      from: Data(BinaryPropertyList.write(value)), format: &format)
    #expect(format == .binary)
    let dict = try #require(plist as? [String: Any])
    #expect(dict["int"] as? Int == -7)
    #expect(dict["big"] as? Int == 1 << 40)
    #expect(dict["real"] as? Double == 1.5)
    #expect(dict["yes"] as? Bool == true)
    #expect(dict["text"] as? String == "bow")
    #expect(dict["unicode"] as? String == "nœud 🎀")
    #expect(dict["bytes"] as? Data == Data([1, 2, 3]))
    #expect(dict["list"] as? [Int] == Array(0..<20))
  }

  /// We read what Foundation writes, including its uniqued (shared) objects.
  @Test func weReadFoundationOutput() throws {
    let plist: [String: Any] = [
      "same": ["x", "x", "x"], "int": 300, "real": 0.25, "no": false,
      "text": "nœud", "bytes": Data([9, 8]),
    ]
    let data = try PropertyListSerialization.data(
      fromPropertyList: plist, format: .binary, options: 0)
    let value = try BinaryPropertyList.read([UInt8](data))
    #expect(
      value
        == .dictionary([
          "same": .array([.string("x"), .string("x"), .string("x")]), "int": .integer(300),
          "real": .real(0.25), "no": .bool(false), "text": .string("nœud"),
          "bytes": .data(Data([9, 8])),
        ]))
  }

  @Test func weReadFoundationKeyedArchives() throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: ArchivedPoint(x: 1, y: 2), requiringSecureCoding: true)
    guard case .dictionary(let top) = try BinaryPropertyList.read([UInt8](data)) else {
      Issue.record("top level is not a dictionary")
      return
    }
    #expect(top["$top"] == .dictionary(["root": .uid(1)]))
    #expect(top["$archiver"] == .string("NSKeyedArchiver"))
  }

  // MARK: Refusals

  @Test func headerAndSize() {
    #expect(throws: ArchiveError.empty) { try BinaryPropertyList.read([]) }
    #expect(throws: ArchiveError.notBinaryPropertyList) {
      try BinaryPropertyList.read(Array("bplist0".utf8))
    }
    #expect(throws: ArchiveError.notBinaryPropertyList) {
      try BinaryPropertyList.read(Array("bplist01".utf8) + [UInt8](repeating: 0, count: 40))
    }
    #expect(throws: ArchiveError.malformedPropertyList("40 bytes is too short for a trailer")) {
      try BinaryPropertyList.read(Array("bplist00".utf8) + [UInt8](repeating: 0, count: 32))
    }
  }

  @Test func trailerFields() {
    let int = [UInt8]([0x10, 7])
    #expect(throws: ArchiveError.malformedPropertyList("offset size 9 is not 1...8")) {
      try RawPropertyList(objects: [int], offsetSize: 9).read()
    }
    #expect(throws: ArchiveError.malformedPropertyList("reference size 0 is not 1...8")) {
      try RawPropertyList(objects: [int], refSize: 0).read()
    }
    #expect(throws: ArchiveError.malformedPropertyList("object count 0 is not 1...4096")) {
      try RawPropertyList(objects: [int], objectCount: 0).read()
    }
    #expect(throws: ArchiveError.malformedPropertyList("object count 5000 is not 1...4096")) {
      try RawPropertyList(objects: [int], objectCount: 5000).read()
    }
    #expect(
      throws: ArchiveError.malformedPropertyList("top object 1 is out of range (1 objects)")
    ) {
      try RawPropertyList(objects: [int], top: 1).read()
    }
    #expect(
      throws: ArchiveError.malformedPropertyList("offset table offset 8 is out of range")
    ) {
      try RawPropertyList(objects: [int], tableOffset: 8).read()
    }
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "offset table offset 18446744073709551615 is out of range")
    ) {
      try RawPropertyList(objects: [int], tableOffset: .max).read()
    }
    #expect(throws: ArchiveError.malformedPropertyList("offset table runs into the trailer")) {
      try RawPropertyList(objects: [int], objectCount: 2).read()
    }
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "object 0 has offset 10 outside the objects")
    ) {
      try RawPropertyList(objects: [int], offsets: [10]).read()
    }
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "object 0 has offset 2 outside the objects")
    ) {
      try RawPropertyList(objects: [int], offsets: [2]).read()
    }
  }

  @Test func unsupportedMarkers() {
    let cases: [(object: [UInt8], marker: String)] = [
      ([0x00], "00"),  // null
      ([0x0F], "0F"),  // fill
      ([0x33] + [UInt8](repeating: 0, count: 8), "33"),  // date
      ([0x71, 0x41], "71"),  // UTF-8 string
      ([0x81 | 0x04, 0, 0, 0, 0, 0], "85"),  // 5-byte UID
      ([0xC0], "C0"),  // set
      ([0xF0], "F0"),
    ]
    for (object, marker) in cases {
      #expect(
        throws: ArchiveError.malformedPropertyList(
          "unsupported marker 0x\(marker) at offset 8")
      ) {
        try RawPropertyList(objects: [object]).read()
      }
    }
    #expect(throws: ArchiveError.malformedPropertyList("16-byte integer at 8")) {
      try RawPropertyList(objects: [[0x14] + [UInt8](repeating: 0, count: 16)]).read()
    }
    #expect(throws: ArchiveError.malformedPropertyList("real of size exponent 1 at 8")) {
      try RawPropertyList(objects: [[0x21, 0, 0]]).read()
    }
  }

  @Test func lengthsAndCounts() {
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "object data at offset 9 runs past the objects")
    ) {
      try RawPropertyList(objects: [[0x55] + Array("abc".utf8)]).read()  // Says 5, has 3.
    }
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "object data at offset 9 runs past the objects")
    ) {
      try RawPropertyList(objects: [[0x13, 0, 0]]).read()  // 8-byte integer, 2 bytes.
    }
    #expect(throws: ArchiveError.malformedPropertyList("count at offset 9 is not an integer")) {
      try RawPropertyList(objects: [[0x5F, 0x55]]).read()
    }
    let negativeCount: [UInt8] = [0x5F, 0x13] + [UInt8](repeating: 0xFF, count: 8)
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "count -1 at offset 9 exceeds the data")
    ) {
      try RawPropertyList(objects: [negativeCount]).read()
    }
    let hugeCount: [UInt8] = [0xAF, 0x13, 0x7F] + [UInt8](repeating: 0xFF, count: 7)
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "count 9223372036854775807 at offset 9 exceeds the data")
    ) {
      try RawPropertyList(objects: [hugeCount]).read()
    }
    // A dictionary count whose doubling alone stays in range but whose refs do not.
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "object data at offset 9 runs past the objects")
    ) {
      try RawPropertyList(objects: [[0xDE]]).read()
    }
  }

  @Test func stringsAreDecodedStrictly() {
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "ASCII string at 9 has non-ASCII bytes")
    ) {
      try RawPropertyList(objects: [[0x52, 0x41, 0xC3]]).read()
    }
    #expect(throws: ArchiveError.malformedPropertyList("UTF-16 string at 9 is invalid")) {
      try RawPropertyList(objects: [[0x61, 0xD8, 0x3C]]).read()  // Lone high surrogate.
    }
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "object data at offset 9 runs past the objects")
    ) {
      try RawPropertyList(objects: [[0x62, 0x00, 0x41, 0x00]]).read()  // Odd byte count.
    }
  }

  @Test func references() throws {
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "reference 5 is out of range (2 objects)")
    ) {
      try RawPropertyList(objects: [[0xA2, 1, 5], [0x09]]).read()
    }
    #expect(
      throws: ArchiveError.malformedPropertyList(
        "dictionary key in object 0 is not a string")
    ) {
      try RawPropertyList(objects: [[0xD1, 1, 1], [0x09]]).read()
    }
    #expect(throws: ArchiveError.malformedPropertyList("duplicate dictionary key \"k\"")) {
      try RawPropertyList(objects: [[0xD2, 1, 1, 2, 2], [0x51, 0x6B], [0x09]]).read()
    }
    // Shared references are fine: one string used as three elements.
    #expect(
      try RawPropertyList(objects: [[0xA3, 1, 1, 1], [0x51, 0x6B]]).read()
        == .array([.string("k"), .string("k"), .string("k")]))
  }

  @Test func referenceCycles() {
    #expect(throws: ArchiveError.malformedPropertyList("reference cycle through object 0")) {
      try RawPropertyList(objects: [[0xA1, 0]]).read()  // An array containing itself.
    }
    #expect(throws: ArchiveError.malformedPropertyList("reference cycle through object 0")) {
      try RawPropertyList(objects: [[0xD1, 1, 2], [0x51, 0x6B], [0xA1, 0]]).read()
    }
  }

  @Test func deepNesting() throws {
    func nested(_ depth: Int) -> RawPropertyList {
      RawPropertyList(
        objects: (0..<depth).map { [0xA1, UInt8($0 + 1)] } + [[0x09]])
    }
    #expect(try BinaryPropertyList.read(nested(32).bytes) != .bool(false))
    #expect(throws: ArchiveError.malformedPropertyList("nesting is deeper than 32 levels")) {
      try nested(33).read()
    }
  }

  /// Twenty arrays of two references to the next one expand to 2^20 values: the value
  /// budget stops that long before memory or time run out.
  @Test func exponentialExpansionIsCapped() {
    let objects = (0..<20).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x09]]
    #expect(throws: ArchiveError.malformedPropertyList("more than 16384 values")) {
      try RawPropertyList(objects: objects).read()
    }
  }

  /// Random objects in a valid header and trailer shape: the reader never traps, and
  /// whatever it accepts, the writer writes in a form the reader takes back to the same
  /// bytes when written again.
  @Test func randomObjectsNeverCrash() throws {
    var random = SplitMix64(seed: 0x0B_1157)
    var accepted = 0
    for _ in 0..<5_000 {
      let objects = (0...random.next(below: 6)).map { _ in
        (0...random.next(below: 6)).map { _ in UInt8.random(in: 0...255, using: &random) }
      }
      let raw = RawPropertyList(objects: objects, top: UInt64(random.next(below: objects.count)))
      guard let value = try? raw.read() else { continue }
      accepted += 1
      let written = BinaryPropertyList.write(value)
      let again = try BinaryPropertyList.read(written)
      #expect(BinaryPropertyList.write(again) == written, "\(value)")
    }
    // Enough random inputs are read that the round trip above means something.
    #expect(accepted > 250, "\(accepted) read")
  }

  /// Random trees of every kind of value the writer writes read back as themselves.
  @Test func randomTreesRoundTrip() throws {
    var random = SplitMix64(seed: 0x7_EE5)
    for _ in 0..<2_000 {
      let value = Self.randomTree(&random)
      #expect(try BinaryPropertyList.read(BinaryPropertyList.write(value)) == value, "\(value)")
    }
  }

  /// A tree of every kind of value the writers write, at most four containers deep.
  static func randomTree(_ random: inout SplitMix64, depth: Int = 0) -> PropertyListValue {
    switch random.next(below: depth > 2 ? 6 : 8) {
    case 0: return .bool(random.next(below: 2) == 0)
    case 1: return .integer(Int64(bitPattern: random.next()) >> random.next(below: 64))
    case 2: return .real(Double(Int64(bitPattern: random.next())) / 1_000)
    case 3:
      let scalars = ["a", "Z", "é", "☕", "🎀", " ", "0"]
      return .string(
        (0..<random.next(below: 12)).map { _ in scalars[random.next(below: 7)] }.joined())
    case 4:
      return .data(
        Data((0..<random.next(below: 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
    case 5: return .uid(UInt32(truncatingIfNeeded: random.next()))
    case 6:
      return .array((0..<random.next(below: 5)).map { _ in randomTree(&random, depth: depth + 1) })
    default:
      var fields: [String: PropertyListValue] = [:]
      for index in 0..<random.next(below: 5) {
        fields["k\(index)"] = randomTree(&random, depth: depth + 1)
      }
      return .dictionary(fields)
    }
  }
}

/// Assembles a `bplist00` from raw object encodings, with every trailer field overridable,
/// to reach the reader's checks one at a time.
private struct RawPropertyList {
  var objects: [[UInt8]]
  var offsetSize = 1
  var refSize = 1
  var top: UInt64 = 0
  var objectCount: UInt64?
  var tableOffset: UInt64?
  var offsets: [UInt64]?

  var bytes: [UInt8] {
    var output = Array("bplist00".utf8)
    var computedOffsets: [UInt64] = []
    for object in objects {
      computedOffsets.append(UInt64(output.count))
      output += object
    }
    let table = UInt64(output.count)
    for offset in offsets ?? computedOffsets {
      output += bigEndian(offset, size: min(offsetSize, 8))
    }
    output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
    output += bigEndian(objectCount ?? UInt64(objects.count), size: 8)
    output += bigEndian(top, size: 8)
    output += bigEndian(tableOffset ?? table, size: 8)
    return output
  }

  func read() throws(ArchiveError) -> PropertyListValue {
    try BinaryPropertyList.read(bytes)
  }

  private func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    stride(from: (size - 1) * 8, through: 0, by: -8).map { UInt8(truncatingIfNeeded: value >> $0) }
  }
}

/// A class Foundation's own archiver can write. Internal and top-level: Foundation's
/// NSKeyedArchiver (NSStringFromClass) traps on private or nested classes.
final class ArchivedPoint: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  let x: Int
  let y: Int

  init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }

  func encode(with coder: NSCoder) {
    coder.encode(x, forKey: "x")
    coder.encode(y, forKey: "y")
  }

  init?(coder: NSCoder) {
    x = coder.decodeInteger(forKey: "x")
    y = coder.decodeInteger(forKey: "y")
  }
}
