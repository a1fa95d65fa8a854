import BowTieModel
import Foundation

/// What a backup or a restore copied.
public struct BackupSummary: Sendable, Codable, Equatable {
  public var path: String
  public var ties: Int
  public var photoFiles: Int
}

extension BowTieStore {
  /// Writes a consistent copy of the store to `destination`, with its external photos
  /// beside it as a store keeps them, so the copy is itself a store (`--store PATH`): a
  /// SQLite store file, whatever the engine, readable with `sqlite3`, which `restore` puts
  /// into either engine (``StoreEngine/backup(to:replacing:)``).
  ///
  /// The copy is written under a temporary name and renamed into place once complete,
  /// photos first, so a failed or killed backup leaves nothing that looks like a backup.
  /// An existing `destination` is refused unless `replacing`, and never when it is this
  /// store's own file. A replaced backup's photo files that the new one does not use are
  /// removed once the new one is in place.
  public func backup(to destination: URL, replacing: Bool = false) throws(BowTieError)
    -> BackupSummary
  {
    try engine.backup(to: destination, replacing: replacing)
  }

  /// Replaces the store at `address` with the backup at `source` once the backup is
  /// checked and `confirm` says yes; nil when it says no
  /// (``StoreAddress/restore(from:confirming:)``).
  public static func restore(
    from source: URL, to address: any StoreAddress,
    confirming confirm: () throws(BowTieError) -> Bool
  ) throws(BowTieError) -> BackupSummary? {
    try address.restore(from: source, confirming: confirm)
  }
}

/// What a backup holds that becomes paths and SQL once restored, checked before anything
/// is restored, whatever engine it goes into.
enum BackupContents {
  /// The photo files the backup read through `db` refers to, once it is known that every
  /// name is a photo file name and every undo entry can be undone.
  ///
  /// - Throws: `invalidBackup` (65) naming `source` otherwise.
  static func check(_ db: any SQLConnection, source: URL) throws -> [String] {
    let names = try PhotoReferences.all(in: db)
    if let name = names.first(where: { !PhotoStorage.isFileName($0) }) {
      throw BowTieError.invalidBackup(
        path: source.path,
        reason: "it refers to a photo file named '\(name)', which is not a photo file name")
    }
    try db.forEachRow("SELECT * FROM undoEntry ORDER BY id") { row in
      guard let entry = try? UndoEntry(row: row) else {
        throw BowTieError.invalidBackup(
          path: source.path, reason: "its undo entry \(row["id"]) cannot be read")
      }
      if let problem = entry.problem() {
        throw BowTieError.invalidBackup(
          path: source.path, reason: "its undo entry \(entry.id ?? 0) \(problem)")
      }
    }
    return names
  }
}
