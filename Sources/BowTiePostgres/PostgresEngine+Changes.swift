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
/// `LISTEN` for a `NOTIFY` that a trigger sends was built and measured: it shows a change at
/// once and asks nothing while nothing changes, but every transaction that notifies takes a
/// server-wide lock at its commit, which cost concurrent writers on four connections about
/// 40 % of their commits per second, and its trigger, a schema migration, would make every
/// older bowties refuse the store until all machines were upgraded (docs/performance.md,
/// "browse").
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
