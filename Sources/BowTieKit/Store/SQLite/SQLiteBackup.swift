import BowTieModel
import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#endif

// Backups are SQLite store files, whatever the engine of the store backed up: written
// here, from a SQLite store with SQLite's backup API, from any other engine row by row;
// and restored into a SQLite store with the backup API.

extension SQLiteEngine {
  /// The copy is taken with SQLite's online backup API while this process holds the
  /// write lock: other processes keep reading, and their writes wait (up to the busy
  /// timeout) rather than change the database or delete a photo file mid-copy.
  func backup(to destination: URL, replacing: Bool) throws(BowTieError) -> BackupSummary {
    try BackupFile.write(to: destination, replacing: replacing, of: displayName) {
      temporary, photoFolder throws(BowTieError) in
      // A second connection holds the write lock while this one reads its snapshot: the
      // backup API cannot read through a connection that is itself in a write transaction.
      // A user who may not write the store takes no lock (it would leave the store's index
      // files behind, owned by this user): the copy is checked instead (``UnlockedRead``).
      do {
        if unlocked != nil {
          return try copy(to: destination, through: temporary, photoFolder: photoFolder)
        }
        let config = Self.configuration(
          busyTimeout: try BowTieStore.defaultBusyTimeout, pragmas: "")
        let lock = try DatabaseQueue(path: displayName, configuration: config)
        defer { try? lock.close() }
        return try lock.writeWithoutTransaction { lockDB in
          var summary: BackupSummary?
          try lockDB.inTransaction(.immediate) {
            summary = try copy(to: destination, through: temporary, photoFolder: photoFolder)
            return .rollback
          }
          return summary!
        }
      } catch let error as BowTieError {
        throw error
      } catch {
        throw storeError(error)
      }
    }
  }

