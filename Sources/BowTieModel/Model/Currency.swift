import Foundation

/// ISO 4217 currency codes, as a tie's price carries them: three capital letters, "EUR".
///
/// A price means nothing without its currency: 20 is twenty euros or twenty yen. The store
/// keeps the code beside the amount and shows the amount in that currency, whatever the
/// locale; the locale chooses only the number format, and the currency of a price typed
/// without one (``Currency/defaultCode(localeIdentifier:)``).
public enum Currency {
  /// The currency of prices that came without one: those stored before prices had a
  /// currency (schema v7 and p2 take them as this), a seed or an undo entry written
  /// before, and a price typed under a locale that names no currency (C, POSIX, or a
  /// language without a country). US dollars: what those prices showed as in the POSIX
  /// locale, where scripts and cron jobs run.
  public static let unlabelled = "USD"

  /// Why `code` cannot be a stored currency code, or nil: three letters A to Z. The
  /// databases check the same (a `CHECK` in each engine).
  public static func shapeProblem(_ code: String) -> String? {
    let utf8 = code.utf8
    if utf8.count == 3, utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
      return nil
    }
    return
      "'\(code.excerpt)' is not an ISO 4217 currency code: use three capital letters such as EUR"
  }

  /// The codes ICU knows, current and historical (DEM, FRF), so a tie bought before the
  /// euro keeps its price as paid. Read once, when a price is typed or seeded: building it
  /// is not work for every save.
  static let knownCodes = Set(Locale.Currency.isoCurrencies.map(\.identifier))

  /// Why `code` is not a currency to store, or nil: its shape, then whether ICU knows it.
  public static func problem(_ code: String) -> String? {
    if let problem = shapeProblem(code) { return problem }
    return knownCodes.contains(code) ? nil : "'\(code)' is not a known ISO 4217 currency code"
  }

  /// Checks a code as typed or as a seed file gives it (``problem(_:)``).
  public static func parse(_ text: String) throws(BowTieError) -> String {
    if let problem = problem(text) { throw .invalidValue("currency \(problem)") }
    return text
  }

  /// The currency of a price typed without one: the locale's (`de_DE` → EUR), or
  /// ``unlabelled`` for the POSIX locale (`localeIdentifier` nil) and for a locale that
  /// names no country, and so no currency.
  public static func defaultCode(localeIdentifier: String?) -> String {
    guard let localeIdentifier else { return unlabelled }
    let code = Locale(identifier: localeIdentifier).currency?.identifier
    guard let code, shapeProblem(code) == nil, code != "XXX" else { return unlabelled }
    return code
  }
}

extension BowTie {
  /// Parses a price as typed on the command line: an amount (``parsePrice(_:)``),
  /// optionally followed by spaces and its currency's code: `19.99`, `"19.99 EUR"`.
  /// Without a code, the price is in `defaultCurrency`.
  public static func parsePrice(_ text: String, defaultCurrency: String) throws(BowTieError)
    -> (amount: Decimal, currency: String)
  {
    let parts = text.trimmingSpaces().split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard parts.count <= 2, PlainDecimal.isPlain(parts.first ?? "") else {
      let hint = text.contains(",") ? " (write decimals with a dot)" : ""
      throw .invalidValue(
        "'\(text.excerpt)' is not a price: use an amount, then its currency if it is not "
          + "\(defaultCurrency): 19.99 or \"19.99 EUR\"\(hint)")
    }
    let amount = try parsePrice(String(parts[0]))
    guard parts.count == 2 else { return (amount, defaultCurrency) }
    return (amount, try Currency.parse(String(parts[1])))
  }
}
