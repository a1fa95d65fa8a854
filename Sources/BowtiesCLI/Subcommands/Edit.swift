import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

extension Bowties {
  struct Edit: BowtiesCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit",
      abstract: "Change a tie's attributes; the others stay as they are.")

    @Argument(help: .tie, completion: .custom(TieCompletion.keys))
    var tie: String

    @Option(help: ArgumentHelp("A new name.", valueName: "name"))
    var name: String?

    @OptionGroup var attributes: AttributeOptions

    @Flag(help: "Remove the photo.")
    var noPhoto = false

    // Values are taken even when they start with "-", so "-1" gets a clear refusal.
    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "How many times it was worn in all (not below the wears in its history).",
        valueName: "n"))
    var timesWorn: TimesWornArgument?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("When it was last worn (2026-11-21, yesterday, -2d…).", valueName: "date"))
    var lastWorn: WornDate?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    /// The edit the options ask for, but for a new photo, which `run` reads and checks.
    private var requested: TieEdit {
      var edit = TieEdit()
      edit.name = name
      edit.searchKey = attributes.searchKey?.key
      edit.tintColor = attributes.color
      edit.rating = attributes.rating?.value
      edit.url = attributes.url?.url
      edit.price = attributes.price?.amount
      edit.currency = attributes.price?.currency
      edit.timesWorn = timesWorn.map { Int32($0.value) }
      edit.lastWorn = lastWorn?.date
      if noPhoto { edit.photo = .remove }
      return edit
    }

    func validate() throws {
      if noPhoto && attributes.photo != nil {
        throw ValidationError("--photo and --no-photo cannot be used together")
      }
      if requested.namesNothing && attributes.photo == nil {
        throw ValidationError(
          "nothing to change: give --name, --key, --rating, --color, --url, --price, "
            + "--photo, --no-photo, --times-worn or --last-worn")
      }
    }

    func run(in context: CommandContext) throws {
      var edit = requested
      // Read and checked before the store is opened, or created.
      if let photo = try attributes.checkedPhoto() {
        edit.photo = .replace(photo)
      }
      let store = try context.open(storeOptions)
      try TieOutput(json: output.json).printDetails(try store.edit(tie, edit))
    }
  }
}
