import ArgumentParser
import BowTieKit
import Foundation

extension ExportFormat: ExpressibleByArgument {}

extension Bowties {
  struct Export: ParsableCommand {
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
        "A file, a folder (DIR/), or - for stdout (the default).", valueName: "path"))
    var output: String?

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
      if binary && format != .plist { throw ValidationError("--binary applies to --format plist") }
    }

    func run() throws {
      let store = try storeOptions.open()
      let items = try store.exportItems()
      for item in items where item.tie.colorIssue != nil {
        Terminal.warning("\(item.tie.name): its color cannot be read; exported without a color")
      }
      let exporter = Exporter(format: format, binaryPlist: binary)
      guard let output, output != "-" else {
        FileHandle.standardOutput.write(try exporter.export(items, toFolder: false).document)
        return
      }
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory)
      guard (exists && isDirectory.boolValue) || output.hasSuffix("/") else {
        try AtomicFile.write(
          try exporter.export(items, toFolder: false).document, to: URL(fileURLWithPath: output))
        return
      }
      let folder = URL(fileURLWithPath: output, isDirectory: true)
      let result = try exporter.export(items, toFolder: format != .csv)
      let images = folder.appendingPathComponent("images", isDirectory: true)
      try AtomicFile.createFolder(images)
      for (name, data) in result.images.sorted(by: { $0.key < $1.key }) {
        try AtomicFile.write(data, to: images.appendingPathComponent(name))
      }
      try AtomicFile.write(
        result.document, to: folder.appendingPathComponent(exporter.folderFileName))
      Terminal.printLine(
        "exported \(items.count) ties and \(result.images.count) photos to \(folder.path)")
    }
  }
}
