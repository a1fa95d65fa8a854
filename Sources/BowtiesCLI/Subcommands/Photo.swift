import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

extension Bowties {
  struct Photo: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "photo",
      abstract: "Write a tie's stored photo to a file, byte for byte as it was given.",
      discussion: """
        The file's extension must match the photo's format (.png for a PNG; .jpg or .jpeg \
        for a JPEG). Given a folder (an existing one, or a path ending in /), the photo is \
        written into it as KEY.png or KEY.jpg, and the path is printed.
        """)

    @Argument(help: .tie, completion: .custom(TieCompletion.keys))
    var tie: String

    @Option(
      name: .shortAndLong,
      help: ArgumentHelp(
        "Where to write it: a file, a folder, or - for stdout (not a terminal).",
        valueName: "path"),
      completion: .file()
    )
    var output: String

    @OptionGroup var outputFile: OutputFileOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
      try ValidationError.checkPath(output, named: "--output")
      // As gzip refuses to write compressed data to a terminal: the bytes are not text.
      if output == "-" && Terminal.standardOutputIsTerminal {
        try ExitStatus.validating { () throws(BowTieError) in
          throw .usage("not writing a photo to a terminal: redirect stdout, or give --output FILE")
        }
      }
    }

    func run(store: BowTieStore) throws {
      let found = try store.tie(matching: tie, loadingPhoto: true)
      guard let data = found.photoData else { throw BowTieError.noPhoto(tie: found.name) }
      if output == "-" {
        try StandardOutput.write { $0.write(bytes: data) }
        return
      }
      let format = found.photoDescription?.format
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory)
      if (exists && isDirectory.boolValue) || output.hasSuffix("/") {
        let name = Exporter.photoFileStem(found) + "." + (format ?? .png).fileExtension
        let folder = URL(fileURLWithPath: output, isDirectory: true)
        try AtomicFile.createFolder(folder)
        let file = folder.appendingPathComponent(name)
        try store.refuseOwnFile(file)
        try AtomicFile.write(data, to: file, replacing: outputFile.force)
        try StandardOutput.write { $0.write(file.path + "\n") }
        return
      }
      let file = URL(fileURLWithPath: output)
      let given = file.pathExtension.lowercased()
      if let format, !given.isEmpty, !format.fileExtensions.contains(given) {
        throw BowTieError.usage(
          "the photo of \(found.name) is a \(format.name): name the file "
            + "\(file.deletingPathExtension().lastPathComponent).\(format.fileExtension), or give a folder"
        )
      }
      try store.refuseOwnFile(file)
      try AtomicFile.write(data, to: file, replacing: outputFile.force)
    }
  }
}
