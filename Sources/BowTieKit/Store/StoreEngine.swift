import BowTieModel
import Foundation

/// One engine's open store: its database, its transactions, and the place its large photos
/// live. ``BowTieStore`` runs every command on one, with SQL both engines read; what an
/// engine must do its own way (transactions, errors, locks, photo storage, its dialect,
/// copies of the whole store) is here. How a store is found and opened is its
/// ``StoreAddress``.
///
/// Two engines: SQLite, a file and a photo folder beside it (`Store/SQLite/`); and a
/// PostgreSQL server, photos in a table (the BowTiePostgres module).
public protocol StoreEngine: Sendable {
  /// The SQL this engine says its own way.
  var dialect: any SQLDialect { get }

  /// The store as messages name it: a file's path, or a URI with its password masked.
  var displayName: String { get }

  // A failure of `read` or `write` is the store's error, naming the store
  // (``BowTieError/fillInStorePath(_:)`` for one `body` raised without knowing it): the
  // engine's, the one place that is done.

  /// Runs `body` in one consistent read.
  func read<T>(_ body: (any SQLConnection) throws -> T) throws(BowTieError) -> T

  /// Runs `body` as one write transaction, and commits it; with `rollingBack`, rolls it
  /// back instead (a dry run).
  ///
  /// What a command reads to change, nobody else changes before it commits: the
  /// transaction holds the store's write lock from its start, or locks rows as they are
  /// read (``SQLDialect/lockingRead``).
  func write<T>(rollingBack: Bool, _ body: (any SQLConnection, any PhotoWriter) throws -> T)
    throws(BowTieError) -> T

  /// The bytes of the photo kept outside its row under `name`, checked against the name
  /// (its SHA-256) and `expectedSize`; `tie` names the tie in messages.
  func readPhoto(_ name: String, expectedSize: Int?, tie: String) throws(BowTieError) -> Data

  /// What is wrong with the photo `name`, or nil when it is there at `expectedSize`:
  /// cheaper than ``readPhoto(_:expectedSize:tie:)``, for listings.
  func photoProblem(_ name: String, expectedSize: Int?, tie: String) -> BowTieError?

  /// The names of what is kept where photos outside rows live: the photos' content names,
  /// and anything else found there (a file bowties did not write).
  func keptPhotoNames() throws(BowTieError) -> [String]

  /// Removes the photos nothing refers to, and what interrupted photo writes left.
  func removeUnreferencedPhotos() throws(BowTieError)

  /// Writes a consistent copy of the store, photos included, to `destination`: a new
  /// SQLite store file, which `--store` opens and `restore` puts back into either engine
  /// (``BowTieStore/backup(to:replacing:)``). An engine without a way of its own copies its
  /// rows from one consistent read (the default).
  func backup(to destination: URL, replacing: Bool) throws(BowTieError) -> BackupSummary

  /// A copy of the store in memory, its photos inline: how the fuzzer starts every run
  /// from the same store without seeding it again. An engine without a way of its own
  /// copies its rows (the default).
  func inMemoryCopy() throws(BowTieError) -> BowTieStore

  /// Closes the connection. The store must not be used afterwards.
  func close() throws(BowTieError)

  /// Why a file written at `url` would replace one of the store's own files, or nil. Every
  /// file bowties writes is renamed into place: `--force` would otherwise put a report in
  /// place of the store, or of the log it is about to fold back. An engine whose store is
  /// no file has none (the default).
  func ownFile(_ url: URL) -> String?
}

extension StoreEngine {
  public func ownFile(_ url: URL) -> String? { nil }
}

/// What a write transaction does with photos kept outside their ties' rows (those above
/// Core Data's 128 KiB cutoff for external storage).
public protocol PhotoWriter: AnyObject {
  /// Whether a photo of `byteCount` bytes is kept outside its tie's row.
  func isExternal(byteCount: Int) -> Bool

  /// Keeps `data` under its content name, the SHA-256 of its bytes, unless it is kept
  /// already (identical photos are kept once), and returns the name.
  func store(_ data: Data) throws -> String

  /// The transaction made a row stop referring to `name`: once it is over, the photo
  /// goes if nothing refers to it any more.
  func release(_ name: String)
}

/// A photo's content name: the SHA-256 of its bytes, in lowercase hex. The only name a
/// photo kept outside its row ever has, on either engine.
public enum PhotoName {
  /// Above this many bytes a photo is kept outside its tie's row: Core Data's cutoff for
  /// "allows external storage", on either engine, so rows read the same on both.
  public static let externalThreshold = PhotoStorage.externalThreshold

  public static func of(_ data: Data) -> String {
    PhotoStorage.contentName(data)
  }

  /// Whether `name` is one: exactly 64 lowercase hexadecimal digits.
  public static func isValid(_ name: String) -> Bool {
    PhotoStorage.isFileName(name)
  }
}

/// Whether anything still refers to a photo kept outside its row.
enum PhotoReferences {
  /// Whether a tie or an undo entry refers to `name`.
  static func exist(_ name: String, in connection: any SQLConnection) throws -> Bool {
    try connection.fetchOne(
      """
      SELECT 1 FROM bowTie WHERE photoFile = \(name)
      UNION ALL SELECT 1 FROM undoEntry WHERE photoFile = \(name) LIMIT 1
      """) != nil
  }

  /// Every photo a tie or an undo entry refers to.
  static func all(in connection: any SQLConnection) throws -> [String] {
    try connection.fetchValues(
      """
      SELECT photoFile FROM bowTie WHERE photoFile IS NOT NULL
      UNION SELECT photoFile FROM undoEntry WHERE photoFile IS NOT NULL
      """, as: String.self)
  }
}
