import ArgumentParser
import BowTieKit
import BowTieReports
import Foundation

extension ReportFormat: ExpressibleByArgument {}

extension Bowties {
  struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "report",
      abstract: "Summarize the wardrobe: counts, most and least worn, stale ties, wears per "
        + "month, ratings and a suggestion.",
      discussion: """
        A summary: each list shows its total and its first --limit ties (default \
        \(ReportBuilder.defaultLimit)); every tie is listed in a store of up to \
        \(ReportBuilder.allTiesThreshold) ties. --all shows every list whole. Made for \
        cron: no color, pager, prompt or terminal-width guessing; nothing on stderr on \
        success; one line on stderr and a non-zero exit on failure. Days and months are \
        counted in the local time zone ($TZ). With --as-of, the same store gives the \
        same bytes.
        """)

    @Option(help: "text, markdown, html, json or csv.")
    var format: ReportFormat = .text

    @OptionGroup var asOfOptions: AsOfOptions

    @Option(help: ArgumentHelp("A tie not worn for this many days is stale.", valueName: "n"))
    var staleDays = 30

    @Option(help: ArgumentHelp("How many months of wears to chart.", valueName: "n"))
    var months = 12

    @Option(
      help: ArgumentHelp(
        "How many ties each list shows (default \(ReportBuilder.defaultLimit)).",
        valueName: "n"))
    var limit: Int?

    @Flag(help: "Show every list whole, and every tie, however many.")
    var all = false

    @Option(
      name: .shortAndLong,
      help: ArgumentHelp(
        "Write the report to this file (whole or not at all) instead of stdout; an "
          + "existing file only with --force.",
        valueName: "file"))
    var output: String?

    @OptionGroup var outputFile: OutputFileOptions
    @OptionGroup var storeOptions: StoreOptions

    /// Dates more than this many days back are not worth a calendar's arithmetic (which
    /// traps beyond its range): about 270 years.
    static let maximumStaleDays = 100_000

    func validate() throws {
      guard (1...Self.maximumStaleDays).contains(staleDays) else {
        throw ValidationError("--stale-days must be from 1 to \(Self.maximumStaleDays)")
      }
      guard (1...120).contains(months) else {
        throw ValidationError("--months must be from 1 to 120")
      }
      if let limit {
        guard !all else { throw ValidationError("--limit and --all cannot be used together") }
        guard limit >= 1 else { throw ValidationError("--limit must be 1 or more") }
      }
    }

    func run() throws {
      let store = try storeOptions.open()
      let builder = ReportBuilder(
        asOf: try asOfOptions.date(), staleDays: staleDays, months: months,
        limit: all ? nil : limit ?? ReportBuilder.defaultLimit)
      let locale = Terminal.locale
      if let output, output != "-" {
        try AtomicFile.write(to: URL(fileURLWithPath: output), replacing: outputFile.force) {
          file throws(BowTieError) in
          try builder.write(from: store, as: format, locale: locale, to: &file)
        }
      } else {
        try StandardOutput.write { output in
          try builder.write(from: store, as: format, locale: locale, to: &output)
        }
      }
    }
  }
}
