import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

extension Bowties {
  struct Backup: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "backup",
      abstract: "Copy the store, photos included, to a new path, while others keep using it.",
      discussion: """
        The copy is consistent: of a SQLite store it is taken with SQLite's online \
        backup API under the store's write lock, so other processes' writes wait for it \
        (up to the busy timeout); of a PostgreSQL store, from one snapshot while others \
        keep writing. PATH must not exist, unless --force; the copy is always a SQLite store file \
        (--store PATH), and `bowties restore PATH` puts it back into either engine.
        """)

    @Argument(
      help: ArgumentHelp("Where to write the copy.", valueName: "path"), completion: .file())
    var path: String

    @OptionGroup var outputFile: OutputFileOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
      try ValidationError.checkPath(path, named: "<path>")
    }

    func run(store: BowTieStore) throws {
      let summary = try store.backup(
        to: URL(fileURLWithPath: path).standardizedFileURL, replacing: outputFile.force)
      if output.json {
        try TieOutput(json: true).printJSON(summary)
      } else {
        let photos = counted(summary.photoFiles, "photo file")
        try StandardOutput.printLines(
          "backed up \(counted(summary.ties, "tie")) and \(photos) to \(summary.path)")
      }
    }
  }
}
