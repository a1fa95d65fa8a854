import BowTieModel
import Foundation

/// What `bowties doctor` found in a store, and what it repaired.
public struct Checkup: Sendable, Codable, Equatable {
  /// One thing wrong with the store.
  public struct Problem: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
      /// SQLite's `integrity_check` failed, or the file is not a database.
      case integrity
      /// The schema is from a newer bowties, behind this one, or not a bowties store.
      case schema
      /// The schema holds a table, index, trigger or view bowties' migrations did not make,
      /// lacks one they made, or holds one changed. `--repair` recreates a missing index,
      /// trigger or view of bowties' own; another program's object, or one changed, is
      /// another program's work, which nothing repairs, and while one is there `--repair`
      /// writes nothing at all, since every statement would run its triggers.
      case schemaObject
      /// A stored color archive cannot be decoded.
      case color
      /// A tie's external photo file is missing, or its content changed.
      case photo
      /// A tie or an undo entry names its photo file with a name bowties never gives one
      /// (anything but a SHA-256 in hex): such a name is never made into a path.
      case photoFileName
      /// An undo entry that cannot be undone: unreadable, or naming columns the table
      /// does not have.
      case undoEntry
      /// A file in the photo folder that no tie and no undo entry refers to, or that
      /// bowties did not write.
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
  /// Whether the schema problem found is only that an older bowties wrote the store: it
  /// is usable once migrated. (Not in `doctor --json`, whose problems say so.)
  public internal(set) var isOlderSchema = false
  /// Whether the store is a SQLite file without a schema: no store yet, which the next
  /// command makes, and no backup.
  public internal(set) var isEmptyFile = false

  private enum CodingKeys: String, CodingKey {
    case problems, tiesChecked, photoFilesChecked
  }

  package init() {}

  /// Healthy when every problem found was repaired.
  public var isHealthy: Bool { problems.allSatisfy(\.repaired) }

  package mutating func report(
    _ kind: Problem.Kind, _ subject: String?, _ detail: String, repaired: Bool = false
  ) {
    problems.append(Problem(kind: kind, subject: subject, detail: detail, repaired: repaired))
  }

  /// Reports what is wrong with a schema in `state`, as the engine read it, and says
  /// whether the store's contents can be checked: a current schema, or an older one that
  /// `repairing` upgrades (the engine opens it to write, which migrates it).
  package mutating func report(schema state: SchemaState, repairing: Bool) -> Bool {
    switch state {
    case .current:
      return true
    case .notAStore:
      report(.schema, nil, "not a bowties store (it has no bowTie table)")
      return false
    case .newer(let unknown):
      report(
        .schema, nil,
        "written by a newer bowties (migrations \(unknown.joined(separator: ", "))): upgrade bowties"
      )
      return false
    case .older(let missing):
      report(
        .schema, nil,
        "older than this bowties (missing \(missing.joined(separator: ", "))); any write upgrades it",
        repaired: repairing)
      isOlderSchema = true
      return repairing
    }
  }
}

extension BowTieStore {
  /// The rows, the undo log and the photos kept outside rows, on either engine.
  package func checkContents(_ checkup: inout Checkup, repairing: Bool) throws(BowTieError) {
    try checkRows(&checkup, repairing: repairing)
    try checkWearHistory(&checkup, repairing: repairing)
    try checkWearsOfNoTie(&checkup, repairing: repairing)
    try checkUndoLog(&checkup, repairing: repairing)
    try checkPhotoFiles(&checkup, repairing: repairing)
  }

