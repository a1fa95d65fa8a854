import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

/// `--store`, shared by every command.
struct StoreOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The store: a file, or a PostgreSQL URI (postgresql://user@host/db). Default: "
        + "$BOWTIES_STORE, else $XDG_DATA_HOME/bowties/BowTies.sqlite.",
      valueName: "path-or-uri"),
    completion: .file())
  var store: String?

  /// Where the store is: `--store`, else `BOWTIES_STORE`, else the default file.
  func address() throws(BowTieError) -> any StoreAddress {
    try StoreLocation.address(explicitPath: store)
  }

  /// Examines the store (`doctor`) as its engine does (``StoreAddress/checkup(repairing:)``):
  /// as it is, never created, and upgraded only when `repairing`.
  ///
  /// - Returns: the store's name for messages, and what the checkup found.
  func checkup(repairing: Bool) throws -> (store: String, checkup: Checkup) {
    try address().checkup(repairing: repairing)
  }

  /// Replaces the store with the backup at `source`, once it is checked and `confirm`
  /// says yes; nil when it says no.
  func restore(from source: URL, confirming confirm: () throws(BowTieError) -> Bool) throws
    -> BackupSummary?
  {
    try BowTieStore.restore(from: source, to: address(), confirming: confirm)
  }
}
