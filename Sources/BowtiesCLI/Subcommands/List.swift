import ArgumentParser
import BowTieKit
import BowTieModel

extension Bowties {
  struct List: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List ties, in the order R O Y G B I V, then by name, or as filtered and sorted.")

    @OptionGroup var filterOptions: FilterOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run(store: BowTieStore) throws {
      let filter = filterOptions.filter
      if output.json {
        try TieOutput(json: true).streamJSON(from: store, filter)
      } else {
        try TieOutput(json: false).printList(from: store, filter)
      }
    }
  }
}