  /// Every row decoded and validated as the model would, and its derived columns and
  /// wear count compared with what bowties would have written, the rows read one at a time.
  private func checkRows(_ checkup: inout Checkup, repairing: Bool) throws(BowTieError) {
    var fixes: [(id: String, key: String?, name: String, wearsBeforeHistory: Int32)] = []
    // Rows whose key column is to be recomputed, with the problem that says so.
    var keyFixes: [(id: String, key: String, subject: String, problem: Int)] = []
    var photoFixes: [String] = []
    var photoNamesToClear: [String] = []
    var valuesToClear: [(id: String, columns: [String])] = []
    var idsToReplace: [(old: String, new: UUID)] = []
    try read { db in
      try db.forEachRow(
        """
        SELECT \(BowTie.Columns.all),
          (SELECT count(*) FROM wearEvent WHERE tieId = bowTie.id) AS events
        FROM bowTie ORDER BY canonicalName, canonicalKey
        """
      ) { row in
        checkup.tiesChecked += 1
        // The id as stored, which every fix below finds the row by; nil when it is not
        // text (bytes another tool wrote), and then no fix can find the row.
        let storedID: String? = try? row.decode("id")
        let id = storedID ?? "?"
        let tie: BowTie
        do {
          tie = try BowTie(row: row)
        } catch {
          let reason =
            if case .storeUnreadable(_, let reason)? = error as? BowTieError { reason } else {
              "\(error)"
            }
          // A value the tie can do without is cleared, and an id that is no UUID is
          // replaced by a new one, when that is all that stops it.
          let clearable = BowTie.unreadableOptionalColumns(of: row)
          var candidate = row.snapshot().clearing(clearable)
          let newID = storedID.flatMap { UUID(text: $0) == nil ? UUID() : nil }
          if let newID { candidate = candidate.setting(BowTie.Columns.id, to: .text(newID.text)) }
          let fixable =
            (!clearable.isEmpty || newID != nil) && (try? BowTie(row: candidate)) != nil
          checkup.report(
            .invalidRow, "row \(id.excerpt)",
            "cannot be read: \(reason)"
              + (fixable ? Self.repairNote(clearing: clearable, newID: newID, repairing) : ""),
            repaired: repairing && fixable)
          if fixable {
            if !clearable.isEmpty { valuesToClear.append((id, clearable)) }
            if let newID { idsToReplace.append((id, newID)) }
          }
          return
        }
        let subject = "\(tie.name) (\(tie.searchKey))"
        // An id bowties would not find: one written in lower case where the store's
        // constraint that refuses one was taken away.
        if !id.utf8.elementsEqual(tie.id.text.utf8) {
          checkup.report(
            .invalidRow, subject,
            "its id \(id.excerpt) is not in upper case, which bowties finds ties by; "
              + (repairing ? "wrote it so" : "--repair writes it so"),
            repaired: repairing)
          idsToReplace.append((id, tie.id))
        }
        if let issue = tie.colorIssue {
          checkup.report(
            .color, subject,
            "the stored color cannot be decoded (\(issue)); set one with edit --color")
        }
        if let failure = tie.validationFailure {
          // A link that is no absolute URL is one the tie can do without.
          let clearable = failure.attribute == BowTie.Columns.url
          checkup.report(
            .invalidRow, subject,
            "\(failure.attribute) \(failure.reason)"
              + (clearable ? Self.repairNote(clearing: [BowTie.Columns.url], repairing) : ""),
            repaired: repairing && clearable)
          if clearable { valuesToClear.append((id, [BowTie.Columns.url])) }
        }
        var needsFix = false
        let key = BowTie.canonicalKey(tie.searchKey)
        // Byte for byte, as SQLite looks them up: Swift's == takes "가" as jamo and as one
        // precomposed scalar to be equal, so it missed columns written before they were NFC.
        let sameBytes = { (stored: String?, expected: String) in
          stored.map { $0.utf8.elementsEqual(expected.utf8) } ?? false
        }
        if !sameBytes(row["canonicalKey"].text, key)
          || !sameBytes(row["canonicalName"].text, tie.canonicalName)
        {
          checkup.report(
            .invalidRow, subject, "its search columns do not match its name and key",
            repaired: repairing)
          needsFix = true
          if !sameBytes(row["canonicalKey"].text, key) {
            keyFixes.append((id, key, subject, checkup.problems.count - 1))
          }
        }
        let events: Int32 = try row.decode("events")
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
        var photo = tie.photoData
        if let name = tie.externalPhotoName, !PhotoStorage.isFileName(name) {
          checkup.report(
            .photoFileName, subject,
            "its photo file name '\(name)' is not a photo file name (64 lowercase hexadecimal "
              + "digits); --repair clears it, and the tie keeps no photo",
            repaired: repairing)
          photoNamesToClear.append(id)
        } else if let name = tie.externalPhotoName {
          do {
            photo = try engine.readPhoto(
              name, expectedSize: tie.storedPhotoByteCount, tie: tie.name)
          } catch {
            checkup.report(
              .photo, subject,
              "\(error.localizedDescription); replace it with edit --photo or --no-photo")
          }
        }
        // What the row says of its photo, against the photo's own header.
        if let photo {
          let actual = PhotoDescription(of: photo)
          if actual == nil {
            checkup.report(
              .photo, subject,
              "its photo is not a readable PNG or JPEG image; replace it with edit --photo or --no-photo"
            )
          }
          if actual != tie.photoDescription {
            checkup.report(
              .invalidRow, subject,
              "its photo columns (\(Self.text(tie.photoDescription))) do not match its photo (\(Self.text(actual)))",
              repaired: repairing)
            photoFixes.append(id)
          }
        }
        if needsFix { fixes.append((id, key, tie.canonicalName, wearsBeforeHistory)) }
      }
    }
    // A key another tie holds (it is unique) stays as stored, and the user chooses.
    let takenKeys = try keysTaken(by: keyFixes)
    for fix in keyFixes {
      guard let holder = takenKeys[fix.id] else { continue }
      checkup.problems[fix.problem].repaired = false
      checkup.problems[fix.problem].detail +=
        ", and its key is \(holder)'s too; give it another with edit \(fix.id) --key NEW"
      if let index = fixes.firstIndex(where: { $0.id == fix.id }) { fixes[index].key = nil }
    }
    guard
      repairing,
      !fixes.isEmpty || !photoNamesToClear.isEmpty || !photoFixes.isEmpty
        || !valuesToClear.isEmpty || !idsToReplace.isEmpty
    else { return }
    try write { db, _ in
      for (id, columns) in valuesToClear {
        try Self.clear(columns, ofTie: id, in: db)
      }
      for id in photoNamesToClear {
        try db.execute(
          """
          UPDATE bowTie SET photoFile = NULL, photoSize = NULL, photoFormat = NULL,
            photoWidth = NULL, photoHeight = NULL
          WHERE id = \(id)
          """)
      }
      for id in photoFixes {
        try BowTie.describePhoto(ofTie: id, in: db, readingPhoto: photoContents)
      }
      // The triggers keep timesWorn = wearsBeforeHistory + events, so setting the first
      // to the difference leaves the count the other tool wrote.
      for fix in fixes {
        try db.execute(
          """
          UPDATE bowTie SET canonicalKey = coalesce(\(fix.key), canonicalKey),
            canonicalName = \(fix.name), wearsBeforeHistory = \(fix.wearsBeforeHistory)
          WHERE id = \(fix.id)
          """)
      }
      // Last, since every fix above finds its row by the id as stored.
      for ids in idsToReplace {
        try Self.replaceID(ids.old, with: ids.new, in: db)
      }
    }
  }

