import Foundation
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import PropertyLists

/// The archives of Tests/Fixtures/ColorArchives: those `scripts/make-color-archives.py`
/// writes from the public descriptions, and real ones as they were published (`real/`).
enum ColorArchiveFixtures {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/ColorArchives")

  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: folder.appendingPathComponent(name + ".bplist"))
  }

  /// Every fixture, by name ("real/…" for the published ones).
  static func all() -> [(name: String, data: Data)] {
    var found: [(String, Data)] = []
    for subfolder in ["", "real/"] {
      let url = folder.appendingPathComponent(subfolder)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
      for name in names.sorted() where name.hasSuffix(".bplist") {
        if let data = try? Data(contentsOf: url.appendingPathComponent(name)) {
          found.append((subfolder + String(name.dropLast(7)), data))
        }
      }
    }
    return found
  }
}

/// Each form of UIKit's and AppKit's color archives the transformer reads, and each it
/// refuses, from the fixtures.
@Suite struct ColorArchiveTests {
  let transformer = ColorAttributeTransformer()

  /// Accepted forms: fixture, and the color it holds, as its components came.
  static let accepted: [(String, TieColor)] = [
    ("uicolor-rgb", TieColor(red: 0.25, green: 0.5, blue: 0.75)),
    // The -Double keys win over the floats.
    ("uicolor-rgb-double", TieColor(red: 33.0 / 255, green: 36.0 / 255, blue: 56.0 / 255)),
    ("uicolor-rgb-alpha", TieColor(red: 0.25, green: 0.12, blue: 0.45, alpha: 0.8)),
    ("uicolor-rgb-appkit-chain", TieColor(red: 0.5, green: 0.25, blue: 1)),
    ("uicolor-float32-green", TieColor(red: 0, green: Double(Float(0.34117645)), blue: 0)),
    ("uicolor-white", TieColor(red: 0.5, green: 0.5, blue: 0.5)),
    ("uicolor-white-alpha", TieColor(red: 1, green: 1, blue: 1, alpha: 0.25)),
    (
      "uicolor-system-red",
      TieColor(
        red: Double(Float(1.0004385709762573)), green: Double(Float(0.22760793566703796)),
        blue: Double(Float(0.18670153617858887)))
    ),
    ("nscolor-calibrated-rgb", TieColor(red: 0.03137254902, green: 0.1607843137, blue: 0.2)),
    ("nscolor-device-rgb-alpha", TieColor(red: 0.5, green: 0.25, blue: 1, alpha: 0.5)),
    ("nscolor-calibrated-white", TieColor(red: 0.85, green: 0.85, blue: 0.85)),
    ("nscolor-device-white-alpha", TieColor(red: 1, green: 1, blue: 1, alpha: 0.9)),
    // NSComponents win over the NSRGB beside them ("0.1 0.2 0.3").
    (
      "nscolor-custom-space",
      TieColor(red: 0.02745098039, green: 0.2117647059, blue: 0.2588235294, alpha: 1)
    ),
    ("tiecolor", TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24)),
    // Published by UIKit and AppKit.
    ("real/uikit-system-blue", TieColor(red: 0, green: 0, blue: 1)),
    (
      "real/uikit-rgb-double",
      TieColor(red: 0.12941176470588237, green: 0.1411764705882353, blue: 0.2196078431372549)
    ),
    ("real/uikit-rgb-alpha-double", TieColor(red: 0.25, green: 0.12, blue: 0.45, alpha: 0.8)),
    (
      "real/terminal-nscolor-calibrated-rgb",
      TieColor(red: 0.03137254902, green: 0.1607843137, blue: 0.2)
    ),
    (
      "real/terminal-nscolor-device-rgb",
      TieColor(red: 0.1275488436, green: 0.462745098, blue: 0.7803921569)
    ),
    (
      "real/terminal-nscolor-custom-space",
      TieColor(red: 0.02745098039, green: 0.2117647059, blue: 0.2588235294, alpha: 1)
    ),
    ("real/terminal-nscolor-calibrated-white", TieColor(red: 1, green: 1, blue: 1)),
    ("real/terminal-nscolor-device-white-alpha", TieColor(red: 1, green: 1, blue: 1, alpha: 0.9)),
  ]

  @Test(arguments: accepted)
  func acceptedForm(name: String, expected: TieColor) throws {
    let data = try ColorArchiveFixtures.data(name)
    let color = try transformer.color(from: data)
    #expect(color == expected, "\(name)")
    // Stored again, it is UIKit's form, with the same components.
    let stored = try transformer.data(from: color)
    #expect(try transformer.color(from: stored) == color)
    let root = try KeyedArchive.decodeRoot(from: [UInt8](stored), classes: transformer.classTable)
    #expect(root is UIColorArchive)
  }

  @Test func eightBitValuesOfImportedColors() throws {
    // A float32 green of 0.34117645 is 87, not 86 (87/255 is 0.341176470…).
    let green = try transformer.color(from: ColorArchiveFixtures.data("uicolor-float32-green"))
    #expect(green.green8 == 87)
    #expect(green.hex == "#005700")
    // An extended-range system red clamps to 255.
    let red = try transformer.color(from: ColorArchiveFixtures.data("uicolor-system-red"))
    #expect(red.red > 1)
    #expect(red.hex == "#FF3A30")
    let translucent = try transformer.color(from: ColorArchiveFixtures.data("uicolor-rgb-alpha"))
    #expect(translucent.alpha8 == 204)
    #expect(translucent.hex == "#401F73CC")
  }

  /// Refused forms: fixture, and why, as `show` and `doctor` say it after the prefix.
  static let refused: [(String, ArchiveError)] = [
    (
      "uicolor-dynamic",
      .decodingFailed(
        className: "UIColor",
        reason:
          "it is a dynamic color (UIDynamicCatalogBundleIdentifier), which changes with the "
          + "device's settings")
    ),
    (
      "uicolor-missing-green",
      .decodingFailed(className: "UIColor", reason: "key \"UIGreen\" is missing")
    ),
    (
      "nscolor-catalog",
      .decodingFailed(
        className: "NSColor",
        reason:
          "it is a catalog color (System controlAccentColor), which depends on the system's "
          + "color lists")
    ),
    (
      "nscolor-missing-blue",
      .decodingFailed(className: "NSColor", reason: "NSRGB holds 2 numbers, not 3 or 4")
    ),
    // Published: its green is stored under a key cut to "UIGree".
    (
      "real/uikit-system-red-damaged",
      .decodingFailed(className: "UIColor", reason: "key \"UIGreen\" is missing")
    ),
  ]

  @Test(arguments: refused)
  func refusedForm(name: String, expected: ArchiveError) throws {
    let data = try ColorArchiveFixtures.data(name)
    #expect(throws: expected) { try transformer.color(from: data) }
    #expect(transformer.transformedValue(data) == nil)
  }

  /// A color space or a data object is allowed inside a color, never as the archive.
  @Test func nestedClassesAreNotRoots() throws {
    let custom = try ColorArchiveFixtures.data("nscolor-custom-space")
    guard case .dictionary(var top) = try BinaryPropertyList.read([UInt8](custom)),
      case .array(let objects)? = top["$objects"]
    else {
      Issue.record("not an archive")
      return
    }
    let space = try #require(
      objects.firstIndex { value in
        guard case .dictionary(let fields) = value else { return false }
        return fields["NSID"] != nil
      })
    let data = try #require(
      objects.firstIndex { value in
        guard case .dictionary(let fields) = value else { return false }
        return fields["NS.data"] != nil
      })
    for (index, name) in [(space, "NSColorSpace"), (data, "NSMutableData")] {
      top["$top"] = .dictionary(["root": .uid(UInt32(index))])
      let archive = Data(BinaryPropertyList.write(.dictionary(top)))
      #expect(throws: ArchiveError.classNotAllowed(name)) { try transformer.color(from: archive) }
    }
  }

  /// The forms' other refusals, from archives built here.
  @Test func otherRefusals() throws {
    func uiColor(_ fields: [String: PropertyListValue]) -> Data {
      Data(
        BinaryPropertyList.write(
          .dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
            "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
              .string("$null"), .dictionary(fields.merging(["$class": .uid(2)]) { $1 }),
              .dictionary([
                "$classname": .string("UIColor"),
                "$classes": .array([.string("UIColor"), .string("NSObject")]),
              ]),
              .string("systemBlueColor"),
            ]),
          ])))
    }
    let rgb: [String: PropertyListValue] = [
      "UIColorComponentCount": .integer(4), "UIRed": .real32(0.5), "UIGreen": .real32(0.5),
      "UIBlue": .real32(0.5), "UIAlpha": .real32(1),
    ]
    #expect(try transformer.color(from: uiColor(rgb)) == TieColor(red: 0.5, green: 0.5, blue: 0.5))
    func refusal(_ reason: String) -> ArchiveError {
      .decodingFailed(className: "UIColor", reason: reason)
    }
    var fields = rgb
    fields["UIColorComponentCount"] = .integer(3)
    #expect(throws: refusal("UIColorComponentCount is 3, not 4 (RGB) or 2 (grey)")) {
      try transformer.color(from: uiColor(fields))
    }
    fields = rgb
    fields["UIColorComponentCount"] = nil
    #expect(throws: refusal("key \"UIColorComponentCount\" is missing")) {
      try transformer.color(from: uiColor(fields))
    }
    // A system color whose components depend on the device.
    #expect(
      throws: refusal(
        "the system color systemBlueColor has no components: they depend on the device")
    ) {
      try transformer.color(from: uiColor(["UISystemColorName": .uid(3)]))
    }
    fields = rgb
    fields["UIRed-Double"] = .real(.nan)
    #expect(throws: refusal("UIRed is nan, not a finite number")) {
      try transformer.color(from: uiColor(fields))
    }
    fields = rgb
    fields["UIRed"] = .string("0.5")
    #expect(throws: refusal("key \"UIRed\" holds a string, not a number")) {
      try transformer.color(from: uiColor(fields))
    }
    fields = rgb
    fields["NSRGB"] = .data(Data("0.5 zero 0.5".utf8))
    #expect(throws: refusal("NSRGB is not ASCII numbers separated by spaces")) {
      try transformer.color(from: uiColor(fields))
    }
    fields = rgb
    fields["UIDynamicModifiedBaseColor"] = .uid(0)
    #expect(throws: ArchiveError.self) { try transformer.color(from: uiColor(fields)) }
  }

  /// TieColor archives written before stay readable: a backup made then still restores.
  @Test func tieColorArchivesOfBefore() throws {
    let old = try ColorArchiveFixtures.data("tiecolor")
    #expect(try transformer.color(from: old) == TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24))
    let rewritten = try #require(transformer.uiColorArchive(replacingTieColorArchive: old))
    #expect(
      try transformer.color(from: rewritten) == TieColor(red8: 0xEF, green8: 0x30, blue8: 0x24))
    // Only TieColor archives are rewritten.
    #expect(transformer.uiColorArchive(replacingTieColorArchive: rewritten) == nil)
    let appKit = try ColorArchiveFixtures.data("nscolor-calibrated-rgb")
    #expect(transformer.uiColorArchive(replacingTieColorArchive: appKit) == nil)
    #expect(transformer.uiColorArchive(replacingTieColorArchive: Data("junk".utf8)) == nil)
  }

  /// The script's archives are what bowties writes for the same color, byte for byte,
  /// where the forms are the same: the description and the code agree.
  @Test func theScriptWritesWhatTheEncoderWrites() throws {
    for (name, color) in [
      ("uicolor-rgb", TieColor(red: 0.25, green: 0.5, blue: 0.75)),
      ("uicolor-rgb-double", TieColor(red: 33.0 / 255, green: 36.0 / 255, blue: 56.0 / 255)),
      ("uicolor-rgb-alpha", TieColor(red: 0.25, green: 0.12, blue: 0.45, alpha: 0.8)),
    ] {
      let script = try ColorArchiveFixtures.data(name)
      let ours = try transformer.data(from: color)
      // Same objects; the script's plistlib shares equal values, which ours does not.
      #expect(
        try BinaryPropertyList.read([UInt8](script)) == BinaryPropertyList.read([UInt8](ours)),
        "\(name)")
    }
  }
}
