import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

extension Bowties {
  struct Add: BowtiesCommand {
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

    func run(in context: CommandContext) throws {
      // The photo is read and checked before the store is opened (or created).
      var tie = BowTie(
        name: name, searchKey: attributes.searchKey?.key ?? "",
        rating: attributes.rating?.value ?? 0,
        isFavorite: favorite, url: attributes.url?.url, price: attributes.price?.amount,
        currency: attributes.price?.currency, tintColor: attributes.color)
      // Read and checked before the store is opened, or created.
      tie.setPhoto(try attributes.checkedPhoto())
      let store = try context.open(storeOptions)
      try TieOutput(json: output.json).printDetails(try store.add(tie))
    }
  }
}
