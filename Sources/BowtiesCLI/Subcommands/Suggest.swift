import ArgumentParser
import BowTieKit
import BowTieModel
import BowTieReports
import Foundation

extension Bowties {
  struct Suggest: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "suggest",
      abstract: "Which tie to wear next, and why.",
      discussion: """
        Favors ties not worn for longest, weighted by rating and favorite: each scores \
        (days since worn + 1) × (1 + rating) × 1.5 for a favorite, a never-worn tie \
        counting as unworn for \(Suggester.neverWornDays) days. Never the tie worn most \
        recently. The same store and --as-of always give the same answer.
        """)

    // Taken even when it starts with "-", so that "-1" gets a clear refusal.
    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("How many suggestions.", valueName: "n"))
    var count = PositiveCount(value: 1)

    @OptionGroup var asOfOptions: AsOfOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run(store: BowTieStore) throws {
      let suggestions = try Suggester.suggestions(
        from: store, asOf: asOfOptions.date, count: count.value)
      if output.json {
        try TieOutput(json: true).printJSON(suggestions)
        return
      }
      if suggestions.isEmpty {
        Terminal.note("nothing to suggest: \(Suggester.noSuggestion(tieCount: try store.count()))")
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