  /// The copy itself, run while the write lock is held (or, read without locks, checked
  /// before it takes the destination's name).
  private func copy(to destination: URL, through temporary: URL, photoFolder: URL) throws
    -> BackupSummary
  {
    try dbWriter.read { db in
      do {
        let copy = try DatabaseQueue(path: temporary.path)
        try copy.writeWithoutTransaction { copyDB in try db.copy(into: copyDB) }
        try copy.close()
      } catch {
        throw BowTieError.outputUnwritable(
          path: destination.path, reason: SQLiteEngine.outputReason(error))
      }
      // A name that is not a photo file's is never made into a path; doctor reports it.
      let names = try PhotoReferences.all(in: SQLiteConnection(db: db))
        .filter(PhotoStorage.isFileName)
      // A photo the store lost is the store's problem (74), found before anything is
      // made beside the destination.
      if let lost = names.lazy.compactMap(photos.missingFile(named:)).first {
        throw BowTieError.storeUnreadable(
          path: displayName,
          reason: "its photo file \(lost) is missing; bowties doctor names the tie")
      }
      let copies = PhotoStorage(directory: photoFolder)
      do {
        for name in names {
          try copies.copy(name, from: photos)
        }
      } catch {
        throw BowTieError.outputUnwritable(
          path: destination.path, reason: "copying photos: \(error.reason)")
      }
      try unlocked?.check()
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

  /// A copy in memory, made with SQLite's backup API.
  func inMemoryCopy() throws(BowTieError) -> BowTieStore {
    _ = try BowTie.colorTransformer()
    let engine: SQLiteEngine
    do {
      let copy = try DatabaseQueue()
      try dbWriter.copy(into: copy)
      try unlocked?.check()
      engine = SQLiteEngine(copy, photos: PhotoStorage(directory: nil), displayName: ":memory:")
    } catch {
      throw Self.storeError(error, path: ":memory:")
    }
    try engine.migrate(lockFile: nil)
    return BowTieStore(engine: engine)
  }

  /// Replaces the store at `url` with the backup at `source`, photos included, creating
  /// it when there is none, once `confirm` says yes.
  ///
  /// The backup is checked first (``BackupFile/init(checking:)``) and never modified. Its
  /// database is copied into the live store with the online backup API, which takes the
  /// store's locks like any writer, so processes using the store see either the old
  /// inventory or the restored one. The backup's photo files are put in place before,
  /// under the photo-writes marker, so an interrupted restore leaves the old store with
  /// at most some files that the next open sweeps away.
  static func restore(
    from source: URL, to url: URL, confirming confirm: () throws(BowTieError) -> Bool
  ) throws(BowTieError) -> BackupSummary? {
    let backup = try BackupFile(checking: source)
    defer { backup.close() }
    guard try confirm() else { return nil }
    let names = backup.photoNames
    do {
      let (store, _) = try open(at: url)
      defer { try? store.close() }
      // A store this process cannot write (read-only to it, or its file immutable) is
      // refused before its photo folder gets the backup's photos, which nothing would
      // sweep until a command could write it.
      if store.dbWriter.configuration.readonly {
        let reason = access(url.path, W_OK) != 0 ? POSIXError.current.reason : "it is read-only"
        throw BowTieError.storeNotWritable(path: url.path, reason: reason)
      }
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
      let source = try backup.pages(sizedLike: store.dbWriter)
      defer { source.remove() }
      try store.dbWriter.writeWithoutTransaction { live in
        try source.reader.read { db in try db.copy(into: live) }
      }
      // Photos of the replaced inventory, and the marker, go now.
      try store.sweepInterruptedPhotoWrites()
      return BackupSummary(
        path: url.path, ties: try BowTieStore(engine: store).count(), photoFiles: names.count)
    } catch let error as BowTieError {
      throw error
    } catch {
      throw storeError(error, path: url.path)
    }
  }
}

extension StoreEngine {
  /// A store of an engine without a way of its own is copied row by row, from one
  /// consistent read of it, into a new SQLite store, in one transaction.
  public func backup(to destination: URL, replacing: Bool) throws(BowTieError) -> BackupSummary {
    try BackupFile.write(to: destination, replacing: replacing, of: displayName) {
      temporary, photoFolder throws(BowTieError) in
      let copy: SQLiteEngine
      do {
        let config = SQLiteEngine.configuration(busyTimeout: try BowTieStore.defaultBusyTimeout)
        copy = SQLiteEngine(
          try DatabaseQueue(path: temporary.path, configuration: config),
          photos: PhotoStorage(directory: photoFolder), displayName: destination.path)
      } catch {
        throw .outputUnwritable(
          path: destination.path, reason: SQLiteEngine.outputReason(error))
      }
      defer { try? copy.close() }
      let copied: StoreTransfer.Copied
      do throws(BowTieError) {
        try copy.migrate(lockFile: nil)
        copied = try StoreTransfer.replace(contentsOf: copy, with: self)
        // Closed first: the last connection folds the write-ahead log into the file.
        try copy.close()
      } catch {
        // The copy is the command's output, not a store: a full disk there is 73.
        switch error {
        case .storeNotWritable(let path, let reason) where path == destination.path,
          .storeUnreadable(let path, let reason) where path == destination.path:
          throw .outputUnwritable(path: path, reason: reason)
        default: throw error
        }
      }
      guard rename(temporary.path, destination.path) == 0 else {
        throw .outputUnwritable(path: destination.path, reason: POSIXError.current.reason)
      }
      return BackupSummary(path: destination.path, ties: copied.ties, photoFiles: copied.photos)
    }
  }

  /// Only a SQLite store is copied into memory: nothing else needs it.
  public func inMemoryCopy() throws(BowTieError) -> BowTieStore {
    throw .storeUnreadable(path: displayName, reason: "only a SQLite store is copied into memory")
  }
}

extension StoreAddress {
  /// The backup is restored into a store of an engine without a way of its own in one
  /// transaction, row by row, which creates the store if there is none yet; the photos of
  /// the replaced inventory go after.
  public func restore(from source: URL, confirming confirm: () throws(BowTieError) -> Bool)
    throws(BowTieError) -> BackupSummary?
  {
    let backup = try BackupFile(checking: source)
    defer { backup.close() }
    guard try confirm() else { return nil }
    var copied: StoreTransfer.Copied?
    let (store, created) = try open { store in
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
}

/// A backup: a SQLite store file, written by ``write(to:replacing:of:copying:)``, or checked
/// and open for reading in this bowties' schema, to be restored.
///
/// The backup itself is never changed: one from an older bowties is migrated in a
/// temporary copy.
struct BackupFile {
  let engine: SQLiteEngine
  /// The photo files it refers to.
  let photoNames: [String]
  private let temporary: URL?

  /// Writes a backup to `destination` with `copy`, which fills a store at the temporary
  /// path it is given, photos in the photo folder it is given, and renames it into place.
  /// An existing `destination` is refused unless `replacing`, and never when it is the
  /// store `store` itself; a replaced backup's photos the new one does not use go after.
  static func write(
    to destination: URL, replacing: Bool, of store: String,
    copying copy: (_ temporary: URL, _ photoFolder: URL) throws(BowTieError) -> BackupSummary
  ) throws(BowTieError) -> BackupSummary {
    var info = stat()
    let exists = lstat(destination.path, &info) == 0
    let isLink = exists && info.st_mode & S_IFMT == S_IFLNK
    if exists, !isLink, let reason = refusal(of: info.st_mode) {
      throw .outputUnwritable(path: destination.path, reason: reason)
    }
    // Before "it already exists": --force would not make the store's own file a backup.
    // Named first for a link: a link to the store is refused as the store.
    if let reason = SQLiteStoreFile.ownFile(destination, ofStoreAt: store)
      ?? (isLink ? refusal(of: info.st_mode) : nil)
    {
      throw .outputUnwritable(path: destination.path, reason: reason)
    }
    if exists && !isLink && !replacing { throw AtomicFile.existing(destination) }
    let folder = destination.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(
      ".\(destination.lastPathComponent).backup-\(UUID().text)")
    do {
      try FileSystem.createDirectories(folder)
      // Private, as the store is: SQLite keeps the mode of a file that exists.
      let descriptor = Glibc.open(temporary.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { throw POSIXError.current }
      Glibc.close(descriptor)
    } catch {
      throw .outputUnwritable(path: destination.path, reason: error.reason)
    }
    let summary: BackupSummary
    do {
      defer { remove(temporary) }
      summary = try copy(temporary, StoreLocation.externalDataDirectory(forStoreAt: destination))
    }
    if exists {
      let (replaced, _) = try SQLiteEngine.open(at: destination)
      defer { try? replaced.close() }
      try replaced.sweepInterruptedPhotoWrites()
    }
    return summary
  }

  /// Why a backup does not go where something of kind `mode` is, with `--force` or not: a
  /// backup is a store file of its own, renamed into place, which would put a file where a
  /// folder, a device or a pipe was, or a link (its photos' folder is named for the path).
  private static func refusal(of mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: "it is a folder; name the backup file, in it or elsewhere"
    case S_IFLNK: "it is a link; a backup is written as a file of its own, not through a link"
    default: "a backup is a store file, written whole, not to a terminal, a pipe or a device"
    }
  }

  /// Opens the backup at `source` for reading, once it is known to be a bowties store this
  /// version can read, and what it holds safe to restore.
  ///
  /// - Throws: `inputUnreadable` (66) for a file that is not a bowties store this version
  ///   can read, is damaged, or has a schema bowties did not make; `invalidBackup` (65) for
  ///   one holding anything else `doctor` reports, such as photo names or undo entries that
  ///   would reach outside the store.
  init(checking source: URL) throws(BowTieError) {
    let isOlder = try Self.checkIntegrity(of: source)
    let photos = PhotoStorage(directory: StoreLocation.externalDataDirectory(forStoreAt: source))
    var opened: DatabaseQueue?
    var temporary: URL?
    do {
      let (backup, unlocked) = try SQLiteEngine.openForReading(at: source)
      opened = backup
      var engine = SQLiteEngine(backup, photos: photos, displayName: source.path)
      // A file read without locks is copied before it is restored, and the copy restored
      // once the file is known to have stayed as it was while it was copied.
      if try unlocked != nil || backup.read({ db in try Schema.state(db) }) != .current {
        let copy = URL(fileURLWithPath: NSTemporaryDirectory())
          .appendingPathComponent("bowties-restore-\(UUID().text).sqlite")
        temporary = copy
        let queue = try DatabaseQueue(path: copy.path)
        opened = queue
        try backup.copy(into: queue)
        try backup.close()
        try unlocked?.check()
        engine = SQLiteEngine(queue, photos: photos, displayName: source.path)
        try engine.migrate(lockFile: nil)
      }
      // An older store's rows are checked once it is upgraded, as doctor checks them.
      if isOlder {
        var contents = Checkup()
        try BowTieStore(engine: engine).checkContents(&contents, repairing: false)
        try Self.refuse(contents, source: source)
      }
      let names = try engine.read { db in try BackupContents.check(db, source: source) }
      self.init(engine: engine, photoNames: names, temporary: temporary)
    } catch {
      try? opened?.close()
      if let temporary { Self.remove(temporary) }
      throw SQLiteEngine.storeError(error, path: source.path)
    }
  }

  /// The backup's database in pages of the size `live`'s are: SQLite copies a database
  /// into one in WAL mode, as every store is, only page for page, and refuses another size
  /// as "attempt to write a readonly database" (a backup `sqlite3` vacuumed with another
  /// `page_size`). Such a backup is copied first into a file of that page size, which
  /// `remove()` removes.
  func pages(sizedLike live: any DatabaseWriter) throws -> (
    reader: any DatabaseReader, remove: () -> Void
  ) {
    func pageSize(_ database: any DatabaseReader) throws -> Int? {
      try database.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
    }
    guard let size = try pageSize(live), try pageSize(engine.dbWriter) != size else {
      return (engine.dbWriter, {})
    }
    let copy = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("bowties-restore-\(UUID().text).sqlite")
    do {
      let queue = try DatabaseQueue(path: copy.path)
      try engine.dbWriter.copy(into: queue)
      try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA page_size = \(size)")
        try db.execute(sql: "VACUUM")
      }
      let remove = {
        try? queue.close()
        Self.remove(copy)
      }
      return (queue, remove)
    } catch {
      Self.remove(copy)
      throw error
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

  /// Removes a store file and its journals.
  private static func remove(_ file: URL) {
    for suffix in SQLiteStoreFile.fileSuffixes { unlink(file.path + suffix) }
  }

  /// Refuses a file that is not a bowties store this version can read, is damaged, or holds
  /// anything `doctor` reports; returns whether its schema is an older bowties', whose rows
  /// are checked once it is upgraded.
  private static func checkIntegrity(of source: URL) throws(BowTieError) -> Bool {
    let checkup: Checkup
    do {
      checkup = try SQLiteEngine.checkup(at: source, repairing: false)
    } catch {
      guard case .storeUnreadable(_, let reason) = error else { throw error }
      throw .inputUnreadable(path: source.path, reason: reason)
    }
    if checkup.isEmptyFile {
      throw .inputUnreadable(
        path: source.path,
        reason: "not a usable bowties backup: an empty SQLite file, no store in it")
    }
    try refuse(checkup, source: source)
    return checkup.isOlderSchema
  }

  /// Refuses a backup in which `checkup` found a problem: what makes it no usable store with
  /// 66, anything else with 65, naming the first. An older schema is no problem (it is
  /// upgraded, in a copy), nor a photo file no tie uses (only the photos the ties and undo
  /// entries name are restored), nor a color that cannot be decoded (the store it came from
  /// had it too, and every command but `edit --color` shows that tie without it).
  private static func refuse(_ checkup: Checkup, source: URL) throws(BowTieError) {
    let problems = checkup.problems.filter {
      ![.orphanedPhoto, .color].contains($0.kind)
        && !($0.kind == .schema && checkup.isOlderSchema)
    }
    let unusable: Set<Checkup.Problem.Kind> = [.integrity, .schema, .schemaObject]
    let first = problems.first(where: { unusable.contains($0.kind) }) ?? problems.first
    guard let problem = first else { return }
    let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
    if unusable.contains(problem.kind) {
      throw .inputUnreadable(
        path: source.path, reason: "not a usable bowties backup: \(problem.detail)\(more)")
    }
    let subject = problem.subject.map { "\($0): " } ?? ""
    throw .invalidBackup(
      path: source.path, reason: "doctor reports \(subject)\(problem.detail)\(more)")
  }

}
