import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

extension ExportFormat: ExpressibleByArgument {}

extension Bowties {
  struct Export: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Write every tie in the seed format, for another store or another tool.",
      discussion: """
        plist and json carry every attribute under the seed format's keys; seed reads \
        them back. To a file or stdout, photos travel inside as photoData. With --output \
        DIR (an existing folder, or a path ending in /), the photos are written as PNG \
        files into DIR/images/ beside DIR/SampleData.plist (or .json), so the folder is \
        itself something `seed DIR` accepts. csv is one row per tie, for spreadsheets.
        """)

    @Option(help: "plist, json or csv.")
    var format: ExportFormat = .plist

    @Flag(help: "A binary plist instead of XML.")
    var binary = false

    @Option(
      name: .shortAndLong,
      help: ArgumentHelp(
        "A file, a folder (DIR/), or - for stdout (the default).", valueName: "path"),
      completion: .file())
    var output: String?

    @OptionGroup var outputFile: OutputFileOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
      try ValidationError.checkPath(output, named: "--output")
      if binary && format != .plist { throw ValidationError("--binary applies to --format plist") }
      // As photo refuses to: the bytes are not text, and a photo's inside may hold escapes.
      if binary && (output ?? "-") == "-" && Terminal.standardOutputIsTerminal {
        try ExitStatus.validating { () throws(BowTieError) in
          throw .usage(
            "not writing a binary plist to a terminal: redirect stdout, or give --output FILE")
        }
      }
    }

    func run(store: BowTieStore) throws {
      let exporter = Exporter(format: format, binaryPlist: binary)
      let warn = { (tie: BowTie) in
        Terminal.warning("\(tie.name): its color cannot be read; exported without a color")
      }
      let noImages = { (_: String, _: Data) throws(BowTieError) in }
      guard let output, output != "-" else {
        try StandardOutput.write { document in
          _ = try exporter.write(
            from: store, toFolder: false, to: &document, image: noImages, warn: warn)
        }
        return
      }
      guard ExportFolder.isFolder(output) else {
        let file = URL(fileURLWithPath: output)
        try store.refuseOwnFile(file)
        try AtomicFile.write(to: file, replacing: outputFile.force) {
          document throws(BowTieError) in
          _ = try exporter.write(
            from: store, toFolder: false, to: &document, image: noImages, warn: warn)
        }
        return
      }
      let folder = URL(fileURLWithPath: output, isDirectory: true)
      let summary = try exporter.write(
        from: store, intoFolder: folder, replacing: outputFile.force, warn: warn)
      let photos = counted(summary.photoFiles, "photo")
      try StandardOutput.printLines(
        "exported \(counted(summary.ties, "tie")) and \(photos) to \(folder.path)")
    }
  }
}
