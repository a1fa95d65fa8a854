import BowTieModel
import Foundation
import Synchronization

/// Where a store is, and the engine that reaches it: what `--store`, `BOWTIES_STORE` or
/// the default names, resolved once (``StoreLocation/address(explicitPath:environment:)``).
/// Everything a command does before it has a store, or instead of opening one the usual
/// way, asks the address, so that no code outside an engine asks which engine it is.
public protocol StoreAddress: Sendable {
  /// The store as a question names it before it is opened: never a password.
  var nameForQuestion: String { get }

  /// Opens the store and brings its schema up to date, refusing one a newer bowties
  /// wrote; where there is none yet, creates it, filled by `populate` before any other
  /// process sees it.
  ///
  /// - Returns: the store, and whether this call created it.
  func open(ifMissing populate: (BowTieStore) throws -> Void) throws(BowTieError)
    -> (store: BowTieStore, created: Bool)

  /// The store for a dry run when opening would leave a store behind where there was
  /// none: an empty one in memory. Nil where the store is opened as every command opens
  /// it (the default).
  func storeForDryRun() throws(BowTieError) -> BowTieStore?

  /// Examines the store (`doctor`): whatever the engine can check of it, then every row,
  /// the undo log and the photos (``BowTieStore/checkContents(_:repairing:)``), fixing
  /// what can be fixed without guessing when `repairing`. Never creates a store, and
  /// upgrades one only when `repairing`.
  ///
  /// - Returns: the store's name for messages, and what the checkup found.
  func checkup(repairing: Bool) throws -> (store: String, checkup: Checkup)

  /// Replaces the store with the backup at `source`, photos included, creating it where
  /// there is none yet: processes using it see the old inventory or the restored one. The
  /// backup is checked first and never changed; then `confirm` is asked, and nil returned,
  /// with nothing changed, when it says no. By default the rows are copied in one
  /// transaction.
  func restore(from source: URL, confirming confirm: () throws(BowTieError) -> Bool)
    throws(BowTieError) -> BackupSummary?
}

extension StoreAddress {
  public func storeForDryRun() throws(BowTieError) -> BowTieStore? { nil }
}

/// The engines a program links besides SQLite, each with the store locations it takes (a
/// PostgreSQL connection URI): registered by the program that links one (`bowties-postgresql`
/// links BowTiePostgres), so that what needs no server (`bowties` itself, the library's
/// tests, the fuzzers) carries no network stack. A location no registered engine takes is
/// a SQLite file's path.
public enum StoreEngines {
  /// The address of the store at `location` when this engine takes it, else nil.
  public typealias Claim = @Sendable (_ location: String) -> (any StoreAddress)?

  private static let claims = Mutex<[Claim]>([])

  /// Adds an engine's claim, asked after those registered before it.
  public static func register(_ claim: @escaping Claim) {
    claims.withLock { $0.append(claim) }
  }

  /// The address of the store at `location` when a registered engine takes it.
  public static func address(of location: String) -> (any StoreAddress)? {
    for claim in claims.withLock({ $0 }) {
      if let address = claim(location) { return address }
    }
    return nil
  }
}
