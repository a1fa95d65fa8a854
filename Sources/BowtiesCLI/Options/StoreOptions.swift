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
}
