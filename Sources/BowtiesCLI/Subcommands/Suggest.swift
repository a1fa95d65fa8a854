import ArgumentParser
import BowTieKit
import BowTieReports
import Foundation

extension Bowties {
  struct Suggest: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "suggest",
      abstract: "Which tie to wear next, and why.",
      discussion: """
        Favors ties not worn for longest, weighted by rating and favorite: each scores \
        (days since worn + 1) × (1 + rating) × 1.5 for a favorite, a never-worn tie \
        counting as unworn for \(Suggester.neverWornDays) days. Never the tie worn most \
        recently. The same store and --as-of always give the same answer.
        """)

    @Option(help: ArgumentHelp("How many suggestions.", valueName: "n"))
    var count = 1

    @OptionGroup var asOfOptions: AsOfOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
      guard count >= 1 else { throw ValidationError("--count must be 1 or more") }
    }

    func run() throws {
      let store = try storeOptions.open()
      let suggestions = try Suggester.suggestions(
        from: store, asOf: try asOfOptions.date(), count: count)
      if output.json {
        try TieOutput(json: true).printJSON(suggestions)
        return
      }
      try StandardOutput.write { output in
        for suggestion in suggestions {
          output.printLine(
            "\(suggestion.tie.name) (\(suggestion.tie.searchKey)): \(suggestion.reason)")
        }
      }
    }
  }
}
