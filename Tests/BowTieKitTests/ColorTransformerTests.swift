import Foundation
import SeededRandom
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import PropertyLists

/// The color archives the store writes and reads: round trips, compatibility with
/// Foundation's own keyed archiver, and a refusal (never a crash) for every kind of bad data.
@Suite struct ColorTransformerTests {
  let transformer = ColorAttributeTransformer()

  static let colors: [TieColor] = [
    TieColor(red8: 0, green8: 0, blue8: 0),
    TieColor(red8: 255, green8: 255, blue8: 255),
    TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24),
    TieColor(red8: 7, green8: 7, blue8: 7),
    TieColor(red8: 1, green8: 128, blue8: 254, alpha8: 0x80),
    // As UIKit and AppKit archives give them: a 32-bit float's value, extended range.
    TieColor(red: 1.0004385709762573, green: 0.22760793566703796, blue: -0.125, alpha: 0.8),
    TieColor(red: 0.1, green: 0.2, blue: 0.3),
  ]

  // MARK: Round trips

  @Test(arguments: colors)
  func roundTripThroughRegisteredTransformer(color: TieColor) throws {
    ColorAttributeTransformer.register()
    let registered = ValueTransformer.valueTransformer(forName: ColorAttributeTransformer.name)
    let colorTransformer = try #require(registered as? ColorAttributeTransformer)

    let data = try colorTransformer.data(from: color)
    let decoded = try colorTransformer.color(from: data)
    #expect(decoded == color)
    #expect(decoded.hex == color.hex)

    let reversed = try #require(colorTransformer.reverseTransformedValue(color) as? Data)
    #expect(reversed == data)  // The layouts write what the encoder writes.
    #expect(colorTransformer.transformedValue(reversed) as? TieColor == color)
    #expect(colorTransformer.transformedValue(NSData(data: reversed)) as? TieColor == color)
  }

  @Test func hexAndEquality() {
    #expect(TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24).hex == "#EF3024")
    #expect(TieColor(red8: 0, green8: 10, blue8: 255).hex == "#000AFF")
    #expect(TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24, alpha8: 0x80).hex == "#EF302480")
    let color = TieColor(red8: 1, green8: 2, blue8: 3)
    #expect(color == TieColor(red8: 1, green8: 2, blue8: 3))
    #expect(color.hashValue == TieColor(red8: 1, green8: 2, blue8: 3).hashValue)
    #expect(color != TieColor(red8: 3, green8: 2, blue8: 1))
    // Components are kept as they came: equal in 8 bits is not equal.
    #expect(TieColor(red: 0.34117645, green: 0, blue: 0) != TieColor(red8: 87, green8: 0, blue8: 0))
    #expect(color.description == "TieColor(#010203)")
  }

  /// The 8-bit value is each component × 255 rounded to the nearest, clamped to 0…255.
  @Test(arguments: [
    (0.34117645, 87), (87.0 / 255, 87), (0.5, 128), (0.498, 127), (1.0004386, 255),
    (-0.125, 0), (1e300, 255), (-.infinity, 0), (0.0019607, 0), (0.00196079, 1),
  ])
  func eightBitValues(component: Double, expected: Int) {
    #expect(Int(TieColor(red: component, green: 0, blue: 0).red8) == expected)
    #expect(Int(TieColor(red: 0, green: 0, blue: 0, alpha: component).alpha8) == expected)
  }

  @Test func transformerMetadata() {
    #expect(ColorAttributeTransformer.allowsReverseTransformation())
    #expect(ColorAttributeTransformer.transformedValueClass() is UIColorArchive.Type)
    #expect(
      ColorAttributeTransformer.allowedTopLevelClasses.map { ObjectIdentifier($0) } == [
        ObjectIdentifier(UIColorArchive.self), ObjectIdentifier(NSColorArchive.self),
        ObjectIdentifier(TieColorArchive.self),
      ])
    #expect(UIColorArchive.archivedClassName == "UIColor")
    #expect(NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses.isEmpty)
    #expect(ColorAttributeTransformer.maximumArchiveSize == 16 * 1024)
  }

  @Test func untypedAPIReturnsNilForWrongInput() throws {
    #expect(transformer.transformedValue(nil) == nil)
    #expect(transformer.transformedValue("not data") == nil)
    #expect(transformer.transformedValue(Data("garbage".utf8)) == nil)
    #expect(transformer.reverseTransformedValue(nil) == nil)
    #expect(transformer.reverseTransformedValue("#EF3024") == nil)
    #expect(transformer.reverseTransformedValue(NSNumber(value: 3)) == nil)
  }

  @Test func archiveIsSmallAndStable() throws {
    let data = try transformer.data(from: TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24))
    #expect(data.count < 600)
    #expect(data.starts(with: Array("bplist00".utf8)))
    #expect(try transformer.data(from: TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24)) == data)
  }

  @Test func colorsThatAreNotNumbersAreNeverArchived() {
    for bad in [Double.nan, .infinity] {
      let color = TieColor(red: bad, green: 0, blue: 0)
      #expect(throws: ArchiveError.self) { try transformer.data(from: color) }
      #expect(transformer.reverseTransformedValue(color) == nil)
    }
  }

  // MARK: Compatibility with Foundation

  /// What bowties writes is what UIKit writes for `UIColor(red:green:blue:alpha:)`:
  /// `$classes` `[UIColor, NSObject]` with `$classhints [NSColor]`, `UIColorComponentCount`
  /// 4, the components as 32-bit floats (and a `-Double` key for each a float does not
  /// hold), `NSRGB` as "%.3g" text, `NSColorSpace` 2. Read by Foundation's reader.
  @Test func ourArchiveIsUIKitsForFoundation() throws {
    let data = try transformer.data(from: TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24))
    var format = PropertyListSerialization.PropertyListFormat.xml
    let plist = try PropertyListSerialization.propertyList(from: data, format: &format)
    #expect(format == .binary)
    let top = try #require(plist as? [String: Any])
    #expect(top["$archiver"] as? String == "NSKeyedArchiver")
    #expect(top["$version"] as? Int == 100_000)
    let objects = try #require(top["$objects"] as? [Any])
    #expect(objects.count == 3)
    #expect(objects.first as? String == "$null")
    let fields = try #require(objects[1] as? [String: Any])
    #expect(fields["UIColorComponentCount"] as? Int == 4)
    #expect(fields["UIRed"] as? Float == Float(0xEF) / 255)
    #expect(fields["UIRed-Double"] as? Double == Double(0xEF) / 255)
    #expect(fields["UIGreen"] as? Float == Float(0x30) / 255)
    #expect(fields["UIBlue"] as? Float == Float(0x24) / 255)
    #expect(fields["UIAlpha"] as? Float == 1)
    #expect(fields["UIAlpha-Double"] == nil)  // 1 is exact in a float.
    #expect(fields["NSRGB"] as? Data == Data("0.937 0.188 0.141".utf8))
    #expect(fields["NSColorSpace"] as? Int == 2)
    let classInfo = try #require(objects[2] as? [String: Any])
    #expect(classInfo["$classname"] as? String == "UIColor")
    #expect(classInfo["$classes"] as? [String] == ["UIColor", "NSObject"])
    #expect(classInfo["$classhints"] as? [String] == ["NSColor"])
    // The floats are 4-byte reals, as encodeFloat:forKey: writes them.
    let bytes = [UInt8](data)
    #expect(bytes.firstRange(of: [0x22] + Self.bigEndian(Float(0xEF) / 255)) != nil)
    // With an alpha, NSRGB has four numbers.
    let translucent = try transformer.data(
      from: TieColor(red: 0.25, green: 0.5, blue: 1, alpha: 0.5))
    #expect(
      try fieldsOfRoot(translucent)["NSRGB"] as? Data == Data("0.25 0.5 1 0.5".utf8))
  }

  private static func bigEndian(_ value: Float) -> [UInt8] {
    withUnsafeBytes(of: value.bitPattern.bigEndian) { Array($0) }
  }

  private func fieldsOfRoot(_ data: Data) throws -> [String: Any] {
    var format = PropertyListSerialization.PropertyListFormat.xml
    let plist = try PropertyListSerialization.propertyList(from: data, format: &format)
    let objects = try #require((plist as? [String: Any])?["$objects"] as? [Any])
    return try #require(objects[1] as? [String: Any])
  }

  @Test(arguments: colors)
  func foundationUnarchiverReadsOurArchive(color: TieColor) throws {
    let data = try transformer.data(from: color)
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.decodingFailurePolicy = NSCoder.DecodingFailurePolicy.setErrorAndReturn
    unarchiver.setClass(UIColorArchive.self, forClassName: UIColorArchive.archivedClassName)
    let decoded = unarchiver.decodeObject(
      of: UIColorArchive.self, forKey: NSKeyedArchiveRootObjectKey)
    #expect(unarchiver.error == nil)
    #expect(decoded?.color == color)
  }

  /// Foundation on Linux always writes the module-qualified name ("BowTieModel.UIColorArchive"):
  /// `setClassName(_:for:)` is ignored there. Production refuses that name (it is not the
  /// stable one); a transformer that aliases it reads the archive, proving the format.
  @Test(arguments: colors)
  func foundationArchiverOutputIsReadableWithAnAlias(color: TieColor) throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: UIColorArchive(color), requiringSecureCoding: true)
    let qualifiedName = String(reflecting: UIColorArchive.self)
    #expect(qualifiedName == "BowTieModel.UIColorArchive")
    #expect(throws: ArchiveError.classNotAllowed(qualifiedName)) {
      try transformer.color(from: data)
    }
    let aliasing = FoundationNameColorTransformer()
    let decoded = try aliasing.unarchivedObject(from: data) as? UIColorArchive
    #expect(decoded?.color == color)
  }

  // MARK: Refusals

  @Test func foreignClassArchivedByFoundation() throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: ColorArchiveIntruder(), requiringSecureCoding: true)
    #expect(throws: ArchiveError.classNotAllowed("BowTieKitTests.ColorArchiveIntruder")) {
      try transformer.color(from: data)
    }
    #expect(transformer.transformedValue(data) == nil)
  }

  @Test func handBuiltArchiveNamingNSString() throws {
    var archive = KeyedArchiveFixture.color(red: .integer(1), green: .integer(2), blue: .integer(3))
    archive.objects[2] = KeyedArchiveFixture.classDescription("NSString")
    #expect(throws: ArchiveError.classNotAllowed("NSString")) {
      try transformer.color(from: archive.data)
    }
  }

  @Test func stringAndNumberRootsArchivedByFoundation() throws {
    let string = try NSKeyedArchiver.archivedData(
      withRootObject: NSString(string: "#EF3024"), requiringSecureCoding: true)
    #expect(throws: ArchiveError.classNotAllowed("NSString")) {
      try transformer.color(from: string)
    }
    let number = try NSKeyedArchiver.archivedData(
      withRootObject: NSNumber(value: 0xEF3024), requiringSecureCoding: true)
    #expect(throws: ArchiveError.classNotAllowed("NSNumber")) {
      try transformer.color(from: number)
    }
  }

  @Test func emptyGarbageXMLAndOversizedData() throws {
    #expect(throws: ArchiveError.empty) { try transformer.color(from: Data()) }
    #expect(throws: ArchiveError.notBinaryPropertyList) {
      try transformer.color(from: Data("#EF3024 is a nice red".utf8))
    }
    let xml = try PropertyListSerialization.data(
      fromPropertyList: ["$archiver": "NSKeyedArchiver"], format: .xml, options: 0)
    #expect(throws: ArchiveError.notBinaryPropertyList) { try transformer.color(from: xml) }
    let limit = ColorAttributeTransformer.maximumArchiveSize
    var oversized = try transformer.data(from: TieColor(red8: 1, green8: 2, blue8: 3))
    oversized.append(Data(count: limit + 1 - oversized.count))
    #expect(throws: ArchiveError.tooLarge(bytes: limit + 1, limit: limit)) {
      try transformer.color(from: oversized)
    }
  }

  @Test func everyTruncationIsRefused() throws {
    let data = try transformer.data(from: TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24))
    for length in 0..<data.count {
      let prefix = data.prefix(length)
      let error = try #require(throws: ArchiveError.self) { try transformer.color(from: prefix) }
      switch length {
      case 0: #expect(error == .empty)
      case 1..<8: #expect(error == .notBinaryPropertyList)
      default:
        guard case .malformedPropertyList = error else {
          Issue.record("prefix of \(length) bytes: \(error)")
          continue
        }
      }
    }
  }

  @Test func specificFlippedBytes() throws {
    let data = try transformer.data(from: TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24))
    func flipped(_ offset: Int, _ value: UInt8) -> Data {
      var copy = data
      copy[offset] = value
      return copy
    }
    let bytes = [UInt8](data)
    #expect(throws: ArchiveError.notBinaryPropertyList) {
      try transformer.color(from: flipped(0, UInt8(ascii: "X")))
    }
    // Trailer byte 6 is the offset size, byte 7 the reference size.
    let trailer = data.count - 32
    #expect(throws: ArchiveError.malformedPropertyList("offset size 0 is not 1...8")) {
      try transformer.color(from: flipped(trailer + 6, 0))
    }
    #expect(throws: ArchiveError.malformedPropertyList("reference size 9 is not 1...8")) {
      try transformer.color(from: flipped(trailer + 7, 9))
    }
    // The class name "UIColor" ($classname and $classes[0], and the key
    // UIColorComponentCount) becomes "UICoLor".
    var renamed = data
    for range in bytes.ranges(of: Array("UIColor".utf8)) {
      renamed[range.lowerBound + 4] = UInt8(ascii: "L")
    }
    #expect(throws: ArchiveError.classNotAllowed("UICoLor")) {
      try transformer.color(from: renamed)
    }
    // "NSKeyedArchiver" becomes "NSKeyedArchivex".
    let archiver = try #require(bytes.firstRange(of: Array("NSKeyedArchiver".utf8)))
    #expect(
      throws: ArchiveError.notKeyedArchive("$archiver is \"NSKeyedArchivex\", not NSKeyedArchiver")
    ) {
      try transformer.color(from: flipped(archiver.upperBound - 1, UInt8(ascii: "x")))
    }
  }

  @Test func uidOutOfRange() throws {
    var archive = KeyedArchiveFixture.color(red: .integer(1), green: .integer(2), blue: .integer(3))
    archive.top = ["root": .uid(99)]
    #expect(
      throws: ArchiveError.notKeyedArchive("$top.root UID 99 is out of range (3 objects)")
    ) {
      try transformer.color(from: archive.data)
    }
    archive = KeyedArchiveFixture.color(red: .uid(42), green: .integer(2), blue: .integer(3))
    #expect(
      throws: ArchiveError.notKeyedArchive("$objects[1].red UID 42 is out of range (3 objects)")
    ) {
      try transformer.color(from: archive.data)
    }
  }

  @Test func componentOfTheWrongType() throws {
    let archive = KeyedArchiveFixture.color(
      red: .string("239"), green: .integer(2), blue: .integer(3))
    let reason = "key \"red\" holds a string, not an integer"
    #expect(throws: ArchiveError.decodingFailed(className: "TieColor", reason: reason)) {
      try transformer.color(from: archive.data)
    }
    let real = KeyedArchiveFixture.color(red: .integer(1), green: .real(2.5), blue: .integer(3))
    let realReason = "key \"green\" holds a real number, not an integer"
    #expect(throws: ArchiveError.decodingFailed(className: "TieColor", reason: realReason)) {
      try transformer.color(from: real.data)
    }
  }

  @Test(arguments: [300, -1, Int64.max, Int64.min])
  func componentOutOfRange(value: Int64) throws {
    let archive = KeyedArchiveFixture.color(
      red: .integer(1), green: .integer(2), blue: .integer(value))
    let reason = "value \(value) for key \"blue\" is out of range 0...255"
    #expect(throws: ArchiveError.decodingFailed(className: "TieColor", reason: reason)) {
      try transformer.color(from: archive.data)
    }
  }

  @Test func missingComponent() throws {
    var archive = KeyedArchiveFixture.color(red: .integer(1), green: .integer(2), blue: .integer(3))
    archive.fields["green"] = nil
    let reason = "key \"green\" is missing"
    #expect(throws: ArchiveError.decodingFailed(className: "TieColor", reason: reason)) {
      try transformer.color(from: archive.data)
    }
  }

  @Test func malformedKeyedArchiveShapes() throws {
    let good = KeyedArchiveFixture.color(red: .integer(1), green: .integer(2), blue: .integer(3))
    #expect(try transformer.color(from: good.data) == TieColor(red8: 1, green8: 2, blue8: 3))

    var archive = good
    archive.version = .integer(99_999)
    #expect(throws: ArchiveError.notKeyedArchive("$version is missing or not 100000")) {
      try transformer.color(from: archive.data)
    }
    archive = good
    archive.objects[0] = .string("$nil")
    #expect(throws: ArchiveError.notKeyedArchive("$objects does not start with $null")) {
      try transformer.color(from: archive.data)
    }
    archive = good
    archive.top = ["root": .uid(0)]
    #expect(throws: ArchiveError.notKeyedArchive("the root object is nil")) {
      try transformer.color(from: archive.data)
    }
    archive = good
    archive.top = ["root": .uid(2)]
    #expect(
      throws: ArchiveError.notKeyedArchive("the root is a class description, not an object")
    ) {
      try transformer.color(from: archive.data)
    }
    archive = good
    archive.fields["$class"] = .uid(1)
    #expect(
      throws: ArchiveError.notKeyedArchive("$objects[1].$class does not refer to a class")
    ) {
      try transformer.color(from: archive.data)
    }
    let notADictionary = BinaryPropertyList.write(.array([.string("$null")]))
    #expect(throws: ArchiveError.notKeyedArchive("the top level is not a dictionary")) {
      try transformer.color(from: Data(notADictionary))
    }
  }

  // MARK: Nested objects, cycles and depth

  @Test func nestedObjectsRoundTrip() throws {
    let leaf = ChainLink(next: nil, label: "leaf")
    let root = ChainLink(next: ChainLink(next: leaf, label: "middle"), label: "root")
    let links = ChainLinkTransformer()
    let decoded = try #require(
      try links.unarchivedObject(from: links.archivedData(from: root))
        as? ChainLink)
    #expect(decoded.label == "root")
    #expect(decoded.next?.label == "middle")
    #expect(decoded.next?.next?.label == "leaf")
    #expect(decoded.next?.next?.next == nil)
  }

  @Test func referenceCycleInTheObjectGraph() throws {
    // Link 1 points back at itself through "next".
    let archive = KeyedArchiveFixture.chain(count: 1, lastNext: .uid(1))
    #expect(throws: ArchiveError.notKeyedArchive("reference cycle through $objects[1]")) {
      try ChainLinkTransformer().unarchivedObject(from: archive)
    }
  }

  @Test func deepObjectNesting() throws {
    let links = ChainLinkTransformer()
    let shallow = KeyedArchiveFixture.chain(count: 30, lastNext: .uid(0))
    #expect(try links.unarchivedObject(from: shallow) is ChainLink)
    let deep = KeyedArchiveFixture.chain(count: 40, lastNext: .uid(0))
    #expect(throws: ArchiveError.notKeyedArchive("objects nest deeper than 32 levels")) {
      try links.unarchivedObject(from: deep)
    }
  }

  @Test func nestedObjectOfAnUnrequestedClass() throws {
    // A ChainLink whose "next" is a TieColor: allowed in the archive, but init(coder:)
    // asked for ChainLink only, so decoding fails instead of handing over a color.
    let mixed = MixedTransformer()
    let color = TieColorArchive(TieColor(red8: 1, green8: 2, blue8: 3))
    let archive = KeyedArchiveFixture(objects: [
      .string("$null"),
      .dictionary(["$class": .uid(2), "next": .uid(4), "label": .uid(3)]),
      KeyedArchiveFixture.classDescription("ChainLink"),
      .string("link"),
      .dictionary([
        "$class": .uid(5), "red": .integer(1), "green": .integer(2), "blue": .integer(3),
      ]),
      KeyedArchiveFixture.classDescription("TieColor"),
    ])
    #expect(
      throws: ArchiveError.decodingFailed(
        className: "ChainLink", reason: "key \"next\" holds a TieColor, which was not requested")
    ) {
      try mixed.unarchivedObject(from: archive.data)
    }
    let decoded = try mixed.unarchivedObject(from: mixed.archivedData(from: color))
    #expect((decoded as? TieColorArchive)?.color == color.color)
  }

  @Test func archivingRefusesWhatItCannotReadBack() throws {
    #expect(
      throws: ArchiveError.unsupportedObject(
        "ColorArchiveIntruder: not an allowed class (allowed: UIColor, NSColor, TieColor)")
    ) {
      try transformer.archivedData(from: ColorArchiveIntruder())
    }
    let links = ChainLinkTransformer()
    let loop = ChainLink(next: nil, label: "loop")
    loop.next = loop
    #expect(
      throws: ArchiveError.unsupportedObject(
        "ChainLink: a reference cycle through ChainLink")
    ) {
      try links.archivedData(from: loop)
    }
    loop.next = nil
    let huge = ChainLink(next: nil, label: String(repeating: "x", count: 20_000))
    let error = try #require(throws: ArchiveError.self) { try links.archivedData(from: huge) }
    guard case .tooLarge(let bytes, 16_384) = error, bytes > 20_000 else {
      Issue.record("expected tooLarge, got \(error)")
      return
    }
    #expect(
      throws: ArchiveError.unsupportedObject(
        "NSObject: not an allowed class (allowed: none)")
    ) {
      try NSSecureUnarchiveFromDataTransformer().archivedData(from: NSObject())
    }
  }

  /// On Linux most NSCoder methods trap unless overridden; a class calling any of them on
  /// our coders must get a failure, not a crash.
  @Test func everyNSCoderMethodFailsGracefully() throws {
    let probes = CoderProbeTransformer()
    let encodeError = try #require(throws: ArchiveError.self) {
      try probes.archivedData(from: CoderProbe(mode: .encodeEverything))
    }
    #expect(
      encodeError
        == .unsupportedObject(
          "CoderProbe: unkeyed encoding is not supported by this keyed archive coder"))

    let data = try probes.archivedData(from: CoderProbe(mode: .plain))
    #expect(
      throws: ArchiveError.decodingFailed(
        className: "CoderProbe",
        reason: "unkeyed decoding is not supported by this keyed archive coder")
    ) {
      try probes.unarchivedObject(from: data)
    }
  }

  // MARK: Descriptions

  @Test func descriptionsReadAfterAPrefix() {
    #expect(
      ArchiveError.classNotAllowed("NSString").description
        == "class NSString is not allowed")
    #expect(
      ArchiveError.tooLarge(bytes: 20_000, limit: 16_384).description
        == "archive is 20000 bytes, over the 16384-byte limit")
    #expect(
      ArchiveError.decodingFailed(className: "TieColor", reason: "key \"red\" is missing")
        .description == "cannot decode TieColor: key \"red\" is missing")
    #expect("\(ArchiveError.empty)" == "archive is empty")
  }

  // MARK: Registration

  /// A fresh name, so that tests running in parallel never see the shared name vanish.
  @Test func registerThenUnregister() throws {
    let name = NSValueTransformerName("ColorTransformerTests.\(UUID().uuidString)")
    #expect(ValueTransformer.valueTransformer(forName: name) == nil)
    #expect(!ValueTransformer.valueTransformerNames().contains(name))

    ColorAttributeTransformer.register(as: name)
    let registered = try #require(ValueTransformer.valueTransformer(forName: name))
    #expect(registered is ColorAttributeTransformer)
    #expect(ValueTransformer.valueTransformerNames().contains(name))
    let color = TieColor(red8: 9, green8: 8, blue8: 7)
    #expect(
      registered.transformedValue(registered.reverseTransformedValue(color)) as? TieColor
        == color)

    let replacement = ColorAttributeTransformer()
    ValueTransformer.setValueTransformer(replacement, forName: name)
    #expect(ValueTransformer.valueTransformer(forName: name) === replacement)

    ValueTransformer.setValueTransformer(nil, forName: name)
    #expect(ValueTransformer.valueTransformer(forName: name) == nil)
    #expect(!ValueTransformer.valueTransformerNames().contains(name))
  }

  @Test func registerInstallsTheColorTransformer() {
    ColorAttributeTransformer.register()
    let found = ValueTransformer.valueTransformer(forName: ColorAttributeTransformer.name)
    #expect(found is ColorAttributeTransformer)
    #expect(ColorAttributeTransformer.name.rawValue == "ColorAttributeTransformer")
    #expect(ValueTransformer.valueTransformerNames().contains(ColorAttributeTransformer.name))
  }

  @Test func registryIsSafeUnderConcurrency() async {
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          let name = NSValueTransformerName("concurrent.\(task)")
          for _ in 0..<500 {
            ValueTransformer.setValueTransformer(ColorAttributeTransformer(), forName: name)
            _ = ValueTransformer.valueTransformer(forName: name)
            _ = ValueTransformer.valueTransformerNames()
            ValueTransformer.setValueTransformer(nil, forName: name)
          }
        }
      }
    }
    #expect(
      ValueTransformer.valueTransformer(forName: NSValueTransformerName("concurrent.0"))
        == nil)
  }

  @Test func baseValueTransformerBehavesLikeApples() {
    let identity = ValueTransformer()
    #expect(identity.transformedValue("x") as? String == "x")
    #expect(identity.reverseTransformedValue("x") == nil)  // Reverse is not allowed.
    #expect(!ValueTransformer.allowsReverseTransformation())
    let valueClass = ObjectIdentifier(ValueTransformer.transformedValueClass())
    #expect(valueClass == ObjectIdentifier(NSObject.self))
  }
}

