import BowTieModel

/// How a store's schema stands against this bowties': what each engine reads, once, from
/// its own record of the migrations applied, and what opening, `doctor` and `restore`
/// decide by.
public enum SchemaState: Equatable, Sendable {
  /// Every migration this bowties knows is applied, and no other.
  case current
  /// Some migrations are missing (`missing`, in the order they run): an older bowties
  /// wrote the store, and opening it to write upgrades it.
  case older(missing: [String])
  /// A newer bowties migrated the store (`unknown`): no command may change it.
  case newer(unknown: [String])
  /// No bowties store: no record of migrations, or no `bowTie` table.
  case notAStore

  /// The state of a store whose record lists `applied`, against the migrations this
  /// bowties knows, `known`, in the order they run.
  public init(applied: Set<String>, known: [String]) {
    let unknown = applied.subtracting(known).sorted()
    let missing = known.filter { !applied.contains($0) }
    if !unknown.isEmpty {
      self = .newer(unknown: unknown)
    } else if !missing.isEmpty {
      self = .older(missing: missing)
    } else {
      self = .current
    }
  }

  /// Refuses a store a newer bowties migrated.
  ///
  /// - Throws: ``BowTieError/storeFromNewerVersion(path:unknownMigrations:)``, the store
  ///   named `path`.
  public func refuseNewer(path: String) throws(BowTieError) {
    if case .newer(let unknown) = self {
      throw .storeFromNewerVersion(path: path, unknownMigrations: unknown)
    }
  }
}
