import Foundation
import Synchronization

/// Where a store is: a SQLite file on this machine, or a PostgreSQL server shared by
/// several (a `postgresql://` or `postgres://` connection URI).
public enum StoreAddress: Sendable, Equatable {
  case file(URL)
  case server(uri: String)

  /// Whether `text` is a PostgreSQL connection URI rather than a path: a path that merely
  /// looks like one would otherwise become a folder named `postgresql:`.
  public static func isServerURI(_ text: String) -> Bool {
    let scheme = text.prefix(13).lowercased()
    return scheme.hasPrefix("postgresql://") || scheme.hasPrefix("postgres://")
  }

}

/// How a store on a server is opened: registered by the program that links the engine
/// (`bowties-postgresql` links BowTiePostgres), so that what needs no server (`bowties`
/// itself, the library's tests, the fuzzers) carries no network stack.
public enum ServerStores {
  /// Opens the store at a connection URI, creating its schema and filling it with
  /// `populate` in one transaction when the database has none; says whether it did.
  public typealias Opener =
    @Sendable (_ uri: String, _ populate: (BowTieStore) throws -> Void) throws(BowTieError)
    -> (store: BowTieStore, created: Bool)

  private static let opener = Mutex<Opener?>(nil)

  public static func register(_ opener: @escaping Opener) {
    self.opener.withLock { $0 = opener }
  }

  /// Whether this program can open a store on a server.
  public static var isRegistered: Bool { opener.withLock { $0 != nil } }

  static func open(_ uri: String, ifMissing populate: (BowTieStore) throws -> Void)
    throws(BowTieError) -> (store: BowTieStore, created: Bool)
  {
    guard let opener = opener.withLock({ $0 }) else {
      throw .usage("this program cannot open a PostgreSQL store: it registers no engine for one")
    }
    return try opener(uri, populate)
  }
}

extension BowTieStore {
  /// Opens the store at `address`, creating it (filled by `populate`) when it does not
  /// exist yet: a file (``open(at:busyTimeout:ifMissing:)``) or a server's database.
  public static func open(
    _ address: StoreAddress, ifMissing populate: (BowTieStore) throws -> Void = { _ in }
  ) throws(BowTieError) -> (store: BowTieStore, created: Bool) {
    switch address {
    case .file(let url): try open(at: url, ifMissing: populate)
    case .server(let uri): try ServerStores.open(uri, ifMissing: populate)
    }
  }
}