// MARK: - Mutation fuzzing

@Suite struct MutatedArchiveTests {
  /// 12,000 archives with random byte changes, truncations and insertions: bowties' own,
  /// and the UIKit and AppKit forms of Tests/Fixtures/ColorArchives. None may trap (that
  /// would kill the test process); the layouts and the full decoder must agree on each; an
  /// archive left as it was decodes to its color; and a color decoded from damaged bytes
  /// archives and decodes back to itself.
  @Test func randomMutationsNeverCrash() throws {
    let seed: UInt64 = 0xB0_71E5_5EED
    print("randomMutationsNeverCrash seed: 0x\(String(seed, radix: 16))")
    var random = SplitMix64(seed: seed)
    let transformer = ColorAttributeTransformer()
    let ours = try ColorTransformerTests.colors.map { try transformer.data(from: $0) }
    let originals = ours + ColorArchiveFixtures.all().map(\.data)
    // Laid out before the loop, so that the layouts are tried from the first archive on.
    _ = try transformer.color(from: ours[0])
    _ = try transformer.color(from: ours[0])
    var refused = 0
    var decoded = 0
    for iteration in 0..<12_000 {
      let original = originals[iteration % originals.count]
      var bytes = [UInt8](original)
      switch random.next(below: 10) {
      case 0:
        bytes.removeLast(1 + random.next(below: bytes.count - 1))
      case 1:
        let position = random.next(below: bytes.count + 1)
        let inserted = (0...random.next(below: 4)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
        bytes.insert(contentsOf: inserted, at: position)
      default:
        for _ in 0...random.next(below: 8) {
          bytes[random.next(below: bytes.count)] = UInt8.random(in: 0...255, using: &random)
        }
      }
      // The layouts decode exactly what the full decoder decodes, and refuse (by handing
      // over to it) everything else.
      let general = try? ColorAttributeTransformer.color(
        of: transformer.unarchivedObject(from: Data(bytes)))
      #expect((try? transformer.color(from: Data(bytes))) == general)
      if let fast = ColorArchiveLayouts.shared.color(in: Data(bytes)) {
        #expect(fast == general)
      }
      do {
        let color = try transformer.color(from: Data(bytes))
        if bytes == [UInt8](original), let expected = try? transformer.color(from: original) {
          #expect(color == expected)
        }
        #expect(try transformer.color(from: transformer.data(from: color)) == color)
        decoded += 1
      } catch {
        refused += 1
      }
    }
    print("randomMutationsNeverCrash: \(refused) refused, \(decoded) decoded")
    // Both outcomes happen often enough for the checks above to mean something.
    #expect(refused > 6_000 && decoded > 50, "\(refused) refused, \(decoded) decoded")
  }
}

// MARK: - Fixtures

/// An NSSecureCoding class that is not allowed anywhere. Internal and top-level on purpose:
/// Foundation's NSKeyedArchiver (NSStringFromClass) traps on private or nested classes.
final class ColorArchiveIntruder: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  override init() {}
  func encode(with coder: NSCoder) { coder.encode(1, forKey: "payload") }
  init?(coder: NSCoder) {}
}

