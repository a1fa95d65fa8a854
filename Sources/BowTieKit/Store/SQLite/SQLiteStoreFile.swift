import BowTieModel
import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#endif

/// A SQLite store's address: its file, and beside it the folder of photos above the
/// external-storage cutoff (``StoreLocation/externalDataDirectory(forStoreAt:)``).
struct SQLiteStoreFile: StoreAddress {
  let url: URL

  var nameForQuestion: String { "the store at \(url.path)" }

  func open(ifMissing populate: (BowTieStore) throws -> Void) throws(BowTieError)
    -> (store: BowTieStore, created: Bool)
  {
    let (engine, created) = try SQLiteEngine.open(at: url, ifMissing: populate)
    return (BowTieStore(engine: engine), created)
  }

  /// A file that does not exist yet is not created by a dry run, and one without a schema
  /// (`touch`, or the header page alone the `sqlite3` shell leaves) is not given a header,
  /// a journal mode or a photo folder by it: either runs on an empty store in memory. A
  /// path that is there but no store to open (a link to nothing) is opened, and refused, as
  /// the command itself would be.
  func storeForDryRun() throws(BowTieError) -> BowTieStore? {
    let isNew = try SQLiteEngine.nothingIsThere(at: url) || SQLiteEngine.hasNoSchema(at: url)
    return isNew ? BowTieStore(engine: try SQLiteEngine.inMemory()) : nil
  }

  /// The file as it is, never created, and upgraded only when repairing
  /// (``SQLiteEngine/checkup(at:repairing:)``).
  func checkup(repairing: Bool) throws -> (store: String, checkup: Checkup) {
    (url.path, try SQLiteEngine.checkup(at: url, repairing: repairing))
  }

  func restore(from source: URL, confirming confirm: () throws(BowTieError) -> Bool)
    throws(BowTieError) -> BackupSummary?
  {
    try SQLiteEngine.restore(from: source, to: url, confirming: confirm)
  }
}

extension SQLiteStoreFile {
  /// The files SQLite keeps under a database's name, by the suffix of their names (the
  /// database, its write-ahead log and index, its rollback journal), and what each is to
  /// a store.
  static let files: [(suffix: String, role: String)] = [
    ("", "the store itself"), ("-wal", "the store's write-ahead log"),
    ("-shm", "the store's shared-memory index"), ("-journal", "the store's rollback journal"),
  ]

  /// The suffixes of ``files``.
  static var fileSuffixes: [String] { files.map(\.suffix) }

  /// Why a file renamed into place at `url` would take the place of a file of the store at
  /// `store`, or nil: when `url` names one of them, through whatever links in its folders,
  /// or is a link to the store, which would then name the new file.
  static func ownFile(_ url: URL, ofStoreAt store: String) -> String? {
    guard let own = realpath(store, nil) else { return nil }
    defer { free(own) }
    let ownPath = String(cString: own)
    var target = stat()
    var storeInfo = stat()
    if stat(url.path, &target) == 0, stat(ownPath, &storeInfo) == 0,
      target.st_dev == storeInfo.st_dev, target.st_ino == storeInfo.st_ino
    {
      return "it is \(files[0].role)"
    }
    let name = url.standardizedFileURL
    guard let folder = realpath(name.deletingLastPathComponent().path, nil) else { return nil }
    defer { free(folder) }
    let path = URL(fileURLWithPath: String(cString: folder))
      .appendingPathComponent(name.lastPathComponent).path
    return files.first { ownPath + $0.suffix == path }.map { "it is \($0.role)" }
  }
}

extension BowTieStore {
  /// Opens the SQLite store file at `url`, creating it when it does not exist.
  ///
  /// A new store is built under a temporary name, filled by `populate`, and linked
  /// into place only when complete, so no process ever sees a half-created store, and
  /// two processes racing to create it end up sharing one.
  ///
  /// - Returns: the store, and whether this call created it.
  public static func open(
    at url: URL, busyTimeout: TimeInterval? = nil,
    ifMissing populate: (BowTieStore) throws -> Void = { _ in }
  ) throws(BowTieError) -> (store: BowTieStore, created: Bool) {
    let (engine, created) = try SQLiteEngine.open(
      at: url, busyTimeout: busyTimeout, ifMissing: populate)
    return (BowTieStore(engine: engine), created)
  }

