import BowTieModel
import Foundation

/// What ICU formats for people (dates, times, month names, prices), as bowties prints it:
/// every formatter's text for text, Markdown, CSV and HTML output passes through here.
///
/// ICU separates with no-break spaces: U+00A0 ("19,99 €", "$ 19.99" in the POSIX
/// locale), U+202F before "AM" and between thousands in French, U+2009 in some locales.
/// People and scripts compare what bowties prints with what they typed or what a README
/// shows, and nothing on a keyboard types those; so each is printed as a plain space.
public enum LocalizedText {
  /// `text` with every Unicode space separator (general category Zs: U+00A0, U+202F,
  /// U+2009…) made an ASCII space.
  public static func plainSpaces(_ text: String) -> String {
    guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      scalars.append(scalar.properties.generalCategory == .spaceSeparator ? " " : scalar)
    }
    return String(scalars)
  }

  /// A date (and time) as `formatter` writes it, with plain spaces.
  public static func string(from date: Date, _ formatter: DateFormatter) -> String {
    plainSpaces(formatter.string(from: date))
  }

  /// A price in its own currency, in `locale`'s number format: "$19.99", "19,99 €",
  /// "¥20". Never rounded: the currency's usual decimals (two for EUR, none for JPY) and
  /// as many more as the amount has (a stored price has at most
  /// ``BowTie/maximumPriceScale``), so 19.995 EUR is not shown as 20.
  public static func price(_ amount: Decimal, currency: String, locale: Locale) -> String {
    let minimum = minorUnits(of: currency)
    let style = Decimal.FormatStyle.Currency(code: currency, locale: locale)
      .precision(.fractionLength(minimum...max(minimum, BowTie.maximumPriceScale)))
    return plainSpaces(amount.formatted(style))
  }

  /// How many decimals `currency` is usually written with, as ICU's data has it (2 for
  /// USD, 0 for JPY, 3 for BHD). Foundation's NumberFormatter reports 2 for every
  /// currency on Linux, so it is read from a formatted 1.
  static func minorUnits(of currency: String) -> Int {
    let one = Decimal(1).formatted(
      .currency(code: currency).locale(Locale(identifier: "en_US_POSIX")))
    guard let dot = one.lastIndex(of: ".") else { return 0 }
    return one[one.index(after: dot)...].prefix(while: \.isASCII).prefix(while: \.isNumber).count
  }
}