/// Accepts the module-qualified name Foundation's NSKeyedArchiver writes for UIColorArchive.
private final class FoundationNameColorTransformer: NSSecureUnarchiveFromDataTransformer,
  @unchecked Sendable
{
  override class var allowedTopLevelClasses: [AnyClass] { [UIColorArchive.self] }
  override class var archivedClassNameAliases: [String: AnyClass] {
    [String(reflecting: UIColorArchive.self): UIColorArchive.self]
  }
}

/// A linked list node, to exercise nested objects, shared references, cycles and depth.
private final class ChainLink: NSObject, NSSecureCoding, StableArchiveName {
  static let archivedClassName = "ChainLink"
  static var supportsSecureCoding: Bool { true }
  var next: ChainLink?
  let label: String

  init(next: ChainLink?, label: String) {
    self.next = next
    self.label = label
  }

  func encode(with coder: NSCoder) {
    coder.encode(next, forKey: "next")
    coder.encode(label, forKey: "label")
  }

  init?(coder: NSCoder) {
    guard let label = coder.decodeObject(of: NSString.self, forKey: "label") else { return nil }
    self.label = label as String
    next = coder.decodeObject(of: ChainLink.self, forKey: "next")
  }
}

/// Calls every NSCoder method, supported or not, in `encode(with:)` or `init?(coder:)`.
/// Except the unkeyed NSPoint/NSSize/NSRect ones: those are final extension methods that
/// trap on Linux for any coder but Foundation's own, and cannot be overridden.
private final class CoderProbe: NSObject, NSSecureCoding, StableArchiveName {
  enum Mode { case plain, encodeEverything }
  static let archivedClassName = "CoderProbe"
  static var supportsSecureCoding: Bool { true }
  let mode: Mode