  /// An empty store in memory: nothing touches the disk; photos stay inline.
  public static func inMemory() throws(BowTieError) -> BowTieStore {
    BowTieStore(engine: try SQLiteEngine.inMemory())
  }
}

// The SQLite store's file: where it is created and linked into place, how it is opened, and
// how it is swept.
extension SQLiteEngine {
  /// Opens the store file at `url`, creating it when it does not exist.
  ///
  /// A new store is built under a temporary name, filled by `populate`, and linked
  /// into place only when complete, so no process ever sees a half-created store, and
  /// two processes racing to create it end up sharing one.
  ///
  /// - Returns: the store, and whether this call created it.
  static func open(
    at url: URL, busyTimeout: TimeInterval? = nil,
    ifMissing populate: (BowTieStore) throws -> Void = { _ in }
  ) throws(BowTieError) -> (engine: SQLiteEngine, created: Bool) {
    _ = try BowTie.colorTransformer()
    let timeout: TimeInterval
    if let busyTimeout {
      timeout = busyTimeout
    } else {
      timeout = try BowTieStore.defaultBusyTimeout
    }
    if try nothingIsThere(at: url),
      let engine = try create(at: url, busyTimeout: timeout, populate: populate)
    {
      return (engine, true)
    }
    return try openExisting(at: url, busyTimeout: timeout, fillingEmpty: populate)
  }

  /// Whether nothing at all is at `url`, not even a link: the one case in which a store is
  /// made there. A path that cannot be looked at (a folder that is a file, a name too long)
  /// is refused here, so a dry run and the command it plans answer it alike.
  static func nothingIsThere(at url: URL) throws(BowTieError) -> Bool {
    var info = stat()
    guard lstat(url.path, &info) != 0 else { return false }
    guard errno == ENOENT else {
      throw .storeUnreadable(path: url.path, reason: POSIXError.current.reason)
    }
    return true
  }

  /// Refuses a path that is no file: a missing one, a directory, a device, a pipe or a
  /// socket, which SQLite would answer with "disk I/O error". A link is followed, as SQLite
  /// follows it; one to nothing is named with where it points, since the path itself is
  /// there to see (`ls` lists it), and no store is made through it: its target may be a disk
  /// not mounted yet.
  static func refuseAllButFile(at url: URL) throws(BowTieError) {
    var info = stat()
    guard stat(url.path, &info) == 0 else {
      let failure = POSIXError.current
      if let link = FileSystem.linkToNothing(at: url) {
        throw .storeUnreadable(
          path: url.path, reason: link + "; bowties makes no new store through a link")
      }
      throw .storeUnreadable(path: url.path, reason: failure.reason)
    }
    guard info.st_mode & S_IFMT != S_IFREG else { return }
    let kind =
      switch info.st_mode & S_IFMT {
      case S_IFDIR: "a directory"
      case S_IFIFO: "a named pipe"
      case S_IFSOCK: "a socket"
      default: "a device"
      }
    throw .storeUnreadable(path: url.path, reason: "it is \(kind), not a store file")
  }

  /// Opens the store file at `url`, which exists.
  ///
  /// A file without a schema (one `touch` made, or the `sqlite3` shell left when it was
  /// given a name that was not there) is a store not made yet, as an empty database is to
  /// the PostgreSQL engine: given `populate`, this builds the store as a missing one is
  /// built and copies it in (``fill(at:busyTimeout:populate:)``), and says it created it.
  private static func openExisting(
    at url: URL, busyTimeout: TimeInterval,
    fillingEmpty populate: (BowTieStore) throws -> Void = { _ in }
  ) throws(BowTieError) -> (engine: SQLiteEngine, created: Bool) {
    try refuseAllButFile(at: url)
    var config = configuration(busyTimeout: busyTimeout)
    // A store the user cannot write still answers show and list.
    config.readonly = access(url.path, W_OK) != 0
    let location = databaseLocation(for: url, readonly: config.readonly)
    let engine: SQLiteEngine
    do {
      engine = SQLiteEngine(
        opened: try DatabaseQueue(path: location.path, configuration: config), at: url,
        unlocked: location.unlocked)
    } catch {
      throw storeError(error, path: url.path)
    }
    // A file this process may not write is not filled: migrating it says why.
    var created = false
    if !config.readonly {
      created = try engine.fillIfEmpty(at: url, busyTimeout: busyTimeout, populate: populate)
    }
    try engine.migrate(lockFile: migrationLock(forStoreAt: url))
    if let marker = engine.photos.writingMarker, access(marker.path, F_OK) == 0, !config.readonly {
      try engine.sweepInterruptedPhotoWrites()
    }
    return (engine, created)
  }

