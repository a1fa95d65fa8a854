import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

extension Bowties {
  struct Restore: BowtiesCommand {
    static let configuration = CommandConfiguration(
      commandName: "restore",
      abstract: "Replace the store with a backup. Asks first on a terminal.",
      discussion: """
        PATH is a backup written by `bowties backup` (or any bowties store file). It is \
        checked first and never changed. Processes using the store see the old \
        inventory or the restored one, never a mix. The store may be a PostgreSQL one \
        (--store postgresql://…): restoring a backup there moves an inventory to it.
        """)

    @Argument(
      help: ArgumentHelp("The backup to restore.", valueName: "path"), completion: .file())
    var path: String

    @Flag(name: .shortAndLong, help: "Do not ask: for scripts.")
    var yes = false

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
      try ValidationError.checkPath(path, named: "<path>")
    }

    // Restoring replaces the store without opening it, once the backup is checked and
    // the user says yes.
    func run(in context: CommandContext) throws {
      let source = URL(fileURLWithPath: path).standardizedFileURL
      let store = try context.address(storeOptions)
      let restored = try BowTieStore.restore(from: source, to: store) { () throws(BowTieError) in
        try confirm(source, replacing: store)
      }
      guard let summary = restored else {
        Terminal.note("nothing restored")
        return
      }
      if output.json {
        try TieOutput(json: true).printJSON(summary)
      } else {
        let photos = counted(summary.photoFiles, "photo file")
        try StandardOutput.printLines(
          "restored \(counted(summary.ties, "tie")) and \(photos) into \(summary.path)")
      }
    }

    /// Asked once the backup is known to be one: a file that is not is refused as such,
    /// on a terminal or not.
    private func confirm(_ source: URL, replacing store: any StoreAddress) throws(BowTieError)
      -> Bool
    {
      if yes { return true }
      return try Terminal.confirm(
        "Replace \(store.nameForQuestion) with the backup \(source.path)?",
        refusal: "restore asks before replacing the store, which needs a terminal: add --yes")
    }
  }
}
