import Foundation
import GRDB

/// What `bowties doctor` found in a store, and what it repaired.
public struct Checkup: Sendable, Codable, Equatable {
  /// One thing wrong with the store.
  public struct Problem: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
      /// SQLite's `integrity_check` failed, or the file is not a database.
      case integrity
      /// The schema is from a newer bowties, behind this one, or not a bowties store.
      case schema
      /// A stored color archive cannot be decoded.
      case color
      /// A tie's external photo file is missing, or its content changed.
      case photo
      /// A photo file that no tie and no undo entry refers to.
      case orphanedPhoto
      /// A row breaks the model's rules (written by another tool): validation, derived
      /// columns, or the wear count.
      case invalidRow
    }

    public var kind: Kind
    /// The tie concerned, "Red Bow Tie (R)", or the file.
    public var subject: String?
    public var detail: String
    /// Whether `--repair` fixed it.
    public var repaired: Bool
  }

  public var problems: [Problem] = []
  public var tiesChecked = 0
  public var photoFilesChecked = 0

  /// Healthy when every problem found was repaired.
  public var isHealthy: Bool { problems.allSatisfy(\.repaired) }

  mutating func report(
    _ kind: Problem.Kind, _ subject: String?, _ detail: String, repaired: Bool = false
  ) {
    problems.append(Problem(kind: kind, subject: subject, detail: detail, repaired: repaired))
  }
}

