import ArgumentParser
import BowTieKit

extension Bowties {
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List ties, in the order R O Y G B I V, then by name, or as filtered and sorted.")

    @OptionGroup var filterOptions: FilterOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      let store = try storeOptions.open()
      let ties = try store.ties(try filterOptions.filter())
      try TieOutput(json: output.json).printList(ties, store: store)
    }
  }
}
