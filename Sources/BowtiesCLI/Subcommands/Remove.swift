import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

extension Bowties {
  struct Remove: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove ties, with their wears. Asks first on a terminal; `undo` brings them back.")

    @Argument(
      help: ArgumentHelp("The ties to remove.", valueName: "tie"),
      completion: .custom(TieCompletion.keys))
    var ties: [String]

    @Flag(name: .shortAndLong, help: "Do not ask: for scripts.")
    var yes = false

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
      guard !ties.isEmpty else { throw ValidationError("Missing expected argument '<tie>'") }
    }

    func run(store: BowTieStore) throws {
      if !yes {
        // The ties first: one that is not there is said so, on a terminal or not.
        let found = try ties.map { try store.tie(matching: $0) }
        let names = found.map { "\($0.name) (\($0.searchKey))" }.joined(separator: ", ")
        guard
          try Terminal.confirm(
            "Remove \(names)?",
            refusal: "remove asks before removing, which needs a terminal: add --yes")
        else {
          Terminal.note("nothing removed")
          return
        }
      }
      let removed = try store.remove(ties)
      if output.json {
        try TieOutput(json: true).printJSON(removed.map(TieJSON.init))
      } else {
        try StandardOutput.write { output in
          for tie in removed { output.printLine("removed \(tie.name) (\(tie.searchKey))") }
        }
      }
    }
  }
}
