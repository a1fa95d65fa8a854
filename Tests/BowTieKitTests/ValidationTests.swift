import Foundation
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import PropertyLists

@Suite("Validation")
struct ValidationTests {
  private func tie(_ change: (inout BowTie) -> Void) -> BowTie {
    var tie = BowTie(name: "Red Bow Tie", searchKey: "R", rating: 4)
    change(&tie)
    return tie
  }

  @Test("a complete tie is valid")
  func validTie() throws {
    try tie { _ in }.validate()
    try tie { $0.rating = 0 }.validate()
    try tie { $0.rating = 5 }.validate()
    try tie { $0.timesWorn = .max }.validate()
  }

  @Test(
    "each bad attribute is named with its reason",
    arguments: [
      ("rating", 5.000001, "is outside 0…5"),
      ("rating", -0.5, "is outside 0…5"),
      ("rating", .nan, "is not a number"),
      ("rating", .infinity, "is not a number"),
    ])
  func ratingBounds(attribute: String, rating: Double, reason: String) {
    let failure = tie { $0.rating = rating }.validationFailure
    #expect(failure?.attribute == attribute)
    #expect(failure?.reason.contains(reason) == true)
  }

  @Test("names, keys, counts and links")
  func otherAttributes() {
    #expect(tie { $0.name = "  " }.validationFailure?.attribute == "name")
    #expect(tie { $0.name = "Red\u{7}" }.validationFailure?.attribute == "name")
    #expect(tie { $0.searchKey = "" }.validationFailure?.attribute == "searchKey")
    #expect(tie { $0.searchKey = "A B" }.validationFailure?.attribute == "searchKey")
    #expect(tie { $0.timesWorn = -1 }.validationFailure?.attribute == "timesWorn")
    #expect(tie { $0.url = URL(string: "relative/path") }.validationFailure?.attribute == "url")
  }

  @Test(
    "a link that is not one says why, and a link without its scheme gets one suggested",
    arguments: [
      (
        "www.example.com/tie",
        "'www.example.com/tie' is not an absolute URL: did you mean "
          + "'https://www.example.com/tie'?"
      ),
      ("example.com", "'example.com' is not an absolute URL: did you mean 'https://example.com'?"),
      ("file:///etc/passwd", "'file:///etc/passwd' is not an absolute URL with a host (https://…)"),
      (
        "javascript:alert(1)",
        "'javascript:alert(1)' is not an absolute URL with a host (https://…)"
      ),
      ("not a url", "'not a url' is not an absolute URL"),
      ("relative/path", "'relative/path' is not an absolute URL"),
    ])
  func linkProblems(typed: String, reason: String) throws {
    #expect(throws: BowTieError.invalidValue("url " + reason)) { try BowTie.parseURL(typed) }
  }

  @Test("the error reads like Core Data's")
  func message() {
    #expect(throws: BowTieError.self) { try tie { $0.rating = 7.5 }.validate() }
    do {
      try tie { $0.rating = 7.5 }.validate()
    } catch {
      #expect(error.localizedDescription == "Red Bow Tie: rating 7.5 is outside 0…5")
    }
  }

  @Test(
    "typed ratings use a dot whatever the locale",
    arguments: ["0", "4", "4.5", "5", "5.0", "03.25"])
  func acceptedRatings(text: String) throws {
    #expect(try BowTie.parseRating(text) == Double(text))
  }

  @Test(
    "typed ratings outside 0…5 or not plain decimals are refused",
    arguments: [
      "7", "-1", "nan", "inf", "abc", "4,5", "", " ", "1e0", "+4", "4.", ".5", "٤", "5.01",
    ])
  func refusedRatings(text: String) {
    #expect(throws: BowTieError.self) { try BowTie.parseRating(text) }
  }

  @Test(
    "ratings print as typed, without an exponent however small",
    arguments: [
      ("4", "4"), ("4.5", "4.5"), ("0.0001", "0.0001"), ("0.00001", "0.00001"),
      ("0.000000000000000000000015", "0.000000000000000000000015"),
      ("4.123456789", "4.123456789"), ("0", "0"),
    ])
  func printedRatings(typed: String, printed: String) throws {
    #expect(BowTie.formatRating(try BowTie.parseRating(typed)) == printed)
  }

