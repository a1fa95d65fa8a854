import Foundation
import GRDB
import Testing

@testable import BowTieKit
@testable import BowTieModel

@Suite("Managing ties")
struct InventoryTests {
  private func samples() throws -> (TemporaryFolder, BowTieStore) {
    let folder = TemporaryFolder()
    let store = try folder.openStore()
    try store.seed(SampleData.entries())
    return (folder, store)
  }

  @Test("colors as people type them")
  func colors() throws {
    #expect(try TieColor.parse("#EF3024").hex == "#EF3024")
    #expect(try TieColor.parse("#abc").hex == "#AABBCC")
    #expect(try TieColor.parse(" 1, 2 ,3 ").hex == "#010203")
    #expect(try TieColor.parse("Teal").hex == "#008080")
  }

  @Test(
    "colors that are refused",
    arguments: ["#12345", "#GGGGGG", "1,2", "1,2,256", "-1,0,0", "", "tealish", "#"])
  func badColors(text: String) {
    #expect(throws: BowTieError.self) { try TieColor.parse(text) }
  }

  @Test("prices are exact decimals with a dot")
  func prices() throws {
    #expect(try BowTie.parsePrice("19.99") == Decimal(string: "19.99"))
    #expect(try BowTie.parsePrice("0") == 0)
    // Zero has no decimal places, however many zeros it is written with; trailing zeros
    // are not decimal places either.
    #expect(try BowTie.parsePrice("0.00000") == 0)
    #expect(try BowTie.parsePrice("1.50000") == Decimal(string: "1.5"))
    // A refusal names the amount as typed, not as a 38-digit Decimal rounds it.
    let huge = String(repeating: "9", count: 45)
    #expect(throws: BowTieError.invalidValue("price \(huge) is above 1000000000")) {
      try BowTie.parsePrice(huge)
    }
    for bad in ["19,99", "-1", "1e3", "abc", "", "1.23456", "2000000000", "$5"] {
      #expect(throws: BowTieError.self, "\(bad)") { try BowTie.parsePrice(bad) }
    }
  }

  @Test("a price is stored as exact text and read back equal")
  func priceStorage() throws {
    let (folder, store) = try samples()
    let price = try #require(Decimal(string: "0.1"))
    let tie = try store.add(
      BowTie(name: "Dime", searchKey: "", rating: 1, price: price + price + price, currency: "USD"))
    #expect(tie.price == Decimal(string: "0.3"))
    let text = try DatabaseQueue(path: folder.storeURL.path).read { db in
      try String.fetchOne(
        db, sql: "SELECT price FROM bowTie WHERE id = ?", arguments: [tie.id.uuidString])
    }
    #expect(text == "0.3")
  }

  @Test("add picks a free key: the initial, the initials, then a number")
  func freeKeys() throws {
    let (_, store) = try samples()
    #expect(try store.add(BowTie(name: "Teal Bow Tie", searchKey: "")).searchKey == "T")
    #expect(try store.add(BowTie(name: "Tartan Bow", searchKey: "")).searchKey == "TB")
    #expect(try store.add(BowTie(name: "Tweed Bow", searchKey: "")).searchKey == "T2")
    #expect(try store.add(BowTie(name: "Red Stripe", searchKey: "")).searchKey == "RS")
    #expect(throws: BowTieError.self) { try store.add(BowTie(name: "Dup", searchKey: "r")) }
  }

  @Test("edit changes only what it is told, and can be undone exactly")
  func editAndUndo() throws {
    let (folder, store) = try samples()
    let before = try store.tie(matching: "R", loadingPhoto: true)
    var edit = TieEdit()
    edit.name = "Crimson Bow Tie"
    edit.rating = 2
    edit.price = Decimal(string: "24.5")
    edit.currency = "GBP"
    edit.photo = .replace(try PhotoIntake.check(photoBytes(count: 200_000, seed: 11)))
    let edited = try store.edit("R", edit)
    #expect(edited.name == "Crimson Bow Tie" && edited.rating == 2 && edited.searchKey == "R")
    #expect(edited.timesWorn == before.timesWorn && edited.tintColor == before.tintColor)
    #expect(folder.externalFiles().count == 1)
    let undone = try #require(try store.undo())
    #expect(undone.change.command == "edit")
    #expect(try store.tie(matching: "R", loadingPhoto: true) == before)
    #expect(folder.externalFiles().isEmpty, "the edited-in photo is gone with the undo")
  }

  @Test("timesWorn may not go below the recorded wears")
  func editTimesWorn() throws {
    let (_, store) = try samples()
    try store.wear("I")
    var edit = TieEdit()
    edit.timesWorn = 0
    #expect(throws: BowTieError.self) { try store.edit("I", edit) }
    edit.timesWorn = 5
    #expect(try store.edit("I", edit).timesWorn == 5)
    try store.wear("I")
    #expect(try store.tie(matching: "I").timesWorn == 6)
  }

  @Test("remove takes the wears and the photo file; undo brings all back")
  func removeAndUndo() throws {
    let (folder, store) = try samples()
    var edit = TieEdit()
    edit.photo = .replace(try PhotoIntake.check(photoBytes(count: 300_000, seed: 12)))
    try store.edit("B", edit)
    try store.wear("B", on: Date(timeIntervalSince1970: 1_795_248_000))
    let before = try store.tie(matching: "B", loadingPhoto: true)
    let removed = try store.remove(["B", "blue", "V"])
    #expect(removed.map(\.searchKey) == ["B", "V"])
    #expect(try store.count() == 5)
    #expect(folder.externalFiles().count == 1, "kept while an undo may need it")
    #expect(try store.undo()?.name == "Violet Bow Tie")
    #expect(try store.undo()?.change.command == "remove")
    #expect(try store.tie(matching: "B", loadingPhoto: true) == before)
    #expect(try store.history(of: "B").count == 2, "the seeded last wear and the new one")
  }

  @Test("remove of many ties keeps their sizes but not their photos; undo brings back the last")
  func removeMany() throws {
    let (_, store) = try samples()
    let photo = photoBytes(count: 20_000, seed: 14)
    try store.seed(
      (0..<2_000).map {
        SeedEntry(
          index: $0, tie: BowTie(name: "Many \($0)", searchKey: "M\($0)", photoData: photo),
          hasExplicitID: true)
      })
    let removed = try store.remove((0..<2_000).map { "M\($0)" } + ["M0", "m1999"])
    #expect(removed.count == 2_000 && removed.last?.searchKey == "M1999")
    #expect(
      removed.allSatisfy {
        $0.photoData == nil && $0.photoByteCount == 20_000 && $0.photoDescription?.format == .png
      })
    #expect(try store.count() == 7)
    // The undo log keeps the last 100 changes: the last 100 ties removed, newest first.
    #expect(try store.undo()?.name == "Many 1999")
    #expect(try store.tie(matching: "M1999", loadingPhoto: true).photoData == photo)
  }

  @Test("undoing an add removes the tie and its photo")
  func undoAdd() throws {
    let (folder, store) = try samples()
    try store.add(
      BowTie(name: "Big", searchKey: "BIG", photoData: photoBytes(count: 150_000, seed: 13)))
    #expect(folder.externalFiles().count == 1)
    let undone = try #require(try store.undo())
    #expect(undone.tie == nil && undone.name == "Big")
    #expect(throws: BowTieError.noSuchTie("BIG")) { try store.tie(matching: "BIG") }
    #expect(folder.externalFiles().isEmpty)
  }
}
