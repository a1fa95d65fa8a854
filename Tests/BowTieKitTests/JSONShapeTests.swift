import Foundation
import Testing
import TextOutput

@testable import BowTieKit
@testable import BowTieModel

/// The JSON shapes the array writer prints: each field listed once, for JSONEncoder and the
/// writer alike, so the two print the same bytes and read back whole.
@Suite("JSON shapes")
struct JSONShapeTests {
  @Test(
    "a tie by the writer is JSONEncoder's bytes, and every field reads back",
    arguments: [TieFixtures.full, TieFixtures.empty])
  func tie(_ tie: TieJSON) throws {
    var writer = JSONWriter()
    try writer.object(tie)
    let encoded = try TieJSON.makeEncoder().encode(tie)
    #expect(writer.bytes == Array(encoded))
    #expect(try JSONDecoder().decode(TieJSON.self, from: Data(writer.bytes)) == tie)
  }

  @Test("null fields are written, so scripts see one shape; tintColorUnreadable only when true")
  func nulls() throws {
    var writer = JSONWriter()
    try writer.object(TieFixtures.empty)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
    #expect(
      object.keys.sorted() == [
        "currency", "id", "isFavorite", "lastWorn", "name", "photoBytes", "photoFormat",
        "photoHeight", "photoWidth", "price", "rating", "searchKey", "timesWorn", "tintColor",
        "url",
      ])
    #expect(object["lastWorn"] is NSNull)
  }

  @Test("a wear by the writer is JSONEncoder's bytes, its date in ISO 8601 UTC")
  func wear() throws {
    let record = WearRecord(
      event: WearEvent(
        id: 42, tieID: UUID(uuidString: "6D8B7A4C-0000-4000-8000-000000000001")!,
        wornAt: Date(timeIntervalSince1970: 1_795_248_000.75)),
      searchKey: "R", name: "Red \\ Bow Tie")
    var writer = JSONWriter()
    try writer.object(WearJSON(record))
    #expect(writer.bytes == Array(try TieJSON.makeEncoder().encode(WearJSON(record))))
    #expect(
      String(decoding: writer.bytes, as: UTF8.self).contains(
        "\"wornAt\" : \"2026-11-21T08:00:00Z\""))
  }
}

/// Two ties as `show --json` prints them: every field set, and as few as can be.
enum TieFixtures {
  static let full = tie(
    #"""
    {"id": "6D8B7A4C-0000-4000-8000-000000000001", "name": "Caf\u00e9 \"Bow\" Tie\n\u0007/",
     "searchKey": "R", "rating": 4.5, "timesWorn": 12, "lastWorn": "2026-11-21T08:00:00Z",
     "isFavorite": true, "url": "https://example.com/a/b?c=d", "price": "19.99",
     "currency": "EUR", "tintColor": {"red": 255, "green": 0, "blue": 12},
     "tintColorUnreadable": true, "photoBytes": 1234, "photoFormat": "png", "photoWidth": 40,
     "photoHeight": 30}
    """#)

  static let empty = tie(
    """
    {"id": "6D8B7A4C-0000-4000-8000-000000000002", "name": "", "searchKey": "E", "rating": 0,
     "timesWorn": 0, "isFavorite": false, "photoBytes": 0}
    """)

  static func tie(_ json: String) -> TieJSON {
    // The fixtures are constants; a typo in one fails every test that uses it.
    (try? JSONDecoder().decode(TieJSON.self, from: Data(json.utf8)))!
  }
}
