import ArgumentParser
import BowTieKit
import Foundation

/// `--as-of`, for commands whose answer depends on the day: `report`, `suggest`.
struct AsOfOptions: ParsableArguments {
  @Option(
    name: .customLong("as-of"), parsing: .unconditional,
    help: ArgumentHelp(
      "The day to report on (2026-11-21, today, yesterday, -7d…). Default: now.",
      valueName: "date"))
  var asOf: String?

  func validate() throws {
    _ = try ExitStatus.validating(date)
  }

  /// The day, or now.
  func date() throws(BowTieError) -> Date {
    guard let asOf else { return Date() }
    return try DateParsing.parse(asOf).date
  }
}

/// Parses dates typed on the command line, with the message every command gives.
enum DateParsing {
  static func parse(_ text: String) throws(BowTieError) -> DateArgument {
    guard let date = DateArgument.parse(text) else { throw DateArgument.problem(text) }
    return date
  }

  /// The instant a date argument names (for a day, its start).
  static func date(_ text: String) throws(BowTieError) -> Date {
    try parse(text).date
  }
}
