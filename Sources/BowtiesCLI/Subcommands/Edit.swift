import ArgumentParser
import BowTieKit
import Foundation

extension Bowties {
  struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit",
      abstract: "Change a tie's attributes; the others stay as they are.")

    @Argument(help: .tie)
    var tie: String

    @Option(help: ArgumentHelp("A new name.", valueName: "name"))
    var name: String?

    @OptionGroup var attributes: AttributeOptions

    @Flag(help: "Remove the photo.")
    var noPhoto = false

    @Option(
      help: ArgumentHelp(
        "How many times it was worn in all (not below the wears in its history).",
        valueName: "n"))
    var timesWorn: Int32?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("When it was last worn (2026-11-21, yesterday, -2d…).", valueName: "date"))
    var lastWorn: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
      if noPhoto && attributes.photo != nil {
        throw ValidationError("--photo and --no-photo cannot be used together")
      }
      if let timesWorn, timesWorn < 0 { throw ValidationError("--times-worn must be 0 or more") }
      if let lastWorn {
        _ = try ExitStatus.validating { () throws(BowTieError) in try DateParsing.parse(lastWorn) }
      }
    }

    func run() throws {
      let values = try attributes.values()
      var edit = TieEdit()
      edit.name = name
      edit.searchKey = attributes.searchKey
      edit.tintColor = values.tintColor
      edit.rating = values.rating
      edit.url = values.url
      edit.price = values.price
      edit.currency = values.currency
      edit.timesWorn = timesWorn
      edit.lastWorn = try lastWorn.map(DateParsing.date)
      if noPhoto {
        edit.photo = .remove
      } else if let photo = try attributes.checkedPhoto() {
        edit.photo = .replace(photo)
      }
      let store = try storeOptions.open()
      try TieOutput(json: output.json).printDetails(try store.edit(tie, edit), store: store)
    }
  }
}