  init(mode: Mode) { self.mode = mode }

  func encode(with coder: NSCoder) {
    coder.encode(1, forKey: "int")
    guard mode == .encodeEverything else { return }
    var int32: Int32 = 5
    coder.encode(Data([1]))
    coder.encode(NSString(string: "unkeyed"))
    coder.encodeRootObject(NSString(string: "root"))
    coder.encodeBycopyObject(nil)
    coder.encodeByrefObject(nil)
    coder.encodeConditionalObject(nil)
    coder.encodeArray(ofObjCType: "i", count: 1, at: &int32)
    coder.encodeBytes(&int32, length: 4)
    coder.encodeValue(ofObjCType: "i", at: &int32)
    coder.encodePropertyList(NSString(string: "plist"))
    coder.encode(NSPoint(x: 1, y: 2), forKey: "point")
    coder.encode(NSSize(width: 1, height: 2), forKey: "size")
    coder.encode(NSRect(x: 0, y: 0, width: 1, height: 1), forKey: "rect")
    coder.encode(NSNumber(value: 3), forKey: "number")
    coder.encode(NSObject(), forKey: "object")
    coder.encodeConditionalObject(self, forKey: "self")
    coder.encode(true, forKey: "bool")
    coder.encode(Int32(1), forKey: "int32")
    coder.encode(Int64(1), forKey: "int64")
    coder.encode(Float(1), forKey: "float")
    coder.encode(1.5, forKey: "double")
    coder.encodeBytes(nil, length: 0, forKey: "bytes")
    _ = coder.allowedClasses
    _ = coder.error
  }

