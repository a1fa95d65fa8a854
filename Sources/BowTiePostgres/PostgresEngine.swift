import BowTieKit
import BowTieModel
import Foundation
import TextOutput

#if canImport(Glibc)
  import Glibc
#endif

/// The shared engine: a PostgreSQL database that several machines use at once, its photos
/// in a table of their own.
///
/// Reads run in one `REPEATABLE READ` snapshot. Writes run at `READ COMMITTED`, and the
/// store's SQL locks the rows it reads to change (``SQLDialect/lockingRead``), so that two
/// machines changing one tie take turns: a wear is never lost, a toggle never applied
/// twice to one value. A lock held past the busy timeout ends the command with 75.
public final class PostgresEngine: StoreEngine, @unchecked Sendable {
  // One connection, used by one command on one thread.
  let session: PostgresSession
  private let connection: PostgresSQLConnection
  /// Set while a new store's schema and sample ties are written: the store's own writes
  /// then join that one transaction, so a new store appears whole or not at all.
  private var insideCreation = false

  public let displayName: String
  public var dialect: any SQLDialect { PostgresDialect() }

  private init(session: PostgresSession) {
    self.session = session
    connection = PostgresSQLConnection(session: session)
    displayName = session.settings.displayName
  }

  /// Takes the stores `--store` names by a PostgreSQL connection URI
  /// (``PostgresSettings/isURI(_:)``).
  public static func register() {
    StoreEngines.register { location in
      PostgresSettings.isURI(location) ? PostgresStoreAddress(uri: location) : nil
    }
  }

  /// Connects to the store at `uri` and brings its schema up to date; on a database with
  /// no store yet, creates it and fills it with `populate`, in one transaction that other
  /// clients starting at the same moment wait for.
  public static func open(
    uri: String, environment: [String: String]? = nil,
    ifMissing populate: (BowTieStore) throws -> Void = { _ in }
  ) throws(BowTieError) -> (store: BowTieStore, created: Bool) {
    let (engine, state) = try connect(uri: uri, environment: environment)
    let store = BowTieStore(engine: engine)
    if state == .current { return (store, false) }
    do {
      let created = try engine.createOrMigrate(store, populate)
      return (store, created)
    } catch {
      engine.session.close()
      throw engine.storeError(error)
    }
  }

  /// Brings an older schema up to date, as opening the store would (`doctor --repair`).
  fileprivate func upgrade(_ store: BowTieStore) throws(BowTieError) {
    do {
      _ = try createOrMigrate(store) { _ in }
    } catch {
      throw storeError(error)
    }
  }

  /// Connects to the store at `uri` and reads how its schema stands, nothing created or
  /// upgraded (what `doctor` examines): the common case, a store up to date, in one round
  /// trip, one statement needing no transaction of its own.
  fileprivate static func connect(uri: String, environment: [String: String]?) throws(BowTieError)
    -> (engine: PostgresEngine, state: SchemaState)
  {
    try BowTie.requireColorTransformer()
    let variables: [String: String]
    if let environment {
      variables = environment
    } else {
      variables = try ProcessEnvironment.values(PostgresSettings.variables)
    }
    let settings = try PostgresSettings.read(uri, environment: variables)
    for warning in settings.warnings {
      // As every other message: its control characters made visible, and a failed write to
      // stderr dropped (FileHandle's `write` traps on one).
      var line = "bowties: warning: \(warning.withVisibleControlCharacters)\n"
      _ = line.withUTF8 { DescriptorOutputStream.writeAll(UnsafeRawBufferPointer($0), to: 2) }
    }
    let session = try PostgresSession.connect(
      settings, busyTimeout: try BowTieStore.defaultBusyTimeout)
    let engine = PostgresEngine(session: session)
    do {
      let state = try PostgresSchema.state(
        applied: session.namesUnlessTableMissing(PostgresSchema.appliedSQL))
      return (engine, state)
    } catch {
      session.close()
      throw engine.storeError(error)
    }
  }

