import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation
import TextOutput

extension Bowties {
  struct History: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "history",
      abstract: "List the wears recorded by `wear`, newest first.",
      discussion: """
        Wears counted in a seed plist's timesWorn happened before the history began and \
        are not listed. DATE is 2026-11-21, 2026-11-21T08:00:00Z, now, today, yesterday, \
        or -30d, -2w, -3m, -1y, -12h; --until with a day includes that whole day.
        """)

    @Argument(
      help: ArgumentHelp("Only this tie's wears.", valueName: "tie"),
      completion: .custom(TieCompletion.keys))
    var tie: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Only wears on or after this date.", valueName: "date"))
    var since: DateArgument?

    // A day given here includes all of that day.
    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Only wears up to this date.", valueName: "date"))
    var until: DateArgument?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    // As list refuses --min-rating above --max-rating: a typo, not a question. The wears
    // matched are those in [since, until.end()).
    func validate() throws {
      if let since, let until, since.date >= until.end() {
        throw ValidationError("--since is after --until: no wear can match")
      }
    }

    func run(store: BowTieStore) throws {
      let since = since?.date
      let until = until?.end()
      if output.json {
        try StandardOutput.writeJSONArray { element in
          try store.forEachWear(of: tie, since: since, until: until) { try element(WearJSON($0)) }
        }
        return
      }
      try StandardOutput.write { stdout in
        var when = TieOutput.MinuteText()
        try store.forEachWear(of: tie, since: since, until: until) { record in
          stdout.printLine(
            when.text(for: record.event.wornAt), "  ", record.searchKey, "  ", record.name)
          try stdout.checkStandardOutput()
        }
      }
    }
  }
}