  init?(coder: NSCoder) {
    mode = .plain
    var int32: Int32 = 0
    _ = coder.decodeObject()
    _ = coder.decodeData()
    coder.decodeValue(ofObjCType: "i", at: &int32)
    coder.decodeArray(ofObjCType: "i", count: 1, at: &int32)
    _ = coder.decodePropertyList()
    _ = coder.decodePoint(forKey: "int")
    _ = coder.decodeSize(forKey: "int")
    _ = coder.decodeRect(forKey: "int")
    _ = coder.decodePropertyList(forKey: "int")
    _ = coder.decodeObject(forKey: "int")
    _ = coder.decodeObject(of: [NSString.self], forKey: "int")
    _ = coder.decodeObject(of: NSString.self, forKey: "absent")
    _ = coder.decodeBool(forKey: "int")
    _ = coder.decodeCInt(forKey: "int")
    _ = coder.decodeInt32(forKey: "int")
    _ = coder.decodeInt64(forKey: "int")
    _ = coder.decodeInteger(forKey: "int")
    _ = coder.decodeFloat(forKey: "int")
    _ = coder.decodeDouble(forKey: "int")
    coder.withDecodedUnsafeBytes(forKey: "int") { _ in }
    _ = coder.version(forClassName: "CoderProbe")
    _ = coder.containsValue(forKey: "int")
    _ = coder.allowedClasses
    _ = coder.error
    _ = coder.systemVersion
    coder.failWithError(CocoaError(.coderReadCorrupt))
  }
}