  /// Under a transaction-long advisory lock, so that of two clients opening a new store
  /// at once, one creates it and the other finds it made.
  private func createOrMigrate(_ store: BowTieStore, _ populate: (BowTieStore) throws -> Void)
    throws -> Bool
  {
    try session.run("BEGIN")
    do {
      try session.run("SELECT pg_advisory_xact_lock($1)", [.integer(Self.schemaLock)])
      var created = false
      if try connection.fetchValue(PostgresSchema.existsSQL, as: Bool.self) != true {
        try connection.execute(PostgresSchema.createMigrationTable)
        created = true
      }
      try PostgresSchema.migrate(connection, displayName: displayName)
      if created {
        insideCreation = true
        defer { insideCreation = false }
        try populate(store)
      }
      try session.run("COMMIT")
      return created
    } catch {
      _ = try? session.run("ROLLBACK")
      throw error
    }
  }

  /// The advisory lock key of schema changes: "bowties" in ASCII.
  private static let schemaLock: Int64 = 0x626f_7774_6965_73

  // MARK: - Access

  public func read<T>(_ body: (any SQLConnection) throws -> T) throws(BowTieError) -> T {
    if insideCreation { return try run { try body(connection) } }
    return try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
      try body(connection)
    }
  }

  public func write<T>(
    rollingBack: Bool, _ body: (any SQLConnection, any PhotoWriter) throws -> T
  ) throws(BowTieError) -> T {
    let photos = PhotoRows(connection: connection)
    if insideCreation { return try run { try body(connection, photos) } }
    let result = try transaction(begin: "BEGIN", rollingBack: rollingBack) {
      try body(connection, photos)
    }
    if !rollingBack { removeUnreferenced(photos.released) }
    return result
  }

  private func transaction<T>(
    begin: String, rollingBack: Bool = false, _ body: () throws -> T
  ) throws(BowTieError) -> T {
    try session.run(begin)
    do {
      let result = try body()
      try session.run(rollingBack ? "ROLLBACK" : "COMMIT")
      return result
    } catch {
      _ = try? session.run("ROLLBACK")
      throw storeError(error)
    }
  }

  private func run<T>(_ body: () throws -> T) throws(BowTieError) -> T {
    do {
      return try body()
    } catch {
      throw storeError(error)
    }
  }

  /// Deletes the photos a committed write stopped referring to, each unless something
  /// still refers to it. The foreign keys decide: a delete that another client's new
  /// reference beats fails, and the photo stays.
  private func removeUnreferenced(_ names: Set<String>) {
    for name in names.sorted() {
      _ = try? session.run(Self.deleteUnreferenced + " AND name = $1", [.text(name)])
    }
  }

  private static let deleteUnreferenced = """
    DELETE FROM photo WHERE NOT EXISTS (SELECT 1 FROM bowTie WHERE photoFile = photo.name)
      AND NOT EXISTS (SELECT 1 FROM undoEntry WHERE photoFile = photo.name)
    """

  // MARK: - Photos

  public func readPhoto(_ name: String, expectedSize: Int?, tie: String) throws(BowTieError)
    -> Data
  {
    guard PhotoName.isValid(name) else {
      throw .photoUnavailable(tie: tie, path: "photo \(name)", reason: "is not a photo's name")
    }
    let rows = try session.run("SELECT data FROM photo WHERE name = $1", [.text(name)])
    guard let row = rows.first, let value = try? PostgresSQLConnection.snapshot(row)[0],
      let data = Data.decode(value)
    else {
      throw .photoUnavailable(tie: tie, path: "\(displayName) photo \(name)", reason: "is missing")
    }
    guard PhotoName.of(data) == name, expectedSize == nil || expectedSize == data.count else {
      throw .photoUnavailable(
        tie: tie, path: "\(displayName) photo \(name)", reason: "is damaged (its content changed)")
    }
    return data
  }

  /// Checks that the photo is there at its size, without fetching its bytes: listings
  /// call this for every tie they show.
  public func photoProblem(_ name: String, expectedSize: Int?, tie: String) -> BowTieError? {
    guard PhotoName.isValid(name) else {
      return .photoUnavailable(tie: tie, path: "photo \(name)", reason: "is not a photo's name")
    }
    let place = "\(displayName) photo \(name)"
    let size: Int?
    do {
      size = try connection.fetchValue(
        "SELECT length(data) FROM photo WHERE name = \(name)", as: Int.self)
    } catch {
      return storeError(error)
    }
    guard let size else { return .photoUnavailable(tie: tie, path: place, reason: "is missing") }
    if let expectedSize, expectedSize != size {
      return .photoUnavailable(
        tie: tie, path: place, reason: "is damaged (\(size) bytes, expected \(expectedSize))")
    }
    return nil
  }

  public func keptPhotoNames() throws(BowTieError) -> [String] {
    try read { try $0.fetchValues("SELECT name FROM photo", as: String.self) }
  }

  public func removeUnreferencedPhotos() throws(BowTieError) {
    try write(rollingBack: false) { connection, _ in
      try connection.execute(SQL(sql: Self.deleteUnreferenced))
    }
  }

  public func close() throws(BowTieError) {
    session.close()
  }

  /// Any error as the store's: the session's own are already, with the store's name.
  private func storeError(_ error: any Error) -> BowTieError {
    guard var error = error as? BowTieError else {
      return .storeUnreadable(path: displayName, reason: "\(error)")
    }
    error.fillInStorePath(displayName)
    return error
  }
}

