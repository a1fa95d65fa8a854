import Foundation
import Testing

@Suite("prices with a currency, and output without no-break spaces")
struct CurrencyCommandTests {
  private func priceLine(_ bowties: BowtiesSandbox, _ tie: String, _ environment: [String: String])
    throws -> String?
  {
    try bowties("show", tie, environment: environment).stdout.split(separator: "\n")
      .first { $0.hasPrefix("  Price") }.map { String($0.dropFirst("  Price       ".count)) }
  }

  @Test("a price is shown in its own currency, in LC_MONETARY's number format")
  func display() throws {
    let bowties = BowtiesSandbox()
    #expect(try bowties("edit", "R", "--price", "19.99 EUR").status == 0)
    #expect(try bowties("edit", "O", "--price", "2500 JPY").status == 0)
    #expect(try bowties("edit", "Y", "--price", "20 JPY").status == 0)
    #expect(try bowties("edit", "G", "--price", "19.995 EUR").status == 0)
    let cases: [([String: String], [String])] = [
      // The C locale writes no thousands separator, as POSIX's C locale has none.
      ([:], ["€ 19.99", "¥ 2500", "¥ 20", "€ 19.995"]),
      (["LC_MONETARY": "de_DE.UTF-8"], ["19,99 €", "2.500 ¥", "20 ¥", "19,995 €"]),
      (["LC_MONETARY": "en_US.UTF-8"], ["€19.99", "¥2,500", "¥20", "€19.995"]),
      (["LC_MONETARY": "ja_JP.UTF-8"], ["€19.99", "¥2,500", "¥20", "€19.995"]),
      // LC_ALL wins over LC_MONETARY, LC_MONETARY over LANG; LC_TIME has no say.
      (
        ["LC_ALL": "de_DE.UTF-8", "LC_MONETARY": "en_US.UTF-8"],
        ["19,99 €", "2.500 ¥", "20 ¥", "19,995 €"]
      ),
      (
        ["LANG": "de_DE.UTF-8", "LC_MONETARY": "en_US.UTF-8"],
        ["€19.99", "¥2,500", "¥20", "€19.995"]
      ),
      (["LC_TIME": "de_DE.UTF-8"], ["€ 19.99", "¥ 2500", "¥ 20", "€ 19.995"]),
    ]
    for (environment, shown) in cases {
      let lines = try ["R", "O", "Y", "G"].map { try priceLine(bowties, $0, environment) }
      #expect(lines == shown, "\(environment)")
    }
  }

  @Test("a price without a currency takes LC_MONETARY's, US dollars in the C locale")
  func defaults() throws {
    let bowties = BowtiesSandbox()
    let cases: [([String: String], String)] = [
      ([:], "USD"), (["LC_MONETARY": "de_DE.UTF-8"], "EUR"),
      (["LC_MONETARY": "ja_JP.UTF-8"], "JPY"),
      (["LANG": "en_GB.UTF-8"], "GBP"),
      (["LC_ALL": "de_DE.UTF-8", "LC_MONETARY": "ja_JP.UTF-8"], "EUR"),
      (["LC_MONETARY": "POSIX"], "USD"),
    ]
    for (environment, currency) in cases {
      let result = try bowties("edit", "R", "--price", "20", "--json", environment: environment)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("\"currency\" : \"\(currency)\""), "\(environment)")
      #expect(result.stdout.contains("\"price\" : \"20\""))
    }
    let added = try bowties(
      "add", "--name", "Tartan", "--price", "5 GBP", "--json",
      environment: ["LC_MONETARY": "de_DE.UTF-8"])
    #expect(added.stdout.contains("\"currency\" : \"GBP\""), "\(added.stderr)")
    #expect(try bowties("show", "I", "--json").stdout.contains("\"currency\" : null"))
  }

  @Test(
    "a bad currency is refused like any bad value, and nothing changes",
    arguments: ["19.99 eur", "19.99 EU", "19.99 EURO", "19.99 ZZZ", "EUR 19.99", "19.99 EUR 2"])
  func refusals(price: String) throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    for arguments in [["add", "--name", "X", "--price", price], ["edit", "R", "--price", price]] {
      let result = try bowties.run(
        BowtiesSandbox.binary.path, arguments + ["--store", bowties.store])
      #expect(result.status == 65, "\(arguments): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1)
    }
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie WHERE price IS NOT NULL") == "0\n")
  }

  @Test("undo of a price's edit puts its currency back too")
  func undo() throws {
    let bowties = BowtiesSandbox()
    try bowties("edit", "R", "--price", "19.99 EUR")
    try bowties("edit", "R", "--price", "2500 JPY")
    #expect(try priceLine(bowties, "R", [:]) == "¥ 2500")
    #expect(try bowties("undo").status == 0)
    #expect(try priceLine(bowties, "R", [:]) == "€ 19.99")
    #expect(
      try bowties.sqlite("SELECT price, currency FROM bowTie WHERE searchKey = 'R'")
        == "19.99|EUR\n"
    )
  }

  @Test("an older store's prices are migrated as US dollars")
  func olderStore() throws {
    let bowties = BowtiesSandbox()
    try bowties("edit", "R", "--price", "19.99 EUR")
    // The store as bowties left it before prices had a currency.
    try bowties.sqlite(
      """
      DROP TRIGGER bowTie_priceCurrency_insert;
      DROP TRIGGER bowTie_priceCurrency_update;
      ALTER TABLE bowTie DROP COLUMN currency;
      DELETE FROM grdb_migrations WHERE identifier = 'v7: price currency';
      """)
    #expect(try priceLine(bowties, "R", [:]) == "$ 19.99")
    #expect(try bowties.sqlite("SELECT currency FROM bowTie WHERE price IS NOT NULL") == "USD\n")
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie WHERE currency IS NOT NULL") == "1\n")
    #expect(try bowties("edit", "R", "--price", "19.99 EUR").status == 0)
    #expect(try priceLine(bowties, "R", [:]) == "€ 19.99")
  }

  @Test(
    "text, Markdown, CSV and HTML output has no U+00A0 or U+202F, in any locale",
    arguments: ["C", "en_US.UTF-8", "fr_FR.UTF-8", "de_DE.UTF-8", "ru_RU.UTF-8", "ja_JP.UTF-8"])
  func plainSpaces(locale: String) throws {
    let bowties = BowtiesSandbox()
    try bowties("edit", "R", "--price", "1234567.5 EUR")
    try bowties("edit", "O", "--price", "19.99 USD")
    try bowties("wear", "R", "--date", "2026-11-20T09:00:00Z")
    let commands: [[String]] = [
      ["show", "R"], ["show", "O"], ["list"], ["history"],
      ["report", "--as-of", "2026-11-21"],
      ["report", "--as-of", "2026-11-21", "--format", "markdown"],
      ["report", "--as-of", "2026-11-21", "--format", "html"],
      ["report", "--as-of", "2026-11-21", "--format", "csv"],
      ["export", "--format", "csv"],
    ]
    for command in commands {
      let result = try bowties.run(
        BowtiesSandbox.binary.path, command + ["--store", bowties.store],
        environment: ["LC_ALL": locale])
      #expect(result.status == 0, "\(command): \(result.stderr)")
      for scalar: Unicode.Scalar in ["\u{00A0}", "\u{202F}"] {
        #expect(
          !result.stdout.unicodeScalars.contains(scalar),
          "\(command) under \(locale) printed U+\(String(scalar.value, radix: 16, uppercase: true))"
        )
      }
    }
  }
}
