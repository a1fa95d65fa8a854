import ArgumentParser
import BowTieKit
import Foundation

extension Bowties {
  struct Photo: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "photo",
      abstract: "Write a tie's stored photo to a file.")

    @Argument(help: .tie)
    var tie: String

    @Option(
      name: .shortAndLong,
      help: ArgumentHelp("Where to write it (- for stdout).", valueName: "file.png"))
    var output: String

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
      let store = try storeOptions.open()
      let found = try store.tie(matching: tie, loadingPhoto: true)
      guard let data = found.photoData else { throw BowTieError.noPhoto(tie: found.name) }
      if output == "-" {
        FileHandle.standardOutput.write(data)
      } else {
        try AtomicFile.write(data, to: URL(fileURLWithPath: output))
      }
    }
  }
}
