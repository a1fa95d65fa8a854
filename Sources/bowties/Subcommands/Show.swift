import ArgumentParser
import BowTieKit

extension Bowties {
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show one tie: rating, wears, favorite, link and color.")

    @Argument(help: .tie)
    var tie: String

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      let store = try storeOptions.open()
      try TieOutput(json: output.json).printDetails(try store.tie(matching: tie), store: store)
    }
  }
}
