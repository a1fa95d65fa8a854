import BowTieModel
import Foundation

/// Tells a view that stays open on the store (`browse`) that someone else changed it: another
/// process on this machine, or, on PostgreSQL, another machine.
public protocol StoreChangeWatch: AnyObject {
  /// A descriptor that becomes readable when the store may have changed, for the caller to
  /// wait on beside its other input; nil when only asking ``changed()`` tells.
  var descriptor: Int32? { get }

  /// How often the caller asks ``changed()`` when nothing woke it, in milliseconds.
  var interval: Int32 { get }

  /// Whether the store may have changed since the last call (or since the watch began);
  /// drains the descriptor. A watch that cannot tell says yes, and the caller reads again
  /// and compares.
  ///
  /// - Throws: a ``BowTieError`` when the store went away: its file removed or replaced,
  ///   its server's connection lost.
  func changed() throws(BowTieError) -> Bool
}

/// An engine that can watch its store for other clients' changes.
public protocol ChangeWatchingEngine: StoreEngine {
  func watchChanges() throws(BowTieError) -> any StoreChangeWatch
}

extension BowTieStore {
  /// A watch on the store's changes by others: ``StoreChangeWatch``.
  ///
  /// - Throws: ``BowTieError/storeUnreadable(path:reason:)`` for an engine that cannot watch.
  public func watchChanges() throws(BowTieError) -> any StoreChangeWatch {
    guard let engine = engine as? any ChangeWatchingEngine else {
      throw .storeUnreadable(path: path, reason: "this store cannot be watched for changes")
    }
    return try engine.watchChanges()
  }
}
