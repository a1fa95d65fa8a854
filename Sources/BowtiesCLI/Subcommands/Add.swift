import ArgumentParser
import BowTieKit
import Foundation

extension Bowties {
  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Add a tie. Without --key, a free search key is chosen.")

    @Option(help: ArgumentHelp("The tie's name.", valueName: "name"))
    var name: String

    @OptionGroup var attributes: AttributeOptions

    @Flag(help: "Mark it as a favorite.")
    var favorite = false

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      let values = try attributes.values()
      var tie = BowTie(
        name: name, searchKey: attributes.searchKey ?? "", rating: values.rating ?? 0,
        isFavorite: favorite, url: values.url, price: values.price, currency: values.currency,
        tintColor: values.tintColor)
      tie.setPhoto(try attributes.checkedPhoto())
      let store = try storeOptions.open()
      try TieOutput(json: output.json).printDetails(try store.add(tie), store: store)
    }
  }
}
