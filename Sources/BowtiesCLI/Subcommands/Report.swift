import ArgumentParser
import BowTieKit
import BowTieModel
import BowTieReports
import Foundation

extension ReportFormat: ExpressibleByArgument {}

extension Bowties {
  struct Report: StoreCommand {
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

    // Counts are taken even when they start with "-", so that "-1" gets a clear refusal.
    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("A tie not worn for this many days is stale.", valueName: "n"))
    var staleDays = StaleDays(value: ReportBuilder.defaultStaleDays)

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("How many months of wears to chart.", valueName: "n"))
    var months = ChartMonths(value: ReportBuilder.defaultMonths)

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "How many ties each list shows (default \(ReportBuilder.defaultLimit)).",
        valueName: "n"))
    var limit: PositiveCount?

    @Flag(help: "Show every list whole, and every tie, however many.")
    var all = false

    @Option(
      name: .shortAndLong,
      help: ArgumentHelp(
        "Write the report to this file (whole or not at all) instead of stdout; an "
          + "existing file only with --force.",
        valueName: "file"),
      completion: .file())
    var output: String?

    @OptionGroup var outputFile: OutputFileOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
      try ValidationError.checkPath(output, named: "--output")
      if limit != nil && all {
        throw ValidationError("--limit and --all cannot be used together")
      }
    }

    func run(store: BowTieStore) throws {
      let builder = ReportBuilder(
        asOf: asOfOptions.date, staleDays: staleDays.value, months: months.value,
        limit: all ? nil : limit?.value ?? ReportBuilder.defaultLimit)
      let locale = Terminal.locale
      if let output, output != "-" {
        let file = URL(fileURLWithPath: output)
        try store.refuseOwnFile(file)
        try AtomicFile.write(to: file, replacing: outputFile.force) {
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
