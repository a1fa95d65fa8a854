import Foundation
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import PropertyLists

/// What an export writes reads back as it was written.
@Suite("Export")
struct ExportTests {
  /// Found by fuzzing (Fuzz/Corpus/seed-file/crash-xml-export-julian-date): PropertyListEncoder
  /// wrote 1013-11-21 as <date>1013-11-15T08:00:00Z</date> (Julian), which every reader takes as
  /// Gregorian.
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

  /// Found by fuzzing (Fuzz/Corpus/seed-file/crash-xml-export-empty-data): a tie with an empty
  /// photo (a JSON or binary seed can give one) exported to XML as `<data>` holding only the
  /// layout's white space, which the XML reader refused ("<data> is not base64"): Foundation's
  /// base64 decoder returns nil for it.
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

  @Test(
    "an export folder seeds back as it was: the layout export writes is the one seed reads",
    arguments: [ExportFormat.plist, .json])
  func folderRoundTrip(format: ExportFormat) throws {
    let store = try makeInMemoryStore()
    try store.seed(SampleData.entries())
    let folder = TemporaryFolder()
    let export = folder.url.appendingPathComponent("export", isDirectory: true)
    let summary = try Exporter(format: format).write(
      from: store, intoFolder: export, replacing: false, warn: { _ in })
    #expect(summary.ties == 7 && summary.photoFiles == 7)
    let entries = try SeedInput(argument: export.path, format: nil, photos: true).entries()
    let stored = try store.allTies()
    #expect(entries.map(\.tie.id) == stored.map(\.id))
    for (entry, tie) in zip(entries, stored) {
      #expect(entry.tie.name == tie.name)
      #expect(entry.tie.photoData == (try store.photoData(of: tie)), "\(tie.name)")
    }
  }

  @Test("a folder without a seed file is refused, naming both names seed looks for")
  func folderWithoutSeedFile() throws {
    let folder = TemporaryFolder()
    let message = refusalMessage {
      _ = try SeedInput(argument: folder.url.path, format: nil, photos: true).entries()
    }
    #expect(
      message.contains("it is a folder without SampleData.plist, SampleData.json or a SQLite store")
    )
  }
}
