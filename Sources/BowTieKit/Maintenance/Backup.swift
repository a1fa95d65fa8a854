import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#endif

/// What a backup or a restore copied.
public struct BackupSummary: Sendable, Codable, Equatable {
  public var path: String
  public var ties: Int
  public var photoFiles: Int
}

extension BowTieStore {
  /// Writes a consistent copy of the store to `destination`, with its external photos
  /// beside it as a store keeps them, so the copy is itself a store (`--store PATH`).
  ///
  /// The copy is taken with SQLite's online backup API while this process holds the
  /// write lock: other processes keep reading, and their writes wait (up to the busy
  /// timeout) rather than change the database or delete a photo file mid-copy. The copy
  /// is written under a temporary name and renamed into place once complete, photos
  /// first, so a failed or killed backup leaves nothing that looks like a backup.
  public func backup(to destination: URL) throws(BowTieError) -> BackupSummary {
    guard let sqlite = engine as? SQLiteEngine else {
      throw .storeUnreadable(path: path, reason: "a backup of this store is not supported yet")
    }
    var info = stat()
    guard lstat(destination.path, &info) != 0 else {
      throw .outputUnwritable(
        path: destination.path, reason: "it already exists; choose a new path or remove it")
    }
    let folder = destination.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(
      ".\(destination.lastPathComponent).backup-\(UUID().text)")
    let photoFolder = StoreLocation.externalDataDirectory(forStoreAt: destination)
    do {
      try FileSystem.createDirectories(folder)
      // Private, as the store is: SQLite keeps the mode of a file that exists.
      let descriptor = Glibc.open(temporary.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { throw POSIXError.current }
      Glibc.close(descriptor)
    } catch {
      throw .outputUnwritable(path: destination.path, reason: error.reason)
    }
    defer {
      unlink(temporary.path)
      unlink(temporary.path + "-wal")
      unlink(temporary.path + "-shm")
    }
    // A second connection holds the write lock while this one reads its snapshot: the
    // backup API cannot read through a connection that is itself in a write transaction.
    do {
      let config = SQLiteEngine.configuration(
        busyTimeout: try Self.defaultBusyTimeout, pragmas: "")
      let lock = try DatabaseQueue(path: path, configuration: config)
      defer { try? lock.close() }
      return try lock.writeWithoutTransaction { lockDB in
        var summary: BackupSummary?
        try lockDB.inTransaction(.immediate) {
          summary = try Self.copy(
            sqlite, to: destination, through: temporary, photoFolder: photoFolder)
          return .rollback
        }
        return summary!
      }
    } catch let error as BowTieError {
      throw error
    } catch {
      throw SQLiteEngine.storeError(error, path: path)
    }
  }

  /// The copy itself, run while the write lock is held.
  private static func copy(
    _ sqlite: SQLiteEngine, to destination: URL, through temporary: URL, photoFolder: URL
  ) throws -> BackupSummary {
    try sqlite.dbWriter.read { db in
      do {
        let copy = try DatabaseQueue(path: temporary.path)
        try copy.writeWithoutTransaction { copyDB in try db.backup(to: copyDB) }
        try copy.close()
      } catch {
        throw BowTieError.outputUnwritable(path: destination.path, reason: error.reason)
      }
      // A name that is not a photo file's is never made into a path; doctor reports it.
      let names = try PhotoReferences.all(in: SQLiteConnection(db: db))
        .filter(PhotoStorage.isFileName)
      let copies = PhotoStorage(directory: photoFolder)
      do {
        for name in names {
          try copies.copy(name, from: sqlite.photos)
        }
      } catch {
        throw BowTieError.outputUnwritable(
          path: destination.path, reason: "copying photos: \(error.reason)")
      }
      guard rename(temporary.path, destination.path) == 0 else {
        throw BowTieError.outputUnwritable(
          path: destination.path, reason: POSIXError.current.reason)
      }
      return BackupSummary(
        path: destination.path,
        ties: try Int.fetchOne(db, sql: "SELECT count(*) FROM bowTie") ?? 0,
        photoFiles: names.count)
    }
  }

  /// Replaces the store at `url` with the backup at `source`, photos included.
  ///
  /// The backup is checked first (SQLite's integrity check, a bowties schema this
  /// version can read, and photo file names and undo entries that are safe to use) and
  /// never modified. Its database is copied into the live store with the online backup
  /// API, which takes the store's locks like any writer, so processes using the store see
  /// either the old inventory or the restored one. The backup's photo files are put in
  /// place before, under the photo-writes marker, so an interrupted restore leaves the old
  /// store with at most some files that the next open sweeps away.
  public static func restore(from source: URL, to url: URL) throws(BowTieError) -> BackupSummary {
    let checkup: Checkup
    do {
      checkup = try self.checkup(at: source, repairing: false)
    } catch {
      guard case .storeUnreadable(_, let reason) = error else { throw error }
      throw .inputUnreadable(path: source.path, reason: reason)
    }
    if let problem = checkup.problems.first(where: { $0.kind == .integrity || $0.kind == .schema })
    {
      throw .inputUnreadable(
        path: source.path, reason: "not a usable bowties backup: \(problem.detail)")
    }
    let sourcePhotos = PhotoStorage(
      directory: StoreLocation.externalDataDirectory(forStoreAt: source))
    do {
      let backup = try SQLiteEngine.openForReading(at: source)
      defer { try? backup.close() }
      let names = try backup.read { db in
        try checkedForRestore(SQLiteConnection(db: db), source: source)
      }
      let (store, _) = try SQLiteEngine.open(at: url)
      defer { try? store.close() }
      // Marked first: files copied by a restore that dies before its commit are then
      // swept by the next open, like those of any interrupted write.
      if !names.isEmpty, let marker = store.photos.writingMarker {
        do {
          // A store that never held a photo above the cutoff has no photo folder yet.
          try FileSystem.createDirectories(marker.deletingLastPathComponent())
          try FileSystem.writeAtomically(Data(), to: marker)
          for name in names { try store.photos.copy(name, from: sourcePhotos) }
        } catch {
          throw BowTieError.outputUnwritable(
            path: url.path, reason: "copying photos: \(error.reason)")
        }
      }
      try store.dbWriter.writeWithoutTransaction { live in
        try backup.read { db in try db.backup(to: live) }
      }
      // Photos of the replaced inventory, and the marker, go now.
      try store.sweepInterruptedPhotoWrites()
      // An older backup is brought up to this bowties' schema.
      try store.migrate(lockFile: SQLiteEngine.migrationLock(forStoreAt: url))
      return BackupSummary(
        path: url.path, ties: try BowTieStore(engine: store).count(), photoFiles: names.count)
    } catch let error as BowTieError {
      throw error
    } catch {
      throw SQLiteEngine.storeError(error, path: url.path)
    }
  }

  /// The photo files a backup refers to, once it is known that every name is a photo file
  /// name and every undo entry can be undone: what a backup holds becomes paths and SQL.
  private static func checkedForRestore(_ db: any SQLConnection, source: URL) throws -> [String] {
    let names = try PhotoReferences.all(in: db)
    if let name = names.first(where: { !PhotoStorage.isFileName($0) }) {
      throw BowTieError.invalidBackup(
        path: source.path,
        reason: "it refers to a photo file named '\(name)', which is not a photo file name")
    }
    try db.forEachRow("SELECT * FROM undoEntry ORDER BY id", []) { row in
      if let entry = try? UndoEntry(row: row), let problem = entry.problem() {
        throw BowTieError.invalidBackup(
          path: source.path, reason: "its undo entry \(entry.id ?? 0) \(problem)")
      }
    }
    return names
  }
}
