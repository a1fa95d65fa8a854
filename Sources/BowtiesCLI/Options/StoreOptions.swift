import ArgumentParser
import BowTieKit
import Foundation

/// `--store`, shared by every command.
struct StoreOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The store: a file, or a PostgreSQL URI (postgresql://user@host/db). Default: "
        + "$BOWTIES_STORE, else $XDG_DATA_HOME/bowties/BowTies.sqlite.",
      valueName: "path-or-uri"))
  var store: String?

  /// Where the store is: `--store`, else `BOWTIES_STORE`, else the default file.
  func address() throws(BowTieError) -> StoreAddress {
    try StoreLocation.address(explicitPath: store)
  }

  /// Examines the store (`doctor`). A store file is examined as it is, never created or
  /// upgraded unless `repairing`; a server's store is opened by `open`, as every command
  /// opens it, without the sample ties.
  ///
  /// - Returns: the store's name for messages, and what the checkup found.
  func checkup(repairing: Bool, opening open: () throws -> BowTieStore) throws
    -> (store: String, checkup: Checkup)
  {
    switch try address() {
    case .file(let url):
      return (url.path, try BowTieStore.checkup(at: url, repairing: repairing))
    case .server:
      let store = try open()
      return (store.path, try store.checkup(repairing: repairing))
    }
  }

  /// The store for a dry run where opening would create a store file: an empty store in
  /// memory. Nil where the store is opened as every command opens it.
  func storeForDryRun() throws -> BowTieStore? {
    guard case .file(let url) = try address(), !FileManager.default.fileExists(atPath: url.path)
    else { return nil }
    return try BowTieStore.inMemory()
  }

  /// Replaces the store, a file or a server's, with the backup at `source`.
  func restore(from source: URL) throws -> BackupSummary {
    try BowTieStore.restore(from: source, to: address())
  }

  /// The store as a question names it. A URI is not repeated: it may hold a password.
  func nameForQuestion() throws -> String {
    switch try address() {
    case .file(let url): "the store at \(url.path)"
    case .server: "the PostgreSQL store"
    }
  }
}

/// `--json`, for commands that print ties.
struct OutputOptions: ParsableArguments {
  @Flag(name: .long, help: "Print JSON for scripts instead of text for people.")
  var json = false
}

extension ArgumentHelp {
  /// The help for every command's `TIE` argument.
  static let tie = ArgumentHelp(
    "A search key (R), a name or a unique prefix of it, or an id.", valueName: "tie")
}
