import ArgumentParser
import BowTieKit
import Foundation
import TextOutput

extension Bowties {
  struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "history",
      abstract: "List the wears recorded by `wear`, newest first.",
      discussion: """
        Wears counted in a seed plist's timesWorn happened before the history began and \
        are not listed. DATE is 2026-11-21, 2026-11-21T08:00:00Z, now, today, yesterday, \
        or -30d, -2w, -3m, -1y, -12h; --until with a day includes that whole day.
        """)

    @Argument(help: ArgumentHelp("Only this tie's wears.", valueName: "tie"))
    var tie: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Only wears on or after this date.", valueName: "date"))
    var since: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Only wears up to this date.", valueName: "date"))
    var until: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
      _ = try ExitStatus.validating(range)
    }

    func run() throws {
      let store = try storeOptions.open()
      let (start, end) = try range()
      try StandardOutput.write { stdout in
        if output.json {
          var array = JSONArrayWriter()
          try store.forEachWear(of: tie, since: start, until: end) { record in
            try array.append(WearJSON(record))
            array.flush(to: &stdout)
            try stdout.checkStandardOutput()
          }
          array.finish()
          array.flush(to: &stdout)
          stdout.write("\n")
          return
        }
        var when = TieOutput.MinuteText()
        try store.forEachWear(of: tie, since: start, until: end) { record in
          stdout.printLine(
            "\(when.text(for: record.event.wornAt))  \(record.searchKey)  \(record.name)")
          try stdout.checkStandardOutput()
        }
      }
    }

    private func range() throws(BowTieError) -> (Date?, Date?) {
      let start = try since.map(DateParsing.date)
      let end = try until.map { text throws(BowTieError) in try DateParsing.parse(text).end() }
      return (start, end)
    }
  }
}
