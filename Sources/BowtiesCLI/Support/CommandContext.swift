import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

/// A bowties subcommand, as SwiftPM's `SwiftCommand` is one of `swift package`'s: the stores
/// it works on come from the ``CommandContext`` it runs in, which closes them when the
/// command is over, whether it succeeded or failed.
protocol BowtiesCommand: ParsableCommand {
  /// The command's work, its stores opened through `context`.
  func run(in context: CommandContext) throws
}

extension BowtiesCommand {
  /// Runs the command in a context of its own.
  func run() throws {
    try CommandContext().run(self)
  }
}

/// A command on the one store `--store` names: ``run(in:)`` opens it, then runs
/// ``run(store:)``. Commands that must check their input before the store is opened (or
/// created), or that open it another way, are ``BowtiesCommand``s.
protocol StoreCommand: BowtiesCommand {
  var storeOptions: StoreOptions { get }

  func run(store: BowTieStore) throws
}

extension StoreCommand {
  func run(in context: CommandContext) throws {
    try run(store: context.open(storeOptions))
  }
}

/// What a command runs with besides its arguments: where its stores come from, and the one
/// place they are closed.
///
/// A closed store stays referenced as long as its context: releasing one makes GRDB
/// dispose of its dispatch queue, and libdispatch start a thread only for that, a
/// measurable part of a `show` (docs/performance.md, "The shipped binary, and why"). So
/// `main` keeps its context until the process exits.
final class CommandContext {
  /// The store every command opens instead of the one `--store` names, if set.
  private let replacement: (() throws -> BowTieStore)?

  /// Where the store a `--store` value names is, found before the line was parsed
  /// (``Invocation/storeAddress(environment:)``), by the same rule: not worked out twice.
  private let known: (store: String?, address: any StoreAddress)?

  /// The stores opened and not closed yet, then those closed.
  private var open: [BowTieStore] = []
  private var closed: [BowTieStore] = []

  /// A context whose commands open the store their `--store` names; where that is
  /// `known.store`, at `known.address`.
  init(knowing known: (store: String?, address: any StoreAddress)? = nil) {
    replacement = nil
    self.known = known
  }

  /// A context whose commands all open `replacement()` instead: a store in memory, for the
  /// fuzzer, which runs commands by the thousand and must touch no file.
  init(replacingStoresWith replacement: @escaping () throws -> BowTieStore) {
    self.replacement = replacement
    known = nil
  }

  /// Runs `command`, then closes the stores it opened (the SQLite log is folded back into
  /// the file and removed). When the command failed, a failure to close is not the error
  /// to report.
  func run(_ command: some BowtiesCommand) throws {
    do {
      try command.run(in: self)
    } catch {
      try? closeStores()
      throw error
    }
    try closeStores()
  }

  /// Where the store `options` names is: where it was found before the line was parsed,
  /// when `--store` is the value found then, else worked out from `options`. For the
  /// commands that do not open it (`doctor`, `restore`) as for those that do.
  func address(_ options: StoreOptions) throws(BowTieError) -> any StoreAddress {
    if let known, known.store == options.store { return known.address }
    return try options.address()
  }

  /// Opens the store `options` names. A store that does not exist yet is created and
  /// filled by `populate`, by default with the sample ties, as the app does on first
  /// launch, and the user is told.
  func open(
    _ options: StoreOptions,
    populate: (BowTieStore) throws -> Void = { try $0.seed(SampleData.entries()) }
  ) throws -> BowTieStore {
    try openOrCreate(options, populate: populate).store
  }

  /// ``open(_:populate:)``, saying whether this process created the store. `populate` may
  /// have run for nothing: on a store that another process, creating it at the same time,
  /// put in place first, and which is the one opened.
  func openOrCreate(
    _ options: StoreOptions, populate: (BowTieStore) throws -> Void
  ) throws -> (store: BowTieStore, created: Bool) {
    let store: BowTieStore
    var created = false
    if let replacement {
      store = try replacement()
    } else {
      (store, created) = try BowTieStore.open(address(options), ifMissing: populate)
      if created {
        Terminal.note("created the store \(store.path) with \(counted(try store.count(), "tie"))")
      }
    }
    open.append(store)
    return (store, created)
  }

  /// Closes `store`, which this context opened from `options`, and opens that store again:
  /// for a command that goes on reading after another process changed a store it read
  /// without locks (``BowTieError/storeChangedWhileRead(path:)``). A store that is gone
  /// meanwhile is not created again.
  func reopen(_ store: BowTieStore, _ options: StoreOptions) throws -> BowTieStore {
    try? store.closeDatabase()
    if let index = open.firstIndex(where: { $0.path == store.path }) {
      closed.append(open.remove(at: index))
    }
    return try open(options) { _ in
      throw BowTieError.storeUnreadable(
        path: store.path, reason: "it was removed while bowties had it open")
    }
  }

  /// Runs `body`, a dry run, on the store `options` names, creating none: on the engine's
  /// store for a dry run where it has one (an empty store in memory for a SQLite file not
  /// there yet or without a schema, ``StoreAddress/storeForDryRun()``); where opening creates the store (a
  /// server with no store yet), on the new store inside its creation, which is then rolled
  /// back.
  func withoutCreating<T>(_ options: StoreOptions, _ body: (BowTieStore) throws -> T) throws
    -> T
  {
    if replacement == nil, let store = try address(options).storeForDryRun() {
      open.append(store)
      return try body(store)
    }
    var result: T?
    do {
      let store = try open(
        options,
        populate: { newStore in
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

  private func closeStores() throws {
    var failure: (any Error)?
    for store in open {
      do {
        try store.closeDatabase()
      } catch {
        failure = failure ?? error
      }
    }
    closed += open
    open.removeAll()
    if let failure { throw failure }
  }
}