extension BowTieStore {
  /// Examines the store at `url` without creating or upgrading it: SQLite's integrity,
  /// the schema version, every row against the model's rules, the colors, and the
  /// external photo files. With `repairing`, fixes what can be fixed without guessing:
  /// orphaned photo files are removed, derived columns recomputed, a wear count that
  /// another tool changed taken as the new total, and an older schema upgraded.
  ///
  /// - Throws: only when the store cannot be examined at all (missing, unreadable).
  public static func checkup(at url: URL, repairing: Bool) throws(BowTieError) -> Checkup {
    _ = try colorTransformer()
    var checkup = Checkup()
    var info = stat()
    guard lstat(url.path, &info) == 0 else {
      throw .storeUnreadable(path: url.path, reason: POSIXError.current.reason)
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw .storeUnreadable(path: url.path, reason: "it is not a regular file")
    }
    guard access(url.path, R_OK) == 0 else {
      throw .storeUnreadable(path: url.path, reason: "permission denied")
    }
    // A plain connection, read-only unless repairing: the migrator must not run before
    // the file is known to be sound.
    var config = Configuration()
    config.readonly = !repairing
    config.busyMode = .timeout(defaultBusyTimeout)
    let schema: SchemaState
    do {
      let queue = try DatabaseQueue(
        path: databaseLocation(for: url, readonly: config.readonly), configuration: config)
      defer { try? queue.close() }
      let integrity = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check")
      }
      if integrity != ["ok"] {
        for line in integrity.prefix(20) { checkup.report(.integrity, nil, line) }
        return checkup
      }
      schema = try queue.read { db in try checkSchema(db, &checkup) }
    } catch let error as DatabaseError
      where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode)
    {
      checkup.report(.integrity, nil, "not a SQLite database, or damaged (\(error.message ?? ""))")
      return checkup
    } catch let error as BowTieError {
      throw error
    } catch {
      throw storeError(error, path: url.path)
    }
    switch schema {
    case .unusable: return checkup
    case .older where !repairing: return checkup
    case .older:
      // Opening migrates it, as any write would.
      for index in checkup.problems.indices { checkup.problems[index].repaired = true }
    case .current: break
    }
    let store = try open(at: url).store
    try store.checkRows(&checkup, repairing: repairing)
    try store.checkPhotoFiles(&checkup, repairing: repairing)
    return checkup
  }

  private enum SchemaState {
    case current, older, unusable
  }

  /// Reports a schema this bowties cannot use as it is.
  private static func checkSchema(_ db: Database, _ checkup: inout Checkup) throws -> SchemaState {
    guard try db.tableExists("bowTie"), try db.tableExists("grdb_migrations") else {
      checkup.report(.schema, nil, "not a bowties store (it has no bowTie table)")
      return .unusable
    }
    let known = Schema.migrator.migrations
    let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
    let unknown = applied.subtracting(known).sorted()
    if !unknown.isEmpty {
      checkup.report(
        .schema, nil,
        "written by a newer bowties (migrations \(unknown.joined(separator: ", "))): upgrade bowties"
      )
      return .unusable
    }
    let missing = known.filter { !applied.contains($0) }
    if !missing.isEmpty {
      checkup.report(
        .schema, nil,
        "older than this bowties (missing \(missing.joined(separator: ", "))); any write upgrades it"
      )
      return .older
    }
    return .current
  }

  /// Every row decoded and validated as the model would, and its derived columns and
  /// wear count compared with what bowties would have written. Rows are read one at a
  /// time: only the problems found are kept.
  private func checkRows(_ checkup: inout Checkup, repairing: Bool) throws(BowTieError) {
    var fixes: [(id: String, key: String, name: String, wearsBeforeHistory: Int32)] = []
    try read { db in
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT bowTie.*, (SELECT count(*) FROM wearEvent WHERE tieId = bowTie.id) AS events
          FROM bowTie ORDER BY canonicalName, canonicalKey
          """)
      while let row = try rows.next() {
        checkup.tiesChecked += 1
        check(row, &checkup, &fixes, repairing: repairing)
      }
    }
    guard repairing, !fixes.isEmpty else { return }
    try write { db, _ in
      // The triggers keep timesWorn = wearsBeforeHistory + events, so setting the first
      // to the difference leaves the count the other tool wrote.
      for fix in fixes {
        try db.execute(
          sql: """
            UPDATE bowTie SET canonicalKey = ?, canonicalName = ?, wearsBeforeHistory = ?
            WHERE id = ?
            """,
          arguments: [fix.key, fix.name, fix.wearsBeforeHistory, fix.id])
      }
    }
  }

  /// One row of ``checkRows(_:repairing:)``: its problems into `checkup`, what a repair
  /// would write into `fixes`.
  private func check(
    _ row: Row, _ checkup: inout Checkup,
    _ fixes: inout [(id: String, key: String, name: String, wearsBeforeHistory: Int32)],
    repairing: Bool
  ) {
    let id: String = (try? row.decode(String.self, forColumn: "id")) ?? "?"
    let tie: BowTie
    do {
      tie = try BowTie(row: row)
    } catch {
      let reason =
        if case .storeUnreadable(_, let reason)? = error as? BowTieError { reason } else {
          "\(error)"
        }
      checkup.report(.invalidRow, "row \(id)", "cannot be read: \(reason)")
      return
    }
    let subject = "\(tie.name) (\(tie.searchKey))"
    if let issue = tie.colorIssue {
      checkup.report(
        .color, subject,
        "the stored color cannot be decoded (\(issue)); set one with edit --color")
    }
    if let failure = tie.validationFailure {
      checkup.report(.invalidRow, subject, "\(failure.attribute) \(failure.reason)")
    }
    var needsFix = false
    let key = BowTie.canonicalKey(tie.searchKey)
    // Byte for byte, as SQLite looks them up: Swift's == takes "가" as jamo and as one
    // precomposed scalar to be equal, so it missed columns written before they were NFC.
    let sameBytes = { (stored: String?, expected: String) in
      stored.map { $0.utf8.elementsEqual(expected.utf8) } ?? false
    }
    if !sameBytes(row["canonicalKey"], key) || !sameBytes(row["canonicalName"], tie.canonicalName) {
      checkup.report(
        .invalidRow, subject, "its search columns do not match its name and key",
        repaired: repairing)
      needsFix = true
    }
    let events: Int32 = row["events"]
    var wearsBeforeHistory = tie.wearsBeforeHistory ?? 0
    if wearsBeforeHistory + events != tie.timesWorn {
      let fixable = tie.timesWorn >= events
      checkup.report(
        .invalidRow, subject,
        "timesWorn \(tie.timesWorn) is not the \(wearsBeforeHistory) earlier wears plus the \(events) recorded"
          + (fixable ? "" : " (fewer than the recorded wears: fix with edit --times-worn)"),
        repaired: repairing && fixable)
      if fixable {
        wearsBeforeHistory = tie.timesWorn - events
        needsFix = true
      }
    }
    if let name = tie.externalPhotoName {
      do {
        _ = try photos.read(name, expectedSize: tie.storedPhotoByteCount, tie: tie.name)
      } catch {
        checkup.report(
          .photo, subject,
          "\(error.localizedDescription); replace it with edit --photo or --no-photo")
      }
    }
    if needsFix { fixes.append((id, key, tie.canonicalName, wearsBeforeHistory)) }
  }

  /// Photo files nothing refers to; removed under the write lock when repairing.
  private func checkPhotoFiles(_ checkup: inout Checkup, repairing: Bool) throws(BowTieError) {
    let files = photos.allFileNames()
    checkup.photoFilesChecked = files.count
    let referenced = try read { db in Set(try Self.referencedPhotoFiles(db)) }
    let orphans = files.filter { !referenced.contains($0) }.sorted()
    for name in orphans {
      checkup.report(.orphanedPhoto, name, "no tie or undo entry refers to it", repaired: repairing)
    }
    if repairing && !orphans.isEmpty {
      try sweepInterruptedPhotoWrites()
    }
  }
}