private final class CoderProbeTransformer: NSSecureUnarchiveFromDataTransformer,
  @unchecked Sendable
{
  override class var allowedTopLevelClasses: [AnyClass] { [CoderProbe.self] }
}

private final class ChainLinkTransformer: NSSecureUnarchiveFromDataTransformer,
  @unchecked Sendable
{
  override class var allowedTopLevelClasses: [AnyClass] { [ChainLink.self] }
}

private final class MixedTransformer: NSSecureUnarchiveFromDataTransformer,
  @unchecked Sendable
{
  override class var allowedTopLevelClasses: [AnyClass] {
    [ChainLink.self, TieColorArchive.self]
  }
}

/// Hand-built keyed archives, for shapes our encoder never writes.
private struct KeyedArchiveFixture {
  var archiver: PropertyListValue = .string("NSKeyedArchiver")
  var version: PropertyListValue = .integer(100_000)
  var top: [String: PropertyListValue] = ["root": .uid(1)]
  var objects: [PropertyListValue]

  /// The fields of object 1, the root.
  var fields: [String: PropertyListValue] {
    get {
      guard case .dictionary(let fields) = objects[1] else { return [:] }
      return fields
    }
    set { objects[1] = .dictionary(newValue) }
  }

  var data: Data {
    Data(
      BinaryPropertyList.write(
        .dictionary([
          "$archiver": archiver, "$version": version, "$top": .dictionary(top),
          "$objects": .array(objects),
        ])))
  }

