import BowTieKit
import BowTieModel

extension PostgresEngine: ChangeWatchingEngine {
  public func watchChanges() throws(BowTieError) -> any StoreChangeWatch {
    PostgresChangeWatch(session: session)
  }
}

/// A PostgreSQL store watched by asking again: every second, the caller reads what it shows
/// once more (a few statements on indexes) and compares.
///
/// Not `LISTEN` for a `NOTIFY` that a trigger sends: every transaction that notifies takes a
/// server-wide lock at its commit, which slows concurrent writers (docs/performance.md,
/// "browse", has the figures), and its trigger, a schema migration, would make every older
/// bowties refuse the store until all machines were upgraded.
final class PostgresChangeWatch: StoreChangeWatch {
  private let session: PostgresSession

  init(session: PostgresSession) {
    self.session = session
  }

  var descriptor: Int32? { nil }
  var interval: Int32 { 1_000 }

  /// Always "perhaps": only reading again tells. A connection the server ended is the store
  /// gone away.
  func changed() throws(BowTieError) -> Bool {
    if session.connection.isClosed {
      throw .storeUnreadable(
        path: session.settings.displayName, reason: "the connection to the server was lost")
    }
    return true
  }
}
