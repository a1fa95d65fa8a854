import ArgumentParser
import BowTieKit
import BowTieModel

extension ArgumentHelp {
  /// The help for every command's `TIE` argument.
  static let tie = ArgumentHelp(
    "A search key (R), a name or a unique prefix of it, or an id.", valueName: "tie")
}

/// What a shell's completion script offers for a `TIE`, asked of this program by the line
/// being typed (ArgumentParser's `---completion`): each `TIE` argument is declared with
/// `completion: .custom(TieCompletion.keys)`. A completion prints nothing but its words:
/// any error, a store that is not there (which asking never creates) or one that cannot be
/// opened, offers nothing.
enum TieCompletion {
  /// Enough for a screen; a store of a million ties would otherwise list them all.
  static let limit = 200

  /// The search keys of the store the line's `words` name that begin with `prefix`, what
  /// is typed of the word being completed (the word's index is not needed).
  @Sendable static func keys(words: [String], index: Int, prefix: String) -> [String] {
    do {
      let address = try StoreLocation.address(
        explicitPath: Invocation.storeInCompletion(words))
      // A SQLite file not there yet, or without a schema: nothing to offer.
      if try address.storeForDryRun() != nil { return [] }
      let (store, _) = try BowTieStore.open(address) { _ in
        throw BowTieError.storeUnreadable(path: address.nameForQuestion, reason: "not there")
      }
      defer { try? store.closeDatabase() }
      return try store.searchKeys(startingWith: prefix, limit: limit)
    } catch {
      return []
    }
  }
}