  static func classDescription(_ name: String) -> PropertyListValue {
    .dictionary([
      "$classname": .string(name), "$classes": .array([.string(name), .string("NSObject")]),
    ])
  }

  static func color(
    red: PropertyListValue, green: PropertyListValue, blue: PropertyListValue
  ) -> KeyedArchiveFixture {
    KeyedArchiveFixture(objects: [
      .string("$null"),
      .dictionary(["$class": .uid(2), "red": red, "green": green, "blue": blue]),
      classDescription("TieColor"),
    ])
  }

  /// `count` ChainLinks at $objects[1...count], each pointing at the next; the last one's
  /// "next" is `lastNext`. The class description and the shared label follow.
  static func chain(count: Int, lastNext: PropertyListValue) -> Data {
    let classUID = UInt32(count + 1)
    let labelUID = UInt32(count + 2)
    var objects: [PropertyListValue] = [.string("$null")]
    for index in 1...count {
      let next: PropertyListValue = index == count ? lastNext : .uid(UInt32(index + 1))
      objects.append(
        .dictionary(["$class": .uid(classUID), "next": next, "label": .uid(labelUID)]))
    }
    objects.append(classDescription("ChainLink"))
    objects.append(.string("link"))
    return KeyedArchiveFixture(objects: objects).data
  }
}
