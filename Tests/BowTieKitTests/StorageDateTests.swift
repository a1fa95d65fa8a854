import Foundation
import PropertyLists
import Testing

@testable import BowTieKit
@testable import BowTieModel

@Suite("Stored dates")
struct StorageDateTests {
  @Test("the stored form is read without the general parser, to the same date")
  func storedForm() throws {
    // 20,000 instants from year 0001 to 9999, a prime stride apart, with milliseconds.
    for step in 0..<20_000 {
      let seconds = -62_135_596_800 + Double(step) * 15_778_463.0 + Double(step % 1_000) / 1_000
      let text = StorageDate.format(Date(timeIntervalSince1970: seconds))
      let whole = String(text.prefix(19)) + "Z"
      for form in [text, whole] {
        let fast = try #require(StorageDate.parseStored(form), "\(form)")
        #expect(fast == ISO8601.parse(form), "\(form)")
      }
    }
  }

  @Test(
    "anything else is left to the general parser",
    arguments: [
      "2026-02-29T08:00:00.000Z", "2026-13-01T08:00:00.000Z", "2026-11-21T24:00:00.000Z",
      "2026-11-21T08:60:00Z", "2026-11-21 08:00:00.000Z", "2026-11-21T08:00:00.000+", "2026-11-21",
      "2026-11-21T08:00:00", "2026-11-21T08:00:00.00xZ", "+026-11-21T08:00:00Z",
    ])
  func otherForms(_ text: String) {
    #expect(StorageDate.parseStored(text) == nil)
  }
}
