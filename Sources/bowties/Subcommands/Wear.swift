import ArgumentParser
import BowTieKit
import Foundation

extension Bowties {
  struct Wear: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Record that you wore a tie: one more wear, last worn now (or --date).")

    @Argument(help: .tie)
    var tie: String

    @Option(
      help: ArgumentHelp(
        "When it was worn: 2026-11-21 or 2026-11-21T08:00:00Z (ISO 8601). Default: now.",
        valueName: "date"))
    var date: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
      _ = try ExitStatus.validating(wornDate)
    }

    func run() throws {
      let store = try storeOptions.open()
      let worn = try store.wear(tie, on: try wornDate())
      try TieOutput(json: output.json).printDetails(worn, store: store)
    }

    private func wornDate() throws(BowTieError) -> Date {
      guard let date else { return Date() }
      guard let parsed = ISO8601.parse(date) else {
        throw .invalidValue(
          "'\(date)' is not an ISO 8601 date (2026-11-21 or 2026-11-21T08:00:00Z)")
      }
      return parsed
    }
  }
}
