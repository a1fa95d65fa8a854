import ArgumentParser
import BowTieKit

extension Bowties {
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List every tie, in the order R O Y G B I V, then by name.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      let store = try storeOptions.open()
      try TieOutput(json: output.json).printList(try store.allTies(), store: store)
    }
  }
}