  /// Clears what ``BowTie/unreadableOptionalColumns(of:)`` found: a last-worn date becomes
  /// the tie's last recorded wear that can be read, if there is one; a price goes with its
  /// currency.
  private static func clear(_ columns: [String], ofTie id: String, in db: any SQLConnection)
    throws
  {
    if columns.contains(BowTie.Columns.lastWorn) {
      let wears = try db.fetchValues(
        "SELECT wornAt FROM wearEvent WHERE tieId = \(id) ORDER BY wornAt DESC", as: String.self)
      let last = wears.lazy.compactMap { try? StorageDate.parse($0) }.first
      try db.execute(
        "UPDATE bowTie SET lastWorn = \(last.map(StorageDate.format)) WHERE id = \(id)")
    }
    if columns.contains(BowTie.Columns.price) {
      try db.execute("UPDATE bowTie SET price = NULL, currency = NULL WHERE id = \(id)")
    }
    if columns.contains(BowTie.Columns.url) {
      try db.execute("UPDATE bowTie SET url = NULL WHERE id = \(id)")
    }
  }

  /// Which of `keyFixes` would take a key that another tie holds, or that an earlier one
  /// takes: "Red Bow Tie (R)", by the id of the tie that would take it.
  private func keysTaken(by keyFixes: [(id: String, key: String, subject: String, problem: Int)])
    throws(BowTieError) -> [String: String]
  {
    guard !keyFixes.isEmpty else { return [:] }
    return try read { db in
      var taken: [String: String] = [:]
      var claimed: [String: String] = [:]
      for fix in keyFixes {
        if let earlier = claimed[fix.key] {
          taken[fix.id] = earlier
          continue
        }
        var holder: String?
        try db.forEachRow(
          "SELECT id, name, searchKey FROM bowTie WHERE canonicalKey = \(fix.key)"
        ) { row in
          guard row["id"].text != fix.id else { return }
          holder = "\(row["name"].text ?? "?") (\(row["searchKey"].text ?? "?"))"
        }
        if let holder {
          taken[fix.id] = holder
        } else {
          claimed[fix.key] = fix.subject
        }
      }
      return taken
    }
  }