/// Where a PostgreSQL store is: its connection URI, read when it is opened.
struct PostgresStoreAddress: StoreAddress {
  let uri: String

  /// Not the URI: it may hold a password.
  var nameForQuestion: String { "the PostgreSQL store" }

  func open(ifMissing populate: (BowTieStore) throws -> Void) throws(BowTieError)
    -> (store: BowTieStore, created: Bool)
  {
    try PostgresEngine.open(uri: uri, ifMissing: populate)
  }

  /// The schema first, on the store's own connection: a database without a store, or
  /// with a newer or (unless repairing) an older one, is reported as such, and its rows
  /// are not read; an older one is upgraded only when repairing.
  func checkup(repairing: Bool) throws -> (store: String, checkup: Checkup) {
    let (engine, state) = try PostgresEngine.connect(uri: uri, environment: nil)
    let store = BowTieStore(engine: engine)
    defer { try? store.closeDatabase() }
    var checkup = Checkup()
    if state == .notAStore {
      checkup.report(
        .schema, nil,
        "no store in this database yet: the next command makes one, with the sample ties")
      return (engine.displayName, checkup)
    }
    guard checkup.report(schema: state, repairing: repairing) else {
      return (engine.displayName, checkup)
    }
    if state != .current { try engine.upgrade(store) }
    try store.checkContents(&checkup, repairing: repairing)
    return (engine.displayName, checkup)
  }
}

/// A write transaction's photos above the cutoff: rows of `photo`, inserted once per
/// content and deleted after the commit when nothing refers to them.
private final class PhotoRows: PhotoWriter {
  let connection: PostgresSQLConnection
  var released: Set<String> = []

  init(connection: PostgresSQLConnection) {
    self.connection = connection
  }

  func isExternal(byteCount: Int) -> Bool {
    byteCount > PhotoName.externalThreshold
  }

  func store(_ data: Data) throws -> String {
    let name = PhotoName.of(data)
    try connection.execute(
      "INSERT INTO photo (name, data) VALUES (\(name), \(data)) ON CONFLICT (name) DO NOTHING")
    released.remove(name)
    return name
  }

  func release(_ name: String) {
    released.insert(name)
  }
}
