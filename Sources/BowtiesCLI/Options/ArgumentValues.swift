import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

/// A value an option or argument takes, parsed once, as ArgumentParser reads the line, by
/// the model's own parser: a command's properties hold the typed value (a date, a rating,
/// a `TieColor`), never text to parse again in `validate()` or `run()`.
///
/// ArgumentParser keeps no reason when `init?(argument:)` fails, and the reason is what
/// names the range. ``ConversionFailure`` asks the option's type again, through
/// ``parse(_:option:)``, and `ExitStatus` reports what it throws, exit 65.
protocol ArgumentValue: ExpressibleByArgument, HoldsArgumentValue {
  /// The value `text` names, or the error that says why it names none. `option` is the
  /// option as typed (`--months`), nil for an argument, for the messages that name it.
  static func parse(_ text: String, option: String?) throws(BowTieError) -> Self
}

extension ArgumentValue {
  init?(argument: String) {
    guard let value = try? Self.parse(argument, option: nil) else { return nil }
    self = value
  }

  static var valueType: any ArgumentValue.Type { Self.self }
}

/// A date as typed (``DateArgument``): `2026-11-21`, `yesterday`, `-30d`… A command takes
/// its `date`, or its `end()` where a day given includes the whole day.
extension DateArgument: ArgumentValue {
  // Public, as the type is: the protocol extension's `init?(argument:)` is internal.
  public init?(argument: String) {
    guard let date = try? DateArgument.parse(argument) else { return nil }
    self = date
  }

  static func parse(_ text: String, option: String?) throws(BowTieError) -> DateArgument {
    try DateArgument.parse(text)
  }
}

/// A rating as typed: from 0 to 5, with a dot (4.5).
struct RatingArgument: ArgumentValue, Equatable {
  var value: Double

  static func parse(_ text: String, option: String?) throws(BowTieError) -> RatingArgument {
    RatingArgument(value: try BowTie.parseRating(text))
  }
}

/// A tie's colour as typed: `#RRGGBB`, `r,g,b`, a CSS name…
extension TieColor: ArgumentValue {
  public init?(argument: String) {
    guard let color = try? TieColor.parse(argument) else { return nil }
    self = color
  }

  static func parse(_ text: String, option: String?) throws(BowTieError) -> TieColor {
    try parse(text)
  }
}

/// A price as typed: an amount, then its currency unless it is `LC_MONETARY`'s.
struct PriceArgument: ArgumentValue, Equatable {
  var amount: Decimal
  var currency: String

  static func parse(_ text: String, option: String?) throws(BowTieError) -> PriceArgument {
    let (amount, currency) = try BowTie.parsePrice(text, defaultCurrency: Terminal.defaultCurrency)
    return PriceArgument(amount: amount, currency: currency)
  }
}

/// A tie's search key as typed: up to 16 characters, unique in the store.
struct SearchKeyArgument: ArgumentValue, Equatable {
  var key: String

  static func parse(_ text: String, option: String?) throws(BowTieError) -> SearchKeyArgument {
    SearchKeyArgument(key: try BowTie.parseSearchKey(text))
  }
}

/// Where to buy a tie, as typed: an absolute URL.
struct URLArgument: ArgumentValue, Equatable {
  var url: URL

  static func parse(_ text: String, option: String?) throws(BowTieError) -> URLArgument {
    URLArgument(url: try BowTie.parseURL(text))
  }
}

/// A whole number an option counts with (`--limit`, `--months`…), in its type's `range`.
protocol CountArgument: ArgumentValue, CustomStringConvertible {
  static var range: ClosedRange<Int> { get }
  var value: Int { get }
  init(value: Int)
}

extension CountArgument {
  /// ASCII digits making a number in `range`. Any other text, a sign included, is refused
  /// with a message that names the range.
  static func parse(_ text: String, option: String?) throws(BowTieError) -> Self {
    guard PlainDecimal.isDigits(text), let value = Int(text), range.contains(value) else {
      throw BowTieError.invalidValue(
        "\(option ?? "the value") must be \(describe(range)), not '\(text.excerpt)'")
    }
    return Self(value: value)
  }