  /// Gives the tie whose id is `old` the id `new`, with its wears and undo entries. The
  /// wears are taken out and put back under the new id, since the foreign key refuses
  /// both a tie renamed from under its wears and wears renamed before their tie; the
  /// triggers take them from `timesWorn` and give them back.
  private static func replaceID(_ old: String, with new: UUID, in db: any SQLConnection) throws {
    var wears: [(id: SQLValue, wornAt: SQLValue)] = []
    try db.forEachRow("SELECT id, wornAt FROM wearEvent WHERE tieId = \(old) ORDER BY id") {
      wears.append(($0["id"], $0["wornAt"]))
    }
    try db.execute("DELETE FROM wearEvent WHERE tieId = \(old)")
    try db.execute("UPDATE bowTie SET id = \(new.text) WHERE id = \(old)")
    for wear in wears {
      try db.execute(
        "INSERT INTO wearEvent (id, tieId, wornAt) VALUES (\(wear.id), \(new.text), \(wear.wornAt))"
      )
    }
    try db.execute("UPDATE undoEntry SET tieId = \(new.text) WHERE tieId = \(old)")
  }

  /// What is done, or would be with --repair, to the values `columns` hold and to an id
  /// that is no UUID.
  private static func repairNote(clearing columns: [String], newID: UUID? = nil, _ repairing: Bool)
    -> String
  {
    var note = ""
    if !columns.isEmpty {
      let names = columns.joined(separator: " and ")
      let lastWear =
        columns.contains(BowTie.Columns.lastWorn)
        ? " (lastWorn becomes its last recorded wear, if any)" : ""
      note += (repairing ? "; cleared its \(names)" : "; --repair clears its \(names)") + lastWear
    }
    if let newID {
      note += repairing ? "; gave it the id \(newID.text)" : "; --repair gives it a new id"
    }
    return note
  }

  /// "JPEG 480×640", or "none", for a message.
  private static func text(_ description: PhotoDescription?) -> String {
    description.map { "\($0.format.name) \($0.width)×\($0.height)" } ?? "none"
  }

  /// Wear events whose date cannot be read, at which `history` stops: text outside the
  /// years 1 to 9999, which ISO 8601 dates cannot hold (a wear dated before the year 1
  /// became such text). Only those are looked at, on the `wornAt` index, not every wear.
  /// Repairing removes each from the history and keeps it in its tie's count, as a wear
  /// from before the history.
  private func checkWearHistory(_ checkup: inout Checkup, repairing: Bool) throws(BowTieError) {
    let unreadable = try read { db in
      var unreadable: [(id: Int64, tieID: String, subject: String, date: String)] = []
      try db.forEachRow(
        """
        SELECT wearEvent.id, wearEvent.tieId, wearEvent.wornAt, bowTie.name, bowTie.searchKey
        FROM wearEvent JOIN bowTie ON bowTie.id = wearEvent.tieId
        WHERE wearEvent.wornAt < '0001-01-01' OR wearEvent.wornAt >= '9999-12-32'
        ORDER BY wearEvent.id
        """
      ) { row in
        let date: String = try row.decode("wornAt")
        guard (try? StorageDate.parse(date)) == nil else { return }
        let name: String = try row.decode("name")
        let key: String = try row.decode("searchKey")
        unreadable.append(
          (try row.decode("id"), try row.decode("tieId"), "\(name) (\(key))", date))
      }
      return unreadable
    }
    for event in unreadable {
      checkup.report(
        .invalidRow, event.subject,
        "wear \(event.id): its date '\(event.date.excerpt)' cannot be read; --repair removes "
          + "it from the history, and it still counts",
        repaired: repairing)
    }
    guard repairing, !unreadable.isEmpty else { return }
    try write { db, _ in
      for event in unreadable {
        // The delete trigger takes one from timesWorn; the wear happened, so it goes back,
        // among the wears from before the history.
        try db.execute("DELETE FROM wearEvent WHERE id = \(event.id)")
        try db.execute(
          """
          UPDATE bowTie SET timesWorn = timesWorn + 1, wearsBeforeHistory = wearsBeforeHistory + 1
          WHERE id = \(event.tieID)
          """)
      }
    }
  }

