import ArgumentParser
import BowTieKit
import Foundation
import Synchronization

/// `--store`, shared by every command.
struct StoreOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The store: a file, or a PostgreSQL URI (postgresql://user@host/db). Default: "
        + "$BOWTIES_STORE, else $XDG_DATA_HOME/bowties/BowTies.sqlite.",
      valueName: "path-or-uri"))
  var store: String?

  /// Opens the store. A store that does not exist yet is created and filled by
  /// `populate`, by default with the sample ties, as the app does on first launch.
  func open(
    populate: (BowTieStore) throws -> Void = { try $0.seed(SampleData.entries()) }
  ) throws -> BowTieStore {
    if let replacement = Self.replacement.withLock({ $0 }) {
      let store = try replacement()
      Self.opened.withLock { $0.append(store) }
      return store
    }
    let (store, created) = try BowTieStore.open(address(), ifMissing: populate)
    if created {
      Terminal.note("created the store \(store.path) with \(try store.count()) ties")
    }
    Self.opened.withLock { $0.append(store) }
    return store
  }

  /// Where the store is: `--store`, else `BOWTIES_STORE`, else the default file.
  func address() throws(BowTieError) -> any StoreAddress {
    try StoreLocation.address(explicitPath: store)
  }

  /// Examines the store (`doctor`) as its engine does (``StoreAddress/checkup(repairing:opening:)``):
  /// a store file as it is, never created or upgraded unless `repairing`; a server's store
  /// opened as every command opens it, without the sample ties.
  ///
  /// - Returns: the store's name for messages, and what the checkup found.
  func checkup(repairing: Bool) throws -> (store: String, checkup: Checkup) {
    try address().checkup(repairing: repairing) { try open(populate: { _ in }) }
  }

  /// Runs `body`, a dry run, on the store, creating none: on the engine's store for a dry
  /// run where it has one (an empty store in memory for a SQLite file not there yet,
  /// ``StoreAddress/storeForDryRun()``); where opening creates the store (a server with no
  /// store yet), on the new store inside its creation, which is then rolled back.
  func withoutCreating<T>(_ body: (BowTieStore) throws -> T) throws -> T {
    if let store = try address().storeForDryRun() { return try body(store) }
    var result: T?
    do {
      let store = try open(populate: { newStore in
        result = try body(newStore)
        // Undoes the creation: the error rolls its transaction back.
        throw CancellationError()
      })
      return try body(store)
    } catch {
      if let result { return result }
      throw error
    }
  }

  /// Replaces the store with the backup at `source`.
  func restore(from source: URL) throws -> BackupSummary {
    try BowTieStore.restore(from: source, to: address())
  }

  /// The store as a question names it. A URI is not repeated: it may hold a password.
  func nameForQuestion() throws -> String {
    try address().nameForQuestion
  }

  /// What every command opens instead of the store `--store` names: a store in memory, for
  /// the fuzzer, which runs commands by the thousand and must touch no file.
  static let replacement = Mutex<(@Sendable () throws -> BowTieStore)?>(nil)

  /// Every store a command opened, kept until ``closeOpenedStores()``.
  private static let opened = Mutex<[BowTieStore]>([])

  /// Closes the stores the command opened, for `main` to call when the command has
  /// finished or failed, just before the process exits.
  ///
  /// The stores stay referenced, so nothing tears them down: releasing a store would make
  /// GRDB dispose of its dispatch queue, and libdispatch start a thread only for that,
  /// a measurable part of a `show` (docs/performance.md, "The shipped binary, and why").
  ///
  /// - Parameter releasing: forget them as well, as a process that runs command after
  ///   command (the fuzzer) must.
  static func closeOpenedStores(releasing: Bool = false) throws {
    try opened.withLock { stores in
      for store in stores { try store.closeDatabase() }
      if releasing { stores.removeAll() }
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