  /// Fills the file with a store when it has no schema, under the migration lock: of
  /// processes that open it together, one fills it and the others find it filled. Looked
  /// at before anything reads the schema through GRDB, whose cache of it would not see the
  /// copy.
  ///
  /// - Returns: whether this call filled it.
  private func fillIfEmpty(
    at url: URL, busyTimeout: TimeInterval, populate: (BowTieStore) throws -> Void
  ) throws(BowTieError) -> Bool {
    guard Self.mayLackSchema(url) else { return false }
    let lock: FileLock
    do {
      guard try dbWriter.read(Schema.isEmpty) else { return false }
      lock = try FileLock(exclusiveAt: Self.migrationLock(forStoreAt: url))
    } catch {
      throw storeError(error)
    }
    defer { lock.unlock() }
    do {
      guard try dbWriter.read(Schema.isEmpty) else { return false }
    } catch {
      throw storeError(error)
    }
    try fill(at: url, busyTimeout: busyTimeout, populate: populate)
    return true
  }

  /// Whether the file at `url` is small enough to have no schema: empty, or its header
  /// page alone, of at most SQLite's largest page size. A store's file is larger (its schema
  /// alone takes 64 KiB at the default page size), and is spared the query, which every
  /// command would pay (docs/performance.md).
  static func mayLackSchema(_ url: URL) -> Bool {
    var info = stat()
    return stat(url.path, &info) == 0 && info.st_size <= 65_536
  }

  /// Whether the file at `url` is a SQLite database with no schema, read as `doctor` reads
  /// a store (``openForReading(at:)``): its header, journal mode included, left as it is.
  /// False for a file that cannot be read so, which opening then reports.
  static func hasNoSchema(at url: URL) -> Bool {
    guard mayLackSchema(url), let (queue, _) = try? openForReading(at: url) else { return false }
    defer { try? queue.close() }
    return (try? queue.read(Schema.isEmpty)) ?? false
  }