  @Test("ratings another program stored out of range print without an exponent too")
  func storedRatings() {
    #expect(BowTie.formatRating(-0.00002) == "-0.00002")
    #expect(BowTie.formatRating(1e16) == "10000000000000000")
    #expect(BowTie.formatRating(1.25e17) == "125000000000000000")
    #expect(BowTie.formatRating(.nan) == "nan")
  }

  @Test("canonical names fold case, diacritics, width and spacing")
  func canonicalNames() {
    #expect(BowTie.canonicalize("Café  Bow\tTie") == "cafe bow tie")
    #expect(BowTie.canonicalize("ＲＥＤ") == "red")
  }

  @Test(
    "ISO 8601 dates people type",
    arguments: [
      ("2026-11-21T08:00:00Z", 1_795_248_000.0),
      ("2026-11-21T09:00:00+01:00", 1_795_248_000.0),
      ("2026-11-21T08:00:00.500Z", 1_795_248_000.5),
      ("2026-11-21 08:00:00Z", 1_795_248_000.0),
    ])
  func isoDates(text: String, seconds: Double) {
    #expect(ISO8601.parse(text)?.timeIntervalSince1970 == seconds)
  }

  @Test(
    "malformed dates are refused",
    arguments: [
      "2026-13-01", "2026-02-30", "2026-11-21T25:00:00Z", "21/11/2026", "2026-11-21T08:00:00Q",
      "", "yesterday", "2026-11-21T08",
    ])
  func badDates(text: String) {
    #expect(ISO8601.parse(text) == nil)
  }

  @Test("a date-only value is local midnight; the stored form round-trips")
  func localMidnightAndStorage() throws {
    let date = try #require(ISO8601.parse("2026-11-21"))
    let parts = Calendar.current.dateComponents([.year, .month, .day, .hour], from: date)
    #expect(parts.year == 2026 && parts.month == 11 && parts.day == 21 && parts.hour == 0)
    let precise = Date(timeIntervalSince1970: 1_795_248_000.25)
    #expect(StorageDate.format(precise) == "2026-11-21T08:00:00.250Z")
    #expect(try StorageDate.parse(StorageDate.format(precise)) == precise)
  }

  /// Found by fuzzing (Fuzz/Corpus/seed-file/crash-binary-plist-nan-date): a date of NaN passed
  /// validation (Date's <= holds both ways) and trapped when stored as text.
  @Test("a NaN date is refused by validation, from a binary plist too")
  func nanDate() throws {
    let nan = Date(timeIntervalSinceReferenceDate: .nan)
    let tie = BowTie(name: "Red Bow Tie", searchKey: "R", rating: 4, lastWorn: nan)
    #expect(tie.validationFailure?.attribute == "lastWorn")
    let entry: PropertyListValue = .dictionary([
      "name": .string("Red Bow Tie"), "searchKey": .string("R"), "rating": .integer(4),
      "lastWorn": .date(Date(timeIntervalSinceReferenceDate: .nan)),
    ])
    let file = Data(BinaryPropertyList.write(.array([entry])))
    let message = refusalMessage {
      _ = try SeedFile.parse(file, source: "x.plist", images: .embedded([:]))
    }
    #expect(message == "entry 0 (Red Bow Tie): lastWorn is not a date (NaN)")
  }

  /// Found by fuzzing (Fuzz/Corpus/seed-file/crash-noncharacter-name): a name holding U+FFFF
  /// seeded, and its XML export could not be read back ("PCDATA invalid Char value 65535"): XML
  /// cannot hold the character.
  @Test("names and keys with a noncharacter are invalid")
  func noncharacters() throws {
    var tie = BowTie(name: "Red\u{FFFF}", searchKey: "R", rating: 4)
    #expect(tie.validationFailure?.reason == "contains the noncharacter U+FFFF")
    tie.name = "Red"
    tie.searchKey = "R\u{FFFE}"
    #expect(tie.validationFailure?.attribute == "searchKey")
    let message = refusalMessage {
      _ = try parseJSONSeed(#"[{"name": "A\uffff", "searchKey": "A", "rating": 1}]"#)
    }
    #expect(message == "entry 0 (A\u{FFFF}): name contains the noncharacter U+FFFF")
  }
}
