import Foundation
import GRDB

// MARK: - Wear history

extension BowTieStore {
  /// Wear events, newest first, for one tie or all, within `[since, until)`.
  public func history(
    of query: String? = nil, since: Date? = nil, until: Date? = nil
  ) throws(BowTieError) -> [WearRecord] {
    var records: [WearRecord] = []
    try forEachWear(of: query, since: since, until: until) { records.append($0) }
    return records
  }

  /// Calls `body` with each wear event, newest first, for one tie or all, within
  /// `[since, until)`, one row at a time from a single read (``SummarySQL/history(oneTie:since:until:)``):
  /// ten million wears need not fit in memory.
  public func forEachWear(
    of query: String? = nil, since: Date? = nil, until: Date? = nil,
    _ body: (WearRecord) throws -> Void
  ) throws(BowTieError) {
    try read { db in
      var arguments: StatementArguments = [:]
      if let query {
        _ = arguments.append(contentsOf: ["tieId": try Self.resolve(query, in: db).id.uuidString])
      }
      if let since { _ = arguments.append(contentsOf: ["since": StorageDate.format(since)]) }
      if let until { _ = arguments.append(contentsOf: ["until": StorageDate.format(until)]) }
      let sql = SummarySQL.history(oneTie: query != nil, since: since != nil, until: until != nil)
      let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
      while let row = try rows.next() {
        try body(
          WearRecord(event: try WearEvent(row: row), searchKey: row["searchKey"], name: row["name"])
        )
      }
    }
  }
}

// MARK: - Undo

extension BowTieStore {
  /// Adds a change to the undo log, forgetting the oldest beyond its capacity. A photo
  /// file only a forgotten entry still named is handed to clean-up.
  static func log(
    _ change: UndoableChange, for tie: BowTie, in db: Database, _ changes: PhotoChanges
  ) throws {
    var entry = UndoEntry(madeAt: Date(), tieID: tie.id, change: change)
    try entry.append(to: db)
    guard let newest = entry.id else { return }
    // In SQL, as `set(_:to:of:in:)` is: every change ends here.
    let lastForgotten = newest - Int64(UndoEntry.capacity)
    let photoNames = SQLRequest<String>(
      literal: """
        SELECT \(UndoEntry.Columns.photoFile) FROM \(UndoEntry.self) \
        WHERE \(UndoEntry.Columns.id) <= \(lastForgotten) AND \(UndoEntry.Columns.photoFile) IS NOT NULL
        """)
    for name in try photoNames.fetchAll(db) {
      changes.released.insert(name)
    }
    try db.execute(
      literal: "DELETE FROM \(UndoEntry.self) WHERE \(UndoEntry.Columns.id) <= \(lastForgotten)")
  }

  /// Takes back the most recent logged change; called again, the one before it.
  ///
  /// The restored tie is validated like any save; if it would be refused, nothing
  /// changes and the entry stays. Entries for ties that no longer exist are dropped.
  ///
  /// - Returns: what was undone, or nil when the log is empty.
  public func undo() throws(BowTieError) -> UndoneChange? {
    try write { db, changes in
      while let entry = try UndoEntry.order(UndoEntry.Columns.id.desc).fetchOne(db) {
        if let problem = try entry.problem(in: db) {
          throw BowTieError.storeUnreadable(
            path: "",
            reason: "undo entry \(entry.id ?? 0) cannot be undone: \(problem); "
              + "bowties doctor --repair removes it")
        }
        _ = try entry.delete(db)
        if let file = entry.change.photoFile { changes.released.insert(file) }
        if case .remove(let previous) = entry.change {
          let tie = try restoreRemoved(previous, in: db)
          return UndoneChange(change: entry.change, tie: tie, name: tie.name)
        }
        guard var tie = try BowTie.filter(key: entry.tieID.uuidString).fetchOne(db) else {
          continue
        }
        let filter = BowTie.filter(key: tie.id.uuidString)
        switch entry.change {
        case .wear(let eventID, _, let previousLastWorn):
          if try WearEvent.deleteOne(db, key: eventID) {
            tie.timesWorn -= 1
          }
          tie.lastWorn = previousLastWorn
          try tie.validate()
          try filter.updateAll(
            db, BowTie.Columns.lastWorn.set(to: previousLastWorn.map(StorageDate.format)))
        case .rate(let previous, _):
          tie.rating = previous
          try tie.validate()
          try filter.updateAll(db, BowTie.Columns.rating.set(to: previous))
        case .favorite(let previous, _):
          tie.isFavorite = previous
          try tie.validate()
          try filter.updateAll(db, BowTie.Columns.isFavorite.set(to: previous))
        case .add:
          if let file = tie.externalPhotoName { changes.released.insert(file) }
          try BowTie.deleteOne(db, key: tie.id.uuidString)
          return UndoneChange(change: entry.change, tie: nil, name: tie.name)
        case .edit(let previous):
          if let file = tie.externalPhotoName { changes.released.insert(file) }
          try restoreEdited(previous, in: db)
        case .remove:
          break
        }
        let restored = try Self.refetch(tie, in: db)
        return UndoneChange(change: entry.change, tie: restored, name: restored.name)
      }
      return nil
    }
  }

