import ArgumentParser
import BowTieKit
import BowTieModel

extension Bowties {
  struct Favorite: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "favorite",
      abstract: "Mark a tie as a favorite (or clear the mark with --off, flip it with --toggle).")

    enum Change: String, EnumerableFlag {
      case on, off, toggle

      static func help(for value: Change) -> ArgumentHelp? {
        switch value {
        case .on: "Mark the tie as a favorite (the default)."
        case .off: "Clear the mark."
        case .toggle: "Flip the mark."
        }
      }
    }

    @Argument(help: .tie, completion: .custom(TieCompletion.keys))
    var tie: String

    @Flag(exclusivity: .exclusive) var change: Change = .on

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run(store: BowTieStore) throws {
      let updated = try store.favorite(tie, change.favoriteChange)
      try TieOutput(json: output.json).printDetails(updated)
    }
  }
}

extension Bowties.Favorite.Change {
  var favoriteChange: FavoriteChange {
    switch self {
    case .on: .set
    case .off: .clear
    case .toggle: .toggle
    }
  }
}
