import ArgumentParser
import BowTieKit
import Foundation

extension Bowties {
  struct Wear: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "wear",
      abstract: "Record that you wore a tie: one more wear, last worn now (or --date).")

    @Argument(help: .tie)
    var tie: String

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "When it was worn: 2026-11-21T08:00:00Z, 2026-11-21 (midnight), yesterday, -2d… "
          + "Default: now.",
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
      return try DateParsing.parse(date).date
    }
  }
}