  /// Puts an edited tie's row back as it was, after checking it is still a valid tie
  /// whose search key no other tie took since.
  private func restoreEdited(_ snapshot: TieSnapshot, in db: Database) throws {
    let names = snapshot.columns.keys.filter { $0 != "id" && $0 != "timesWorn" }.sorted()
    let assignments = names.map { "\($0) = ?" }.joined(separator: ", ")
    try checkRestorable(snapshot, in: db)
    // timesWorn follows the wear events, which the trigger counts; the baseline is
    // what the snapshot had.
    try db.execute(
      sql: "UPDATE bowTie SET \(assignments) WHERE id = ?",
      arguments: snapshot.arguments(names + ["id"]))
    try db.execute(
      sql: """
        UPDATE bowTie SET timesWorn = wearsBeforeHistory
          + (SELECT count(*) FROM wearEvent WHERE tieId = bowTie.id) WHERE id = ?
        """, arguments: snapshot.arguments(["id"]))
    try describePhotoIfUnrecorded(snapshot, in: db)
  }

  /// A snapshot taken before the store recorded photo formats (schema v5) puts the
  /// photo back without them: they are read from the photo itself.
  private func describePhotoIfUnrecorded(_ snapshot: TieSnapshot, in db: Database) throws {
    guard snapshot.columns["photoFormat"] == nil, case .text(let id)? = snapshot.columns["id"]
    else { return }
    try Schema.describePhoto(ofTie: id, in: db, readingPhotoFile: photoFileContents)
  }

  /// Re-inserts a removed tie's row and its wears.
  private func restoreRemoved(_ snapshot: TieSnapshot, in db: Database) throws -> BowTie {
    try checkRestorable(snapshot, in: db)
    var columns = snapshot
    // Inserting the wears counts them again, through the trigger.
    columns.columns["timesWorn"] = columns.columns["wearsBeforeHistory"]
    let names = columns.columns.keys.sorted()
    let placeholders = names.map { _ in "?" }.joined(separator: ", ")
    try db.execute(
      sql: "INSERT INTO bowTie (\(names.joined(separator: ", "))) VALUES (\(placeholders))",
      arguments: columns.arguments(names))
    guard case .text(let idText)? = snapshot.columns["id"], let id = UUID(uuidString: idText) else {
      throw BowTieError.storeUnreadable(path: "", reason: "an undo entry cannot be read")
    }
    for date in snapshot.wears {
      var event = WearEvent(tieID: id, wornAt: date)
      try event.insert(db)
    }
    try describePhotoIfUnrecorded(snapshot, in: db)
    guard let tie = try BowTie.filter(key: idText).fetchOne(db) else {
      throw BowTieError.noSuchTie(idText)
    }
    try tie.validate()
    return tie
  }

  private func checkRestorable(_ snapshot: TieSnapshot, in db: Database) throws {
    guard case .text(let key)? = snapshot.columns["canonicalKey"],
      case .text(let id)? = snapshot.columns["id"]
    else { throw BowTieError.storeUnreadable(path: "", reason: "an undo entry cannot be read") }
    if let other = try BowTie.filter(BowTie.Columns.canonicalKey == key)
      .filter(BowTie.Columns.id != id).fetchOne(db)
    {
      throw BowTieError.invalidTie(
        name: other.name,
        ValidationFailure(attribute: "searchKey", reason: "'\(other.searchKey)' was taken since"))
    }
  }
}
