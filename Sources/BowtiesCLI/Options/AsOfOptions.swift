import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

/// `--as-of`, for commands whose answer depends on the day: `report`, `suggest`.
struct AsOfOptions: ParsableArguments {
  @Option(
    name: .customLong("as-of"), parsing: .unconditional,
    help: ArgumentHelp(
      "As of this day (2026-11-21, today, yesterday, -7d…). Default: now.",
      valueName: "date"))
  var asOf: DateArgument?

  /// The day, or now.
  var date: Date { asOf?.date ?? Date() }
}
