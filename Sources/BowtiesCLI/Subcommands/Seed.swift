import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

extension SeedFile.Format: ExpressibleByArgument {}

extension Bowties {
  struct Seed: BowtiesCommand {
    static let configuration = CommandConfiguration(
      commandName: "seed",
      abstract: "Add ties from a plist in the BowTies sample's format (default: the sample ties).",
      discussion: """
        PLIST is an XML or binary property list, or JSON (a .json file, --format json, or \
        input that starts with '['): an array of dictionaries with name, searchKey, \
        rating, tintColor (red, green, blue: 0-255), imageName or photoData, lastWorn, \
        timesWorn, isFavorite, url, price, currency and id. A price is in its currency \
        (an ISO 4217 code such as EUR, or written after the amount: "19.99 EUR"), else in \
        US dollars, whatever the locale. A folder stands for the \
        SampleData.plist (or SampleData.json) inside it, as `export --output DIR` writes. \
        Photos named by imageName are read from the images/ folder beside the file \
        (./images for standard input), never from outside it, or else from an Xcode asset \
        catalog (*.xcassets) beside the file: the image set of that name, its universal \
        image at the highest scale; a PDF there is rasterized at 3x its point size. \
        Photos are PNG or JPEG, checked before anything is stored. PLIST may also be the \
        BowTies app's own Core Data store (its .sqlite file, or the folder that holds it, \
        such as Library/Application Support/ of the app's data container), recognized by \
        its content: it is read from a private copy, its -wal included, and left as it \
        was. A tie whose id (or, without one, whose searchKey) is already stored is \
        skipped, or overwritten with --replace. A file with any bad entry changes nothing.
        """)

    @Argument(
      help:
        "A seed file, export folder or the app's Core Data store, or - for standard input. Default: the built-in sample ties.",
      completion: .file()
    )
    var plist: String?

    @Option(help: "plist or json. Default: from the file's name or its first character.")
    var format: SeedFile.Format?

    @Flag(help: "Overwrite ties that are already stored with the plist's values.")
    var replace = false

    @Flag(help: "Print what would be added, replaced and skipped, and change nothing.")
    var dryRun = false

    @Flag(
      help: ArgumentHelp(
        "Seed the ties without photos: imageName and photoData are ignored, and a replaced tie keeps its photo."
      ))
    var noPhotos = false

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
      try ValidationError.checkPath(plist, named: "<plist>")
    }

    func run(in context: CommandContext) throws {
      // Everything is read and checked before the store is touched.
      let entries = try SeedInput(argument: plist, format: format, photos: !noPhotos).entries()
      if dryRun {
        // The seed rolled back, on a store that does not exist yet too, so that a dry run
        // never creates a store.
        let plan = try context.withoutCreating(storeOptions) {
          try $0.seedPlan(entries, replacing: replace)
        }
        try printPlan(entries, outcomes: plan)
        return
      }
      let bar = entries.count >= 1_000 ? ProgressBar("seeding") : nil
      let progress = bar.map { bar in { (done: Int, total: Int) in bar.update(done, of: total) } }
      // A new store is created with just these entries, atomically; unless another process
      // created it first, into which they go as into any store.
      var seededOnCreation: SeedSummary?
      let (store, created) = try context.openOrCreate(storeOptions) {
        seededOnCreation = try $0.seed(entries, replacing: replace, progress: progress)
      }
      let summary =
        try (created ? seededOnCreation : nil)
        ?? store.seed(entries, replacing: replace, progress: progress)
      bar?.finish()
      if output.json {
        try TieOutput(json: true).printJSON(summary)
      } else {
        try StandardOutput.printLines(
          "added \(summary.added), replaced \(summary.replaced), skipped \(summary.skipped)")
      }
    }

    private func printPlan(_ entries: [SeedEntry], outcomes: [SeedOutcome]) throws {
      if output.json {
        try TieOutput(json: true).printJSON(SeedPlanJSON(entries: entries, outcomes: outcomes))
        return
      }
      let summary = SeedSummary(outcomes)
      try StandardOutput.write { output in
        for (entry, outcome) in zip(entries, outcomes) {
          let verb = outcome.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
          output.printLine("\(verb)\(entry.tie.searchKey)  \(entry.tie.name)")
          try output.checkStandardOutput()
        }
        output.printLine(
          "would add \(summary.added), replace \(summary.replaced), skip \(summary.skipped); "
            + "nothing changed")
      }
    }
  }
}