  /// Wears of a tie that is not in the store: SQLite keeps a wear's foreign key only on
  /// connections that turn foreign keys on, which `sqlite3` does not, so another tool can
  /// leave them, and the monthly chart would count them. Repairing removes them. A tie is
  /// looked up once for all its wears (docs/performance.md, "`doctor`'s look for wears of
  /// no tie").
  private func checkWearsOfNoTie(_ checkup: inout Checkup, repairing: Bool) throws(BowTieError) {
    let orphans = try read { db in
      var orphans: [(tieID: SQLValue, wears: Int64)] = []
      try db.forEachRow(
        """
        SELECT tieId, count(*) AS wears FROM wearEvent GROUP BY tieId
        HAVING NOT EXISTS (SELECT 1 FROM bowTie WHERE bowTie.id = wearEvent.tieId)
        ORDER BY tieId
        """
      ) { row in orphans.append((row["tieId"], try row.decode("wears"))) }
      return orphans
    }
    for orphan in orphans {
      let (wears, them) =
        orphan.wears == 1 ? ("1 wear names", "it") : ("\(orphan.wears) wears name", "them")
      checkup.report(
        .invalidRow, "tie \(orphan.tieID)",
        "\(wears) this tie, which is not in the store; --repair removes \(them) from the history",
        repaired: repairing)
    }
    guard repairing, !orphans.isEmpty else { return }
    try write { db, _ in
      for orphan in orphans {
        try db.execute("DELETE FROM wearEvent WHERE tieId = \(orphan.tieID)")
      }
    }
  }

  /// Undo entries that cannot be undone as stored; removed when repairing, since no undo
  /// could use them.
  private func checkUndoLog(_ checkup: inout Checkup, repairing: Bool) throws(BowTieError) {
    let unusable = try read { db in
      var unusable: [(id: Int64, kind: Checkup.Problem.Kind, detail: String)] = []
      try db.forEachRow("SELECT * FROM undoEntry ORDER BY id") { row in
        let id: Int64 = try row.decode("id")
        if let name = row["photoFile"].text, !PhotoStorage.isFileName(name) {
          unusable.append(
            (id, .photoFileName, "names the photo file '\(name)', which is not a photo file name"))
          return
        }
        guard let entry = try? UndoEntry(row: row) else {
          unusable.append((id, .undoEntry, "cannot be read"))
          return
        }
        if let problem = entry.problem() {
          unusable.append((id, .undoEntry, "cannot be undone: \(problem)"))
        }
      }
      return unusable
    }
    for entry in unusable {
      checkup.report(
        entry.kind, "undo entry \(entry.id)", entry.detail + "; --repair removes the entry",
        repaired: repairing)
    }
    guard repairing, !unusable.isEmpty else { return }
    try write { db, photos in
      for entry in unusable {
        if let name = try db.fetchValue(
          "SELECT photoFile FROM undoEntry WHERE id = \(entry.id)", as: String.self)
        {
          photos.release(name)
        }
        try db.execute("DELETE FROM undoEntry WHERE id = \(entry.id)")
      }
    }
  }

  /// Photos nothing refers to, and files bowties did not write. Orphans and the
  /// temporary files of interrupted writes are removed under the write lock when
  /// repairing; other files are left where they are.
  private func checkPhotoFiles(_ checkup: inout Checkup, repairing: Bool) throws(BowTieError) {
    let entries = try engine.keptPhotoNames().sorted()
    let files = entries.filter(PhotoStorage.isFileName)
    checkup.photoFilesChecked = files.count
    let referenced = try read { db in Set(try PhotoReferences.all(in: db)) }
    var sweep = false
    for name in entries where !referenced.contains(name) {
      if PhotoStorage.isFileName(name) || FileSystem.isTemporaryFileName(name) {
        checkup.report(
          .orphanedPhoto, name, "no tie or undo entry refers to it", repaired: repairing)
        sweep = true
      } else {
        checkup.report(
          .orphanedPhoto, name, "bowties did not write this file; it is left where it is")
      }
    }
    if repairing && sweep {
      try engine.removeUnreferencedPhotos()
    }
  }
}

extension SQLRowSnapshot {
  /// The same row, with `column` holding `value`.
  fileprivate func setting(_ column: String, to value: SQLValue) -> SQLRowSnapshot {
    let name = caseInsensitive ? column.lowercased() : column
    return SQLRowSnapshot(
      columnNames: columnNames,
      values: zip(columnNames, values).map { $0.0 == name ? value : $0.1 },
      caseInsensitive: caseInsensitive)
  }

  /// The same row, with `columns` NULL.
  fileprivate func clearing(_ columns: [String]) -> SQLRowSnapshot {
    let cleared = Set(columns.map { caseInsensitive ? $0.lowercased() : $0 })
    return SQLRowSnapshot(
      columnNames: columnNames,
      values: zip(columnNames, values).map { cleared.contains($0.0) ? .null : $0.1 },
      caseInsensitive: caseInsensitive)
  }
}