  /// Fills this engine's database, which has no schema, with a store built beside it by
  /// `populate`, as a missing store is built (``build(for:busyTimeout:populate:layout:place:)``).
  /// The build is copied in with SQLite's online backup API, in one write transaction, so
  /// other processes see no store or all of it.
  private func fill(
    at url: URL, busyTimeout: TimeInterval, populate: (BowTieStore) throws -> Void
  ) throws(BowTieError) {
    let pageSize: Int
    do {
      pageSize = try dbWriter.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } ?? 4096
    } catch {
      throw Self.storeError(error, path: url.path)
    }
    try Self.build(
      for: url, busyTimeout: busyTimeout, populate: populate, layout: .copied(pageSize: pageSize)
    ) { built throws(BowTieError) in
      do {
        var configuration = Configuration()
        configuration.readonly = true
        let source = try DatabaseQueue(path: built.path, configuration: configuration)
        defer { try? source.close() }
        try dbWriter.writeWithoutTransaction { db in
          try source.read { try $0.copy(into: db) }
          // GRDB's cache of the schema still says there is none.
          db.clearSchemaCache()
        }
      } catch {
        throw Self.storeError(error, path: url.path)
      }
    }
  }

  /// A connection that only reads the store file at `url`, as `doctor` reads a store and
  /// `restore` a backup: no migration, no sweep, no write, and no file left beside it; and,
  /// when it reads without locks, the file as it was (``UnlockedRead``), to check after.
  ///
  /// A read-only connection to a store in WAL mode creates the `-wal` and `-shm` files it
  /// reads through, and cannot remove them when it closes. So where this process may write
  /// the file and no log is there yet, the connection is a writable one that SQLite refuses
  /// writes on (`query_only`): as the last connection, it removes both when it closes.
  /// Otherwise it is read-only (``databaseLocation(for:readonly:)``). The caller closes it.
  static func openForReading(at url: URL) throws -> (queue: DatabaseQueue, unlocked: UnlockedRead?)
  {
    let writable = access(url.path, W_OK) == 0 && access(url.path + "-wal", F_OK) != 0
    var config = configuration(
      busyTimeout: try BowTieStore.defaultBusyTimeout,
      pragmas: writable ? "PRAGMA query_only = ON" : "")
    config.readonly = !writable
    let location = databaseLocation(for: url, readonly: config.readonly)
    return (try DatabaseQueue(path: location.path, configuration: config), location.unlocked)
  }

  /// What to hand SQLite to open the store file at `url`: its path; or, for a read-only
  /// connection of a process that may not write the file, when no log is beside it, a
  /// `file:` URI that opens it as immutable, with the file as it was (``UnlockedRead``).
  ///
  /// Such a connection would otherwise create the `-shm` index SQLite reads through: it
  /// cannot where it may not write the folder (another user's, or a read-only file
  /// system), and SQLite then refuses every read; where it may, the files it leaves,
  /// owned by this user, stop the store's owner from writing. With no log beside it, every
  /// committed change is in the file.
  static func databaseLocation(for url: URL, readonly: Bool)
    -> (path: String, unlocked: UnlockedRead?)
  {
    guard readonly, access(url.path, W_OK) != 0 else { return (url.path, nil) }
    // On a read-only file system no process writes the file, whatever index is left there.
    let readOnlyFileSystem = errno == EROFS
    // Looked at before the logs are: a writer that comes after is noticed by the check.
    guard let unlocked = UnlockedRead(path: url.path), access(url.path + "-wal", F_OK) != 0,
      readOnlyFileSystem || access(url.path + "-shm", F_OK) != 0
    else { return (url.path, nil) }
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    let path = url.path.addingPercentEncoding(withAllowedCharacters: allowed) ?? url.path
    return ("file:\(path)?immutable=1", unlocked)
  }

  /// Removes photo files that no tie and no undo entry refers to, and temporary files.
  ///
  /// Safe only under the write lock, which this takes: every other transaction has then
  /// either committed its rows or rolled back, so an unreferenced file is garbage.
  func sweepInterruptedPhotoWrites() throws(BowTieError) {
    try write(rollingBack: false) { connection, _ in
      for name in photos.allFileNames() where try !PhotoReferences.exist(name, in: connection) {
        photos.remove([name])
      }
      photos.removeTemporaryFiles()
      if let marker = photos.writingMarker { unlink(marker.path) }
    }
  }

  /// Creates and fills a new store, or returns nil when another process created one first.
  private static func create(
    at url: URL, busyTimeout: TimeInterval, populate: (BowTieStore) throws -> Void
  ) throws(BowTieError) -> SQLiteEngine? {
    // link(2) fails if the name exists, which makes creation first-writer-wins.
    func linkIntoPlace(_ built: URL) -> Int32 { link(built.path, url.path) == 0 ? 0 : errno }
    let linkError = try build(
      for: url, busyTimeout: busyTimeout, populate: populate, layout: .linked,
      place: linkIntoPlace)
    if linkError == EEXIST { return nil }
    if linkError != 0 {
      throw .storeNotWritable(path: url.path, reason: POSIXError(errno: linkError).reason)
    }
    // The new name is durable only once the folder's entries are.
    try? FileSystem.synchronize(url.deletingLastPathComponent())
    return try openExisting(at: url, busyTimeout: busyTimeout).engine
  }

  /// How a build's file is laid out for where it goes.
  private enum BuildLayout {
    /// Linked into place, the file is the store: in WAL mode.
    case linked
    /// Copied into a file without a schema, its pages are that file's size: a file in WAL
    /// mode takes no copy of pages of another size.
    case copied(pageSize: Int)
  }

  /// Builds a new store for `url` under a temporary name beside it, filled by `populate`,
  /// laid out for where it goes, and synced, and hands the closed file to `place`, which
  /// puts it, or its contents, where the store goes. The file is removed after.
  private static func build<T>(
    for url: URL, busyTimeout: TimeInterval, populate: (BowTieStore) throws -> Void,
    layout: BuildLayout, place: (URL) throws(BowTieError) -> T
  ) throws(BowTieError) -> T {
    let folder = url.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(
      "\(buildPrefix(for: url))\(UUID().uuidString)")
    // Held until the build ends, so no other process takes the file for abandoned.
    let descriptor: Int32
    do {
      try FileSystem.createDirectories(folder)
      removeAbandonedBuilds(of: url)
      descriptor = Glibc.open(temporary.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { throw POSIXError.current }
      flock(descriptor, LOCK_EX | LOCK_NB)
    } catch {
      throw .storeNotWritable(path: url.path, reason: error.reason)
    }
    // Closing any descriptor of a file drops every fcntl lock the process holds on it,
    // SQLite's included. So the descriptor is closed only when no connection to the file
    // is open: after `place` is done with it, and before the store, which may then be the
    // same file, is opened. Once a connection's shared lock is gone, another process
    // closing its own takes itself for the last and removes the log under this one.
    defer {
      unlink(temporary.path)
      Glibc.close(descriptor)
    }
    do {
      let queue = try DatabaseQueue(
        path: temporary.path,
        configuration: buildingConfiguration(busyTimeout: busyTimeout, layout: layout))
      let engine = SQLiteEngine(opened: queue, at: url)
      try engine.migrate(lockFile: nil)
      try populate(BowTieStore(engine: engine))
      if case .linked = layout {
        try queue.writeWithoutTransaction { db in
          try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
      }
      try queue.close()
      try FileSystem.synchronize(temporary)
    } catch {
      throw storeError(error, path: url.path)
    }
    return try place(temporary)
  }

  /// The name a new store is built under, before a unique suffix: hidden, and beside
  /// the store so that `link(2)` can put it in place.
  private static func buildPrefix(for url: URL) -> String {
    ".\(url.lastPathComponent).new-"
  }

  /// Removes what a killed process left while building a store at `url`: temporary
  /// stores (and their journals) that no live process holds. An empty file less than a
  /// minute old is left alone: its builder may be between creating it and locking it.
  ///
  /// A build killed after its transaction committed, before its file was linked into
  /// place, has already removed the photo-writes marker, yet its photo files belong to no
  /// store: the marker is set again, so that the store's first open sweeps them.
  static func removeAbandonedBuilds(of url: URL) {
    let folder = url.deletingLastPathComponent()
    let prefix = buildPrefix(for: url)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      return
    }
    let cutoff = time(nil) - 60
    var removedBuild = false
    for name in names.sorted() where name.hasPrefix(prefix) {
      let file = folder.appendingPathComponent(name)
      var info = stat()
      guard lstat(file.path, &info) == 0, info.st_size > 0 || info.st_mtim.tv_sec < cutoff
      else { continue }
      let suffix = SQLiteStoreFile.fileSuffixes.first { !$0.isEmpty && name.hasSuffix($0) }
      let build = suffix.map { folder.appendingPathComponent(String(name.dropLast($0.count))) }
      if isHeld(build ?? file) { continue }
      if unlink(file.path) == 0, suffix == nil { removedBuild = true }
    }
    let photos = PhotoStorage(directory: StoreLocation.externalDataDirectory(forStoreAt: url))
    if removedBuild, let directory = photos.directory, let marker = photos.writingMarker,
      access(directory.path, F_OK) == 0
    {
      try? FileSystem.writeAtomically(Data(), to: marker)
    }
  }

  /// Whether a live process holds the build lock on `file`; false when it is gone.
  private static func isHeld(_ file: URL) -> Bool {
    let descriptor = Glibc.open(file.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { Glibc.close(descriptor) }
    return flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
  }

  /// How a new store is built under its temporary name, which no other process opens
  /// and which is thrown away if anything fails: no journal at all, no syncs until the
  /// finished file is synced once, and a cache big enough that a large seed's index pages
  /// are not read back. The file is switched to WAL before it is linked into place; one to
  /// be copied takes the page size of the file it goes into.
  ///
  /// Without a journal SQLite can undo neither a transaction nor a statement, and it
  /// need not: whatever fails, killed or thrown (a dry run's rollback included), the file
  /// is unlinked, never opened again. A journal would only cost: WAL writes every page
  /// twice, and even a journal in memory gives each seeded row's `INSERT` (it fires
  /// triggers that may abort) a statement journal of the pages it touches
  /// (docs/performance.md, "Seeding").
  private static func buildingConfiguration(busyTimeout: TimeInterval, layout: BuildLayout)
    -> Configuration
  {
    var pragmas = "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -65536"
    if case .copied(let pageSize) = layout {
      pragmas = "PRAGMA page_size = \(pageSize); " + pragmas
    }
    return configuration(busyTimeout: busyTimeout, pragmas: pragmas)
  }
}
