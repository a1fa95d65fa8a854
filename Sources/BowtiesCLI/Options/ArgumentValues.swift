import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

// The values options take, each parsed once, as ArgumentParser reads the line, by the
// model's own parse function: a command's properties hold the typed value (a `Date`, a
// rating, a `TieColor`), never text to parse again in `validate()` or `run()`.
//
// They go through `@Option(transform:)` rather than `ExpressibleByArgument`: ArgumentParser
// keeps the error a transform throws, and a failing `init?(argument:)` says nothing, while
// the error is what names the range. `ExitStatus` reports that error, exit 65.

/// A date as typed (``DateArgument``): `2026-11-21`, `yesterday`, `-30d`…
extension DateArgument {
  static func parse(argument text: String) throws -> DateArgument {
    guard let date = DateArgument.parse(text) else { throw DateArgument.problem(text) }
    return date
  }

  /// The instant a date argument names (for a day, its start).
  static func instant(argument text: String) throws -> Date {
    try parse(argument: text).date
  }

  /// The end of what a date argument names: the next midnight for a day.
  static func end(argument text: String) throws -> Date {
    try parse(argument: text).end()
  }
}

/// A whole number an option counts with: `--limit`, `--months`, `--count`…
enum Count {
  /// The parser of `option`'s value: ASCII digits making a number in `range`. Any other
  /// text, a sign included, is refused with a message that names the range.
  static func parser(_ option: String, _ range: ClosedRange<Int>)
    -> @Sendable (String) throws
    -> Int
  {
    { text in
      guard PlainDecimal.isDigits(text), let value = Int(text), range.contains(value) else {
        throw BowTieError.invalidValue("\(option) must be \(describe(range)), not '\(text)'")
      }
      return value
    }
  }

  /// "a whole number from 1 to 120"; "a whole number, 0 or more" for a range without an end.
  static func describe(_ range: ClosedRange<Int>) -> String {
    range.upperBound == .max
      ? "a whole number, \(range.lowerBound) or more"
      : "a whole number from \(range.lowerBound) to \(range.upperBound)"
  }
}

/// A price as typed: an amount, then its currency unless it is `LC_MONETARY`'s.
struct PriceArgument: Sendable, Equatable {
  var amount: Decimal
  var currency: String

  static func parse(argument text: String) throws -> PriceArgument {
    let (amount, currency) = try BowTie.parsePrice(text, defaultCurrency: Terminal.defaultCurrency)
    return PriceArgument(amount: amount, currency: currency)
  }
}

extension ArgumentHelp {
  /// Help for an option whose default ArgumentParser cannot show, because its value goes
  /// through a transform: the abstract followed by the default, as ArgumentParser writes it.
  static func defaulting(
    _ abstract: String, to value: some CustomStringConvertible, valueName: String
  )
    -> ArgumentHelp
  {
    ArgumentHelp("\(abstract) (default: \(value))", valueName: valueName)
  }
}
