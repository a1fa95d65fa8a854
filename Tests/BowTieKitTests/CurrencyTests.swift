import Foundation
import GRDB
import Testing

@testable import BowTieKit
@testable import BowTieModel

@Suite("Prices and their currencies")
struct CurrencyTests {
  @Test("codes are three capital letters that ICU knows, historical ones included")
  func codes() throws {
    for code in ["EUR", "USD", "JPY", "GBP", "CHF", "DEM"] {
      #expect(Currency.problem(code) == nil, "\(code)")
    }
    for bad in ["eur", "EU", "EURO", "E1R", "ÉUR", "", " EUR"] {
      #expect(Currency.shapeProblem(bad) != nil, "\(bad)")
      #expect(throws: BowTieError.self, "\(bad)") { try Currency.parse(bad) }
    }
    #expect(Currency.shapeProblem("ZZZ") == nil)
    #expect(throws: BowTieError.self) { try Currency.parse("ZZZ") }
  }

  @Test("a price typed without a currency takes the locale's, else US dollars")
  func defaults() throws {
    #expect(Currency.defaultCode(localeIdentifier: "de_DE") == "EUR")
    #expect(Currency.defaultCode(localeIdentifier: "ja_JP") == "JPY")
    #expect(Currency.defaultCode(localeIdentifier: "en_GB") == "GBP")
    #expect(Currency.defaultCode(localeIdentifier: "en_US") == "USD")
    // The POSIX locale, and a language without a country, name no currency.
    #expect(Currency.defaultCode(localeIdentifier: nil) == "USD")
    #expect(Currency.defaultCode(localeIdentifier: "fr") == "USD")
    let typed = try BowTie.parsePrice("19.99 EUR", defaultCurrency: "JPY")
    #expect(typed.amount == Decimal(string: "19.99") && typed.currency == "EUR")
    let bare = try BowTie.parsePrice(" 20 ", defaultCurrency: "JPY")
    #expect(bare.amount == 20 && bare.currency == "JPY")
    for bad in ["19.99 eur", "19.99 ZZZ", "EUR 19.99", "19.99 EUR x", "19,99 EUR"] {
      #expect(throws: BowTieError.self, "\(bad)") {
        try BowTie.parsePrice(bad, defaultCurrency: "USD")
      }
    }
  }

  @Test(
    "a price shows in its own currency, in the locale's number format, never rounded",
    arguments: [
      ("de_DE", "EUR", "19.99", "19,99 €"),
      ("de_DE", "EUR", "5", "5,00 €"),
      ("de_DE", "EUR", "19.995", "19,995 €"),
      ("de_DE", "JPY", "20", "20 ¥"),
      ("de_DE", "USD", "1234.5", "1.234,50 $"),
      ("en_US", "USD", "19.99", "$19.99"),
      ("en_US", "EUR", "19.99", "€19.99"),
      ("en_US", "JPY", "20.5", "¥20.5"),
      ("en_US", "BHD", "1.5", "BHD 1.500"),
      ("ja_JP", "JPY", "20", "¥20"),
      ("ja_JP", "JPY", "2500", "¥2,500"),
      ("ja_JP", "EUR", "19.99", "€19.99"),
      ("en_US_POSIX", "USD", "19.99", "$ 19.99"),
      ("fr_FR", "EUR", "1234567.5", "1 234 567,50 €"),
    ])
  func display(locale: String, currency: String, amount: String, shown: String) throws {
    let price = try #require(Decimal(string: amount))
    #expect(
      LocalizedText.price(price, currency: currency, locale: Locale(identifier: locale)) == shown)
  }

  @Test("formatted text has plain spaces where ICU puts no-break ones")
  func plainSpaces() throws {
    #expect(LocalizedText.plainSpaces("19,99\u{A0}€") == "19,99 €")
    #expect(LocalizedText.plainSpaces("9:41\u{202F}AM") == "9:41 AM")
    #expect(LocalizedText.plainSpaces("1\u{2009}234") == "1 234")
    #expect(LocalizedText.plainSpaces("Nov 24, 2026") == "Nov 24, 2026")
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateStyle = .medium
    formatter.timeStyle = .short
    let when = Date(timeIntervalSince1970: 1_764_000_000)
    // What ICU writes, and what bowties prints.
    #expect(formatter.string(from: when).unicodeScalars.contains("\u{202F}"))
    #expect(LocalizedText.string(from: when, formatter) == "Nov 24, 2025 at 4:00 PM")
  }

  @Test("--json has the currency beside the price; JSON without it still decodes")
  func json() throws {
    let tie = BowTie(name: "Teal", searchKey: "T", price: Decimal(string: "19.99"), currency: "EUR")
    let data = try TieJSON.makeEncoder().encode(TieJSON(tie))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["price"] as? String == "19.99" && object["currency"] as? String == "EUR")
    let decoded = try JSONDecoder().decode(TieJSON.self, from: data)
    #expect(decoded.price == "19.99" && decoded.currency == "EUR")
    // What bowties printed before prices had a currency.
    var older = object
    older["currency"] = nil
    let old = try JSONDecoder().decode(
      TieJSON.self, from: JSONSerialization.data(withJSONObject: older))
    #expect(old.price == "19.99" && old.currency == nil)
  }

  @Test("a price is stored with its currency; the database refuses one without")
  func storage() throws {
    let folder = TemporaryFolder()
    let store = try folder.openStore()
    var tie = try store.add(
      BowTie(name: "Yen", searchKey: "Y", price: 2500, currency: "JPY"))
    #expect(tie.price == 2500 && tie.currency == "JPY")
    tie.currency = nil
    #expect(tie.validationFailure?.attribute == "currency")
    #expect(throws: BowTieError.self) {
      try store.add(BowTie(name: "Bare", searchKey: "B", price: 5))
    }
    #expect(throws: BowTieError.self) {
      try store.add(BowTie(name: "Lower", searchKey: "L", price: 5, currency: "eur"))
    }
    // The invariants hold for rows other tools write, too.
    let queue = try DatabaseQueue(path: folder.storeURL.path)
    for sql in [
      "UPDATE bowTie SET currency = NULL", "UPDATE bowTie SET currency = 'jpy'",
      "UPDATE bowTie SET currency = 'JPYX'", "UPDATE bowTie SET price = NULL",
      """
      INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating, price)
        VALUES ('0B0771E5-0000-4000-8000-0000000000AA', 'X', 'x', 'X', 'x', 1, '5')
      """,
    ] {
      #expect(throws: DatabaseError.self, "\(sql)") { try queue.write { try $0.execute(sql: sql) } }
    }
    try queue.write { try $0.execute(sql: "UPDATE bowTie SET price = NULL, currency = NULL") }
  }

  @Test("an edit of the price changes its currency, and its undo puts both back")
  func editAndUndo() throws {
    let store = try TemporaryFolder().openStore()
    try store.add(
      BowTie(name: "Teal", searchKey: "T", price: Decimal(string: "19.99"), currency: "EUR"))
    var edit = TieEdit()
    edit.price = 2500
    edit.currency = "JPY"
    let edited = try store.edit("T", edit)
    #expect(edited.price == 2500 && edited.currency == "JPY")
    _ = try store.undo()
    let undone = try store.tie(matching: "T")
    #expect(undone.price == Decimal(string: "19.99") && undone.currency == "EUR")
  }

  @Test("an older store's prices become US dollars, in the store and in its undo log")
  func migration() throws {
    let folder = TemporaryFolder()
    ColorAttributeTransformer.register()
    let queue = try DatabaseQueue(path: folder.storeURL.path)
    try Schema.migrator.migrate(queue, upTo: "v6: undo by user")
    // P has a price; N has none; P's undo entry is an edit from before currencies, whose
    // snapshot has a price and no currency column.
    let snapshot = """
      {"edit":{"previous":{"wears":[],"columns":{
        "id":{"text":{"_0":"0B0771E5-0000-4000-8000-000000000001"}},
        "name":{"text":{"_0":"Priced"}},"canonicalName":{"text":{"_0":"priced"}},
        "searchKey":{"text":{"_0":"P"}},"canonicalKey":{"text":{"_0":"p"}},
        "rating":{"real":{"_0":3}},"timesWorn":{"integer":{"_0":0}},
        "wearsBeforeHistory":{"integer":{"_0":0}},"price":{"text":{"_0":"12.5"}}}}}}
      """
    try queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating, price)
            VALUES ('0B0771E5-0000-4000-8000-000000000001', 'Priced', 'priced', 'P', 'p', 3,
              '19.99'),
            ('0B0771E5-0000-4000-8000-000000000002', 'None', 'none', 'N', 'n', 3, NULL);
          INSERT INTO undoEntry (madeAt, madeBy, tieId, change) VALUES
            ('2026-11-20T09:00:00.000Z', '', '0B0771E5-0000-4000-8000-000000000001', ?);
          """, arguments: [snapshot])
    }
    try queue.close()
    let store = try folder.openStore()
    let priced = try store.tie(matching: "P")
    #expect(priced.price == Decimal(string: "19.99") && priced.currency == "USD")
    let none = try store.tie(matching: "N")
    #expect(none.price == nil && none.currency == nil)
    let undone = try #require(try store.undo())
    #expect(undone.change.command == "edit")
    let restored = try store.tie(matching: "P")
    #expect(restored.price == Decimal(string: "12.5") && restored.currency == "USD")
  }
}
