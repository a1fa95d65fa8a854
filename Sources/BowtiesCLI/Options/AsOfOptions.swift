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
