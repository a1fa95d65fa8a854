import BowTieModel
import Foundation

/// The persistence core: one value wrapping a store's engine, migrated when it opens.
///
/// Every write method is a single transaction named for what it does, written once in
/// the SQL both engines read (``SQLConnection``), so that a command gives the same answer
/// on a SQLite file and on a shared PostgreSQL store. Commands never see SQL; they call
/// these methods.
public struct BowTieStore: Sendable {
  /// The engine the store runs on.
  public let engine: any StoreEngine

  /// Who makes this store's changes, as the undo log records them: `undo` takes back
  /// this user's newest change. ``UndoUser/current`` unless set.
  public var user = UndoUser.current

  /// The store as messages name it: its file's path, ":memory:", or a PostgreSQL URI
  /// with its password masked.
  public var path: String { engine.displayName }

  /// Wraps an engine that is open and migrated (the PostgreSQL module's, or a test's).
  public init(engine: any StoreEngine) {
    self.engine = engine
  }

  /// How long a command waits for another process's write before giving up (exit 75):
  /// `BOWTIES_BUSY_TIMEOUT` seconds (from 0 to a day), else 10.
  ///
  /// - Throws: a usage error for any other value, rather than a guess: a cron job with a
  ///   typo there should hear of it, and `Double(_:)` alone takes `inf`, which SQLite's
  ///   millisecond count cannot hold.
  public static var defaultBusyTimeout: TimeInterval {
    get throws(BowTieError) {
      guard let text = ProcessEnvironment.value("BOWTIES_BUSY_TIMEOUT"), !text.isEmpty else {
        return 10
      }
      guard PlainDecimal.isPlain(text), let seconds = Double(text), seconds <= 86_400 else {
        throw .usage(
          "BOWTIES_BUSY_TIMEOUT is '\(text)': use a number of seconds from 0 to 86400, such as 10")
      }
      return seconds
    }
  }

  /// Opens the store at `address`, creating it, filled by `populate`, when it does not
  /// exist yet (``StoreAddress/open(ifMissing:)``).
  ///
  /// - Returns: the store, and whether this call created it.
  public static func open(
    _ address: any StoreAddress, ifMissing populate: (BowTieStore) throws -> Void = { _ in }
  ) throws(BowTieError) -> (store: BowTieStore, created: Bool) {
    try address.open(ifMissing: populate)
  }

  /// A copy of this store in memory (``StoreEngine/inMemoryCopy()``).
  public func inMemoryCopy() throws(BowTieError) -> BowTieStore {
    try engine.inMemoryCopy()
  }

  /// Closes the store's connection, as its engine wants before a process ends (SQLite's
  /// last connection folds the write-ahead log back into the file). The store must not be
  /// used afterwards.
  public func closeDatabase() throws(BowTieError) {
    try engine.close()
  }

  /// Refuses `file` as a file to write (exit 73) when it is one of the store's own files
  /// (``StoreEngine/ownFile(_:)``): the store itself, or its log.
  public func refuseOwnFile(_ file: URL) throws(BowTieError) {
    if let reason = engine.ownFile(file) {
      throw .outputUnwritable(path: file.path, reason: reason)
    }
  }

  package var dialect: any SQLDialect { engine.dialect }

  // MARK: - Access

  /// Runs a read in one consistent snapshot.
  package func read<T>(_ body: (any SQLConnection) throws -> T) throws(BowTieError) -> T {
    try engine.read(body)
  }

  /// Runs `body` as one write transaction (``StoreEngine/write(rollingBack:_:)``).
  ///
  /// - Parameter rollingBack: run everything, then roll back: a dry run.
  func write<T>(
    rollingBack: Bool = false, _ body: (any SQLConnection, any PhotoWriter) throws -> T
  ) throws(BowTieError) -> T {
    try engine.write(rollingBack: rollingBack, body)
  }
}
