import BowTieModel
import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#endif

/// The embedded engine: a SQLite file, GRDB's connection to it, and beside it the folder
/// of photos above the external-storage cutoff (or an in-memory database, its photos all
/// inline).
///
/// Every write is one `IMMEDIATE` transaction, so a cron job and a shell, or fifty `wear`
/// processes, share one store without losing an update.
struct SQLiteEngine: StoreEngine {
  let dbWriter: any DatabaseWriter
  let photos: PhotoStorage
  let displayName: String
  /// Set when the connection reads the file without SQLite's locks: what each read is
  /// checked against.
  let unlocked: UnlockedRead?

  var dialect: any SQLDialect { SQLiteDialect() }

  init(
    _ dbWriter: any DatabaseWriter, photos: PhotoStorage, displayName: String,
    unlocked: UnlockedRead? = nil
  ) {
    self.dbWriter = dbWriter
    self.photos = photos
    self.displayName = displayName
    self.unlocked = unlocked
  }

  /// A connection to the store file at `url`, as it is: no migration, no sweep.
  init(opened dbWriter: any DatabaseWriter, at url: URL, unlocked: UnlockedRead? = nil) {
    self.init(
      dbWriter,
      photos: PhotoStorage(directory: StoreLocation.externalDataDirectory(forStoreAt: url)),
      displayName: url.path, unlocked: unlocked)
  }

  /// An empty store in memory, migrated: its photos stay inline.
  static func inMemory() throws(BowTieError) -> SQLiteEngine {
    _ = try BowTie.colorTransformer()
    let engine: SQLiteEngine
    do {
      engine = SQLiteEngine(
        try DatabaseQueue(), photos: PhotoStorage(directory: nil), displayName: ":memory:")
    } catch {
      throw storeError(error, path: ":memory:")
    }
    try engine.migrate(lockFile: nil)
    return engine
  }

  // MARK: - Access

  func read<T>(_ body: (any SQLConnection) throws -> T) throws(BowTieError) -> T {
    do {
      let result = try dbWriter.read { db in
        try db.namingSystemErrors { try body(SQLiteConnection(db: db)) }
      }
      try unlocked?.check()
      return result
    } catch {
      // Whatever failed, a file rewritten under the read is the cause to report.
      try unlocked?.check()
      throw storeError(error)
    }
  }

  /// Photo files that `body` wrote are removed again, still under the write lock, if the
  /// transaction fails or is rolled back; photo files it stopped referring to are removed
  /// after the commit, in a second transaction, if nothing refers to them any more.
  func write<T>(
    rollingBack: Bool, _ body: (any SQLConnection, any PhotoWriter) throws -> T
  ) throws(BowTieError) -> T {
    let changes = PhotoFileChanges(photos: photos)
    defer {
      if changes.markedWriting, let marker = photos.writingMarker { unlink(marker.path) }
    }
    do {
      let result = try dbWriter.writeWithoutTransaction { db in
        var result: T?
        try db.namingSystemErrors {
          try db.inTransaction(.immediate) {
            do {
              result = try body(SQLiteConnection(db: db), changes)
            } catch {
              photos.remove(changes.created)
              throw error
            }
            guard rollingBack else { return .commit }
            photos.remove(changes.created)
            changes.released.removeAll()
            return .rollback
          }
        }
        guard let result else { throw BowTieError.storeUnreadable(path: "", reason: "no result") }
        return result
      }
      if !changes.released.isEmpty {
        try dbWriter.write { db in
          let connection = SQLiteConnection(db: db)
          for name in changes.released where try !PhotoReferences.exist(name, in: connection) {
            photos.remove([name])
          }
        }
      }
      return result
    } catch {
      throw storeError(error)
    }
  }

  func readPhoto(_ name: String, expectedSize: Int?, tie: String) throws(BowTieError) -> Data {
    try photos.read(name, expectedSize: expectedSize, tie: tie)
  }

  func photoProblem(_ name: String, expectedSize: Int?, tie: String) -> BowTieError? {
    photos.problem(with: name, expectedSize: expectedSize, tie: tie)
  }

  func keptPhotoNames() throws(BowTieError) -> [String] {
    photos.folderEntries()
  }

  func removeUnreferencedPhotos() throws(BowTieError) {
    try sweepInterruptedPhotoWrites()
  }

  /// Closes the connection, as SQLite wants before a process ends: the last connection to
  /// a store folds its write-ahead log back into the file and removes it.
  func close() throws(BowTieError) {
    do {
      try dbWriter.close()
    } catch {
      throw storeError(error)
    }
  }

  func ownFile(_ url: URL) -> String? {
    SQLiteStoreFile.ownFile(url, ofStoreAt: displayName)
  }
}

// MARK: - Photo files

/// What one write transaction did to external photo files: the SQLite engine's
/// ``PhotoWriter``.
final class PhotoFileChanges: PhotoWriter, @unchecked Sendable {
  // Only touched inside one write transaction, on the writer's queue.
  let photos: PhotoStorage
  var created: [String] = []
  var released: Set<String> = []
  /// Whether this transaction created the photo-writes marker, and must remove it.
  var markedWriting = false

  init(photos: PhotoStorage) {
    self.photos = photos
  }

  func isExternal(byteCount: Int) -> Bool {
    photos.isExternal(byteCount: byteCount)
  }

  func store(_ data: Data) throws -> String {
    let (name, created) = try photos.write(data, self)
    if created { self.created.append(name) }
    return name
  }

  func release(_ name: String) {
    released.insert(name)
  }
}
