import Foundation
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import PropertyLists

@Suite("Streaming XML plist reader")
struct XMLPropertyListReaderTests {
  private func parse(_ xml: String) throws -> [SeedEntry] {
    try SeedFile.parse(Data(xml.utf8), source: "x.plist", images: .embedded([:]))
  }

  private func refusal(_ xml: String) -> String {
    do {
      _ = try parse(xml)
      return "accepted"
    } catch {
      return error.localizedDescription
    }
  }

  private func plist(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0"><array>\(body)</array></plist>
    """
  }

  private let tie = """
    <dict><key>id</key><string>0B0771E5-0000-4000-8000-0000000000AB</string>
    <key>name</key><string>A &amp; B &lt;Tie&gt;</string><key>searchKey</key><string>AB</string>
    <key>rating</key><real>4.5</real><key>timesWorn</key><integer>3</integer>
    <key>isFavorite</key><true/><key>lastWorn</key><date>2026-11-01T10:00:00Z</date>
    <key>tintColor</key><dict><key>red</key><integer>1</integer><key>green</key><integer>2</integer>
    <key>blue</key><integer>3</integer></dict><key>photoData</key><data>
    iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4
    nGM4IafxHwAEzgIOvZGGtQAAAABJRU5ErkJggg==
    </data><key>price</key><string><![CDATA[19.99]]></string></dict>
    """

  @Test("reads what Foundation reads, value for value")
  func sameAsFoundation() throws {
    let xml = plist(tie + tie.replacingOccurrences(of: "AB</string>", with: "CD</string>"))
    let streamed = try parse(xml)
    let viaFoundation = try PropertyListSerialization.propertyList(
      from: Data(xml.utf8), format: nil)
    let binary = try PropertyListSerialization.data(
      fromPropertyList: viaFoundation, format: .binary, options: 0)
    let reference = try SeedFile.parse(binary, source: "x", images: .embedded([:]))
    #expect(streamed.map(\.tie) == reference.map(\.tie))
    let first = try #require(streamed.first?.tie)
    #expect(
      first.name == "A & B <Tie>" && first.rating == 4.5 && first.timesWorn == 3 && first.isFavorite
    )
    #expect(
      first.photoData
        == Data(
          base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGM4IafxHwAEzgIOvZGGtQAAAABJRU5ErkJggg=="
        ))
    #expect(first.photoDescription == PhotoDescription(format: .png, width: 1, height: 1))
    #expect(first.price == Decimal(string: "19.99"))
  }

  @Test("the checked-in SampleData.plist reads the same both ways")
  func sampleData() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let xml = try Data(contentsOf: root.appendingPathComponent("SampleData.plist"))
    let value = try PropertyListSerialization.propertyList(from: xml, format: nil)
    let binary = try PropertyListSerialization.data(
      fromPropertyList: value, format: .binary, options: 0)
    let images = ImageSource.folder(root.appendingPathComponent("images"))
    #expect(
      try SeedFile.parse(xml, source: "x", images: images).map(\.tie)
        == SeedFile.parse(binary, source: "x", images: images).map(\.tie))
  }

  @Test(
    "hostile or malformed XML is refused with the line, never followed",
    arguments: [
      // An entity bomb: its references are refused, not expanded.
      """
      <?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>
      <plist><array><dict><key>name</key><string>&b;</string></dict></array></plist>
      """,
      // An external entity: no file or network is read.
      """
      <?xml version="1.0"?><!DOCTYPE plist [<!ENTITY x SYSTEM "file:///etc/passwd">]>
      <plist><array><dict><key>name</key><string>&x;</string></dict></array></plist>
      """,
      "<plist><array><dict><key>name</key><string>unclosed</dict></array></plist>",
      "<plist><array><dict><string>no key</string></dict></array></plist>",
      "<plist><array><blob/></array></plist>",
      "<plist><array><integer>99999999999999999999</integer></array></plist>",
      "<plist><array><real>fast</real></array></plist>",
      "<plist><array><date>yesterday</date></array></plist>",
      "<plist><array><dict><key>a</key><string>x<b/></string></dict></array></plist>",
      "<plist><array>loose text</array></plist>",
      "<plist><array><dict><key>name</key></dict></array></plist>",
      String(repeating: "<array>", count: 40) + String(repeating: "</array>", count: 40),
    ])
  func refused(xml: String) {
    let message = refusal(xml)
    #expect(message.hasPrefix("x.plist: not a property list ("), "\(message)")
    #expect(!message.contains("root:"), "nothing from /etc/passwd")
  }

  @Test("a root that is not an array is named, as before")
  func rootKinds() throws {
    #expect(
      refusal("<plist><dict/></plist>")
        == "x.plist: expected an array of tie dictionaries, found a dictionary")
    #expect(
      refusal("<plist><string>hi</string></plist>")
        == "x.plist: expected an array of tie dictionaries, found a string ('hi')")
    #expect(
      refusal("<plist><array><string>hi</string></array></plist>")
        == "entry 0: is a string ('hi'), not a dictionary")
    #expect(try parse("<plist><array/></plist>").isEmpty)
    #expect(try parse("<array/>").isEmpty)
  }

  /// Foundation read these before libxml2 took over the XML: UTF-16 must still reach it.
  @Test("UTF-16 plists, with a byte-order mark or without, read as their UTF-8 twin")
  func utf16() throws {
    let xml = plist(tie).replacingOccurrences(of: "UTF-8", with: "UTF-16")
    let expected = try parse(plist(tie)).map(\.tie)
    for encoding in [String.Encoding.utf16, .utf16BigEndian, .utf16LittleEndian] {
      let data = try #require(xml.data(using: encoding))
      let entries = try SeedFile.parse(data, source: "x.plist", images: .embedded([:]))
      #expect(entries.map(\.tie) == expected, "\(encoding)")
    }
  }

  /// Found by fuzzing (Fuzz/Corpus/seed-file/leak-entity-declaration), when libxml2 read
  /// the XML: a declared entity is ignored, and a reference to it refused by name.
  @Test("a plist that declares an entity reads; a reference to one is refused by name")
  func entityDeclaration() throws {
    let plist = Data(#"<!DOCTYPE plist [<!ENTITY e "x">]><plist><array/></plist>"#.utf8)
    #expect(try SeedFile.parse(plist, source: "x.plist", images: .embedded([:])).isEmpty)
    #expect(
      refusal(
        #"<!DOCTYPE plist [<!ENTITY e "x">]><plist><array><string>&e;</string></array></plist>"#)
        == "x.plist: not a property list (line 1: entity references are not allowed (&e;))")
  }
}
