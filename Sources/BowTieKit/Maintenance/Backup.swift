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
  ///
  /// A store of another engine is copied row by row, from one consistent read, into a new
  /// SQLite store: a backup is always a SQLite file, readable with `sqlite3`, and
  /// `restore` puts it into either engine.
  ///
  /// An existing `destination` is refused unless `replacing`, and never when it is this
  /// store's own file. A replaced backup's photo files that the new one does not use are
  /// removed once the new one is in place.
  public func backup(to destination: URL, replacing: Bool = false) throws(BowTieError)
    -> BackupSummary
  {
    var info = stat()
    let exists = lstat(destination.path, &info) == 0
    if exists && !replacing { throw AtomicFile.existing(destination) }
    var own = stat()
    if exists, stat(path, &own) == 0, own.st_dev == info.st_dev, own.st_ino == info.st_ino {
      throw .outputUnwritable(path: destination.path, reason: "it is the store being backed up")
    }
    let summary = try copy(to: destination)
    if exists {
      let (replaced, _) = try SQLiteEngine.open(at: destination)
      defer { try? replaced.close() }
      try replaced.sweepInterruptedPhotoWrites()
    }
    return summary
  }

  /// The backup itself, to a path where nothing is or that may be replaced.
  private func copy(to destination: URL) throws(BowTieError) -> BackupSummary {
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
    guard let sqlite = engine as? SQLiteEngine else {
      return try copyRows(to: destination, through: temporary, photoFolder: photoFolder)
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

  /// The backup of a store of another engine: a new SQLite store at `temporary`, filled
  /// in one transaction from one consistent read of this store, then renamed into place.
  private func copyRows(to destination: URL, through temporary: URL, photoFolder: URL)
    throws(BowTieError) -> BackupSummary
  {
    let copy: SQLiteEngine
    do {
      let config = SQLiteEngine.configuration(busyTimeout: try Self.defaultBusyTimeout)
      copy = SQLiteEngine(
        try DatabaseQueue(path: temporary.path, configuration: config),
        photos: PhotoStorage(directory: photoFolder), displayName: destination.path)
    } catch {
      throw .outputUnwritable(path: destination.path, reason: error.reason)
    }
    defer { try? copy.close() }
    try copy.migrate(lockFile: nil)
    let copied = try StoreTransfer.replace(contentsOf: copy, with: engine)
    // Closed first: the last connection folds the write-ahead log into the file.
    try copy.close()
    guard rename(temporary.path, destination.path) == 0 else {
      throw .outputUnwritable(path: destination.path, reason: POSIXError.current.reason)
    }
    return BackupSummary(path: destination.path, ties: copied.ties, photoFiles: copied.photos)
  }

  /// Replaces the store at `address` with the backup at `source`: a store file as
  /// ``restore(from:to:)-(_,URL)`` does; a server's store in one transaction, row by row,
  /// which creates the store if the database has none yet.
  public static func restore(from source: URL, to address: StoreAddress) throws(BowTieError)
    -> BackupSummary
  {
    if case .file(let url) = address { return try restore(from: source, to: url) }
    let backup = try CheckedBackup(at: source)
    defer { backup.close() }
    var copied: StoreTransfer.Copied?
    let (store, created) = try open(address) { store in
      copied = try StoreTransfer.replace(contentsOf: store.engine, with: backup.engine)
    }
    defer { try? store.closeDatabase() }
    if !created {
      copied = try StoreTransfer.replace(contentsOf: store.engine, with: backup.engine)
      // The photos of the replaced inventory.
      try store.engine.removeUnreferencedPhotos()
    }
    return BackupSummary(
      path: store.path, ties: copied?.ties ?? 0, photoFiles: copied?.photos ?? 0)
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
    let backup = try CheckedBackup(at: source)
    defer { backup.close() }
    let names = backup.photoNames
    do {
      let (store, _) = try SQLiteEngine.open(at: url)
      defer { try? store.close() }
      // Marked first: files copied by a restore that dies before its commit are then
      // swept by the next open, like those of any interrupted write.
      if !names.isEmpty, let marker = store.photos.writingMarker {
        do {
          // A store that never held a photo above the cutoff has no photo folder yet.
          try FileSystem.createDirectories(marker.deletingLastPathComponent())
          try FileSystem.writeAtomically(Data(), to: marker)
          for name in names { try store.photos.copy(name, from: backup.engine.photos) }
        } catch {
          throw BowTieError.outputUnwritable(
            path: url.path, reason: "copying photos: \(error.reason)")
        }
      }
      try store.dbWriter.writeWithoutTransaction { live in
        try backup.engine.dbWriter.read { db in try db.backup(to: live) }
      }
      // Photos of the replaced inventory, and the marker, go now.
      try store.sweepInterruptedPhotoWrites()
      return BackupSummary(
        path: url.path, ties: try BowTieStore(engine: store).count(), photoFiles: names.count)
    } catch let error as BowTieError {
      throw error
    } catch {
      throw SQLiteEngine.storeError(error, path: url.path)
    }
  }
}

/// A backup about to be restored, checked, and open for reading in this bowties' schema.
///
/// The backup itself is never changed: one from an older bowties is migrated in a
/// temporary copy.
private struct CheckedBackup {
  let engine: SQLiteEngine
  /// The photo files it refers to.
  let photoNames: [String]
  private let temporary: URL?

  /// - Throws: `inputUnreadable` (66) for a file that is not a bowties store this version
  ///   can read, or is damaged; `invalidBackup` (65) for one whose photo names or undo
  ///   entries would reach outside the store.
  init(at source: URL) throws(BowTieError) {
    try Self.checkIntegrity(of: source)
    let photos = PhotoStorage(directory: StoreLocation.externalDataDirectory(forStoreAt: source))
    var opened: DatabaseQueue?
    var temporary: URL?
    do {
      let backup = try SQLiteEngine.openForReading(at: source)
      opened = backup
      var engine = SQLiteEngine(backup, photos: photos, displayName: source.path)
      if try !backup.read(Schema.migrator.hasCompletedMigrations) {
        let copy = URL(fileURLWithPath: NSTemporaryDirectory())
          .appendingPathComponent("bowties-restore-\(UUID().text).sqlite")
        temporary = copy
        let queue = try DatabaseQueue(path: copy.path)
        opened = queue
        try backup.backup(to: queue)
        try backup.close()
        engine = SQLiteEngine(queue, photos: photos, displayName: source.path)
        try engine.migrate(lockFile: nil)
      }
      let names = try engine.read { db in try Self.checkContents(db, source: source) }
      self.init(engine: engine, photoNames: names, temporary: temporary)
    } catch {
      try? opened?.close()
      if let temporary { Self.remove(temporary) }
      throw SQLiteEngine.storeError(error, path: source.path)
    }
  }

  private init(engine: SQLiteEngine, photoNames: [String], temporary: URL?) {
    self.engine = engine
    self.photoNames = photoNames
    self.temporary = temporary
  }

  func close() {
    try? engine.close()
    if let temporary { Self.remove(temporary) }
  }

  private static func remove(_ file: URL) {
    for suffix in ["", "-wal", "-shm"] { unlink(file.path + suffix) }
  }

  /// Refuses a file that is not a bowties store this version can read, or is damaged.
  private static func checkIntegrity(of source: URL) throws(BowTieError) {
    let checkup: Checkup
    do {
      checkup = try BowTieStore.checkup(at: source, repairing: false)
    } catch {
      guard case .storeUnreadable(_, let reason) = error else { throw error }
      throw .inputUnreadable(path: source.path, reason: reason)
    }
    // An older bowties' store is fine: it is migrated, in a copy.
    if let problem = checkup.problems.first(where: {
      $0.kind == .integrity || ($0.kind == .schema && !checkup.isOlderSchema)
    }) {
      throw .inputUnreadable(
        path: source.path, reason: "not a usable bowties backup: \(problem.detail)")
    }
  }

  /// The photo files a backup refers to, once it is known that every name is a photo file
  /// name and every undo entry can be undone: what a backup holds becomes paths and SQL.
  private static func checkContents(_ db: any SQLConnection, source: URL) throws -> [String] {
    let names = try PhotoReferences.all(in: db)
    if let name = names.first(where: { !PhotoStorage.isFileName($0) }) {
      throw BowTieError.invalidBackup(
        path: source.path,
        reason: "it refers to a photo file named '\(name)', which is not a photo file name")
    }
    try db.forEachRow("SELECT * FROM undoEntry ORDER BY id") { row in
      if let entry = try? UndoEntry(row: row), let problem = entry.problem() {
        throw BowTieError.invalidBackup(
          path: source.path, reason: "its undo entry \(entry.id ?? 0) \(problem)")
      }
    }
    return names
  }
}