  /// As ArgumentParser shows a default: the number.
  var description: String { String(value) }

  /// "a whole number from 1 to 120"; "a whole number, 0 or more" for a range without an end.
  static func describe(_ range: ClosedRange<Int>) -> String {
    range.upperBound == .max
      ? "a whole number, \(range.lowerBound) or more"
      : "a whole number from \(range.lowerBound) to \(range.upperBound)"
  }
}

/// How many ties `list` shows at most: 0 or more.
struct ListLimit: CountArgument {
  static let range = 0...Int.max
  var value: Int
}

/// How many ties each of `report`'s lists shows, or how many suggestions: 1 or more.
struct PositiveCount: CountArgument {
  static let range = 1...Int.max
  var value: Int
}

/// How many months of wears `report` charts: up to ten years.
struct ChartMonths: CountArgument {
  static let range = 1...120
  var value: Int
}

/// After how many days unworn `report` calls a tie stale. Dates more than 100,000 days
/// back (about 270 years) are not worth a calendar's arithmetic, which traps beyond its
/// range.
struct StaleDays: CountArgument {
  static let range = 1...100_000
  var value: Int
}

/// How many times a tie was worn in all, as the store's 32-bit column holds it.
struct TimesWornArgument: CountArgument {
  static let range = 0...Int(Int32.max)
  var value: Int
}

// MARK: - Finding a refused value's type

/// What holds an ``ArgumentValue``: the value's type itself, an optional or an array of
/// it, as a command's property declares it, and the `@Option` or `@Argument` that declares
/// it, which is what reflection finds in a command.
protocol HoldsArgumentValue {
  static var valueType: any ArgumentValue.Type { get }
}

extension Optional: HoldsArgumentValue where Wrapped: ArgumentValue {
  static var valueType: any ArgumentValue.Type { Wrapped.self }
}

extension Array: HoldsArgumentValue where Element: ArgumentValue {
  static var valueType: any ArgumentValue.Type { Element.self }
}

extension Option: HoldsArgumentValue where Value: HoldsArgumentValue {
  static var valueType: any ArgumentValue.Type { Value.valueType }
}

extension Argument: HoldsArgumentValue where Value: HoldsArgumentValue {
  static var valueType: any ArgumentValue.Type { Value.valueType }
}

/// An `@OptionGroup`, found by reflection in a command.
protocol OptionGroupProperty {
  static var groupType: any ParsableArguments.Type { get }
}

extension OptionGroup: OptionGroupProperty {
  static var groupType: any ParsableArguments.Type { Value.self }
}

extension ParsableArguments {
  /// The type of the value the property at `path` takes (`["attributes", "rating"]`),
  /// found in a fresh instance's property wrappers; nil for a value of another type.
  static func argumentValueType(at path: [String]) -> (any ArgumentValue.Type)? {
    guard let name = path.first else { return nil }
    let property = Mirror(reflecting: Self()).children.first { $0.label == "_" + name }?.value
    guard let property else { return nil }
    if path.count == 1 {
      return (type(of: property) as? any HoldsArgumentValue.Type)?.valueType
    }
    let group = (type(of: property) as? any OptionGroupProperty.Type)?.groupType
    return group?.argumentValueType(at: Array(path.dropFirst()))
  }
}

// MARK: - Paths

extension ValidationError {
  /// Refuses an empty path, which the file system takes as the current folder: `seed
  /// "$FILE"` with `FILE` unset would read whatever the folder holds, and `export --output
  /// "$DIR" --force` write into it. As `--store ""` is refused.
  static func checkPath(_ path: String?, named name: String) throws {
    if path?.isEmpty == true { throw ValidationError("\(name) needs a path") }
  }
}
