import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

extension Bowties {
  struct Undo: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "undo",
      abstract: "Take back your most recent change (wear, rate, favorite, add, edit, remove); "
        + "again for the one before.",
      discussion: "The log keeps the last \(UndoEntry.capacity) changes, across runs. Each "
        + "records its user ($BOWTIES_USER, else $USER@host); undo takes back only yours, and "
        + "refuses (exit 77) when another user changed that tie since.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run(store: BowTieStore) throws {
      let undone = try store.undo()
      if output.json {
        try TieOutput(json: true).printJSON(UndoJSON(undone, describe: Self.describe))
      } else if let undone {
        try StandardOutput.printLines(Self.describe(undone))
      } else {
        try StandardOutput.printLines("nothing to undo")
      }
    }

    /// "undid wear of Red Bow Tie on Nov 21, 2026: worn 10 times"
    static func describe(_ undone: UndoneChange) -> String {
      let name = undone.name
      switch undone.change {
      case .wear(_, let wornAt, _):
        let day = TieOutput.day(wornAt)
        return
          "undid wear of \(name) on \(day): worn \(counted(Int(undone.tie?.timesWorn ?? 0), "time"))"
      case .rate(let previous, let new):
        return "undid rating of \(name): \(BowTie.formatRating(new))/5 is back to "
          + "\(BowTie.formatRating(previous))/5"
      case .favorite(let previous, _):
        return
          "undid favorite of \(name): \(previous ? "a favorite again" : "not a favorite again")"
      case .add:
        return "undid add of \(name): removed it again"
      case .edit:
        return "undid edit of \(name): back as it was"
      case .remove:
        return "undid remove of \(name): it is back, with its wears"
      }
    }
  }
}
