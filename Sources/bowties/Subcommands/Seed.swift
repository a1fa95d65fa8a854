import ArgumentParser
import BowTieKit
import Foundation

extension Bowties {
  struct Seed: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add ties from a plist in the BowTies sample's format (default: the sample ties).",
      discussion: """
        PLIST is an XML or binary property list: an array of dictionaries with name, \
        searchKey, rating, tintColor (red, green, blue: 0-255), imageName, lastWorn, \
        timesWorn, isFavorite, url and id. Photos named by imageName are read from the \
        images/ folder beside the plist (./images for standard input), never from \
        outside it. A tie whose id (or, without one, whose searchKey) is already stored \
        is skipped, or overwritten with --replace. A file with any bad entry changes nothing.
        """)

    @Argument(help: "A seed plist, or - for standard input. Default: the built-in sample ties.")
    var plist: String?

    @Flag(help: "Overwrite ties that are already stored with the plist's values.")
    var replace = false

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      // Everything is read and checked before the store is touched.
      let entries = try SeedInput(argument: plist).entries()
      // A new store is created with just these entries, atomically.
      var seededOnCreation: SeedSummary?
      let store = try storeOptions.open {
        seededOnCreation = try $0.seed(entries, replacing: replace)
      }
      let summary = try seededOnCreation ?? store.seed(entries, replacing: replace)
      if output.json {
        let data = try TieJSON.makeEncoder().encode(summary)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
      } else {
        print("added \(summary.added), replaced \(summary.replaced), skipped \(summary.skipped)")
      }
    }
  }
}

/// Where `seed` reads from: the built-in samples, a file, or standard input.
struct SeedInput {
  var argument: String?

  func entries() throws -> [SeedEntry] {
    guard let argument else { return try SampleData.entries() }
    let currentFolder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    if argument == "-" {
      let data = FileHandle.standardInput.readDataToEndOfFile()
      return try SeedFile.parse(
        data, source: "standard input",
        images: .folder(currentFolder.appendingPathComponent("images")))
    }
    let file = URL(fileURLWithPath: argument, relativeTo: currentFolder).standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
      throw BowTieError.inputUnreadable(path: argument, reason: "no such file")
    }
    guard !isDirectory.boolValue else {
      throw BowTieError.inputUnreadable(path: argument, reason: "it is a directory")
    }
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw BowTieError.inputUnreadable(path: argument, reason: "permission denied or unreadable")
    }
    return try SeedFile.parse(
      data, source: argument,
      images: .folder(file.deletingLastPathComponent().appendingPathComponent("images")))
  }
}
