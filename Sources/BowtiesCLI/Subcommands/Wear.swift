import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

extension Bowties {
  struct Wear: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "wear",
      abstract: "Record that you wore a tie: one more wear, last worn now (or --date).")

    @Argument(help: .tie, completion: .custom(TieCompletion.keys))
    var tie: String

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "When it was worn: 2026-11-21T08:00:00Z, 2026-11-21 (midnight), yesterday, -2d… "
          + "Today or earlier. Default: now.",
        valueName: "date"))
    var date: WornDate?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run(store: BowTieStore) throws {
      let worn = try store.wear(tie, on: date?.date ?? Date())
      try TieOutput(json: output.json).printDetails(worn)
    }
  }
}

/// The day of a wear as typed (`wear --date`, `edit --last-worn`): today or before, and a
/// moment (`2026-11-21T20:00:00Z`) now or before. A later one is a typo (2062 for 2026), or
/// a wear that has not happened, and would stay "last worn" through every real wear until
/// then.
struct WornDate: ArgumentValue, Equatable {
  var date: Date

  static func parse(_ text: String, option: String?) throws(BowTieError) -> WornDate {
    let argument = try DateArgument.parse(text, option: option)
    let worn = argument.date
    if BowTie.isAfterToday(worn) {
      throw BowTieError.invalidValue("'\(text)' is after today: a wear is today or earlier")
    }
    if !argument.isWholeDay && worn.timeIntervalSinceNow > 0 {
      throw BowTieError.invalidValue("'\(text)' is later than now: a wear is now or earlier")
    }
    return WornDate(date: worn)
  }
}
