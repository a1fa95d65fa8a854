import BowTieModel
import Foundation

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
      let sql = SummarySQL.history(
        tieId: try query.map { query in try Self.resolve(query, in: db).id.text },
        since: since.map(StorageDate.format), until: until.map(StorageDate.format))
      try db.forEachRow(sql) { row in
        try body(
          WearRecord(
            event: try WearEvent(row: row), searchKey: try row.decode("searchKey"),
            name: try row.decode("name")))
      }
    }
  }
}

// MARK: - Undo

extension BowTieStore {
  /// Adds a change to the undo log, forgetting the oldest beyond its capacity. A photo
  /// file only a forgotten entry still named is handed to clean-up.
  func log(
    _ change: UndoableChange, for tie: BowTie, in connection: any SQLConnection,
    _ photos: any PhotoWriter
  ) throws {
    var entry = UndoEntry(madeAt: Date(), madeBy: user, tieID: tie.id, change: change)
    try entry.append(to: connection)
    guard let newest = entry.id else { return }
    let lastForgotten = newest - Int64(UndoEntry.capacity)
    for name in try connection.fetchValues(
      "SELECT photoFile FROM undoEntry WHERE id <= \(lastForgotten) AND photoFile IS NOT NULL",
      as: String.self)
    {
      photos.release(name)
    }
    try connection.execute("DELETE FROM undoEntry WHERE id <= \(lastForgotten)")
  }

  /// Takes back ``user``'s most recent logged change; called again, the one before it.
  /// Entries logged before changes recorded their user are anyone's.
  ///
  /// The restored tie is validated like any save; if it would be refused, nothing
  /// changes and the entry stays. Entries for ties that no longer exist are dropped.
  ///
  /// - Returns: what was undone, or nil when the log holds nothing of the user's.
  /// - Throws: ``BowTieError/changedByOtherUser(tie:change:user:)`` when another user
  ///   changed the tie since: undoing would take back their change too (a wear's count,
  ///   a rating) or overwrite it. Nothing changes, and the entry stays.
  public func undo() throws(BowTieError) -> UndoneChange? {
    try write { connection, photos in
      while let row = try connection.fetchOne(
        """
        SELECT \(UndoEntry.Columns.entry) FROM undoEntry WHERE madeBy = \(user) OR madeBy = '' \
        ORDER BY id DESC LIMIT 1\(connection.dialect.lockingRead)
        """)
      {
        let entry = try UndoEntry(row: row)
        let id = entry.id ?? 0
        if let problem = entry.problem() {
          throw BowTieError.storeUnreadable(
            path: "",
            reason: "undo entry \(id) cannot be undone: \(problem); "
              + "bowties doctor --repair removes it")
        }
        // A removed tie's row is gone; its entry holds what comes back.
        let tie: BowTie? =
          if case .remove = entry.change {
            nil
          } else {
            try connection.fetchOne(
              """
              SELECT \(BowTie.Columns.all) FROM bowTie \
              WHERE id = \(entry.tieID.text)\(connection.dialect.lockingRead)
              """
            ).map(BowTie.init)
          }
        if let other = try connection.fetchValue(
          """
          SELECT madeBy FROM undoEntry WHERE tieId = \(entry.tieID.text) AND id > \(id) \
          AND madeBy <> \(user) ORDER BY id DESC LIMIT 1
          """, as: String.self)
        {
          throw BowTieError.changedByOtherUser(
            tie: tie?.name ?? entry.change.tieName ?? entry.tieID.text,
            change: entry.change.command,
            user: other)
        }
        try connection.execute("DELETE FROM undoEntry WHERE id = \(id)")
        if let file = entry.change.photoFile { photos.release(file) }
        if case .remove(let previous) = entry.change {
          let restored = try restoreRemoved(previous, in: connection)
          return UndoneChange(change: entry.change, tie: restored, name: restored.name)
        }
        guard var tie else { continue }
        switch entry.change {
        case .wear(let eventID, _, let previousLastWorn):
          let deleted = try connection.fetchValue(
            "DELETE FROM wearEvent WHERE id = \(eventID) RETURNING id", as: Int64.self)
          if deleted != nil { tie.timesWorn -= 1 }
          tie.lastWorn = previousLastWorn
          try tie.validate()
          try Self.set(
            "lastWorn", to: previousLastWorn.map(StorageDate.format), of: tie, in: connection)
        case .rate(let previous, _):
          tie.rating = previous
          try tie.validate()
          try Self.set("rating", to: previous, of: tie, in: connection)
        case .favorite(let previous, _):
          tie.isFavorite = previous
          try tie.validate()
          try Self.set("isFavorite", to: previous, of: tie, in: connection)
        case .add:
          if let file = tie.externalPhotoName { photos.release(file) }
          try connection.execute("DELETE FROM bowTie WHERE id = \(tie.id.text)")
          return UndoneChange(change: entry.change, tie: nil, name: tie.name)
        case .edit(let previous):
          if let file = tie.externalPhotoName { photos.release(file) }
          try restoreEdited(previous, in: connection)
        case .remove:
          break
        }
        let restored = try Self.refetch(tie, in: connection)
        return UndoneChange(change: entry.change, tie: restored, name: restored.name)
      }
      return nil
    }
  }

  /// Puts an edited tie's row back as it was, after checking it is still a valid tie
  /// whose search key no other tie took since.
  private func restoreEdited(_ snapshot: TieSnapshot, in connection: any SQLConnection) throws {
    let snapshot = snapshot.withCurrency
    let names = snapshot.columns.keys.filter {
      $0 != BowTie.Columns.id && $0 != BowTie.Columns.timesWorn
    }.sorted()
    let assignments = zip(names, snapshot.values(names)).map { name, value -> SQL in
      "\(sql: name) = \(value)"
    }
    let id = snapshot.values([BowTie.Columns.id])[0]
    try checkRestorable(snapshot, in: connection)
    // timesWorn follows the wear events, which the trigger counts; the baseline is
    // what the snapshot had.
    try connection.execute(
      "UPDATE bowTie SET \(assignments.joined(separator: ", ")) WHERE id = \(id)")
    try connection.execute(
      """
      UPDATE bowTie SET timesWorn = wearsBeforeHistory
        + (SELECT count(*) FROM wearEvent WHERE tieId = bowTie.id) WHERE id = \(id)
      """)
    try describePhotoIfUnrecorded(snapshot, in: connection)
  }

  /// A snapshot taken before the store recorded photo formats (schema v5) puts the
  /// photo back without them: they are read from the photo itself.
  private func describePhotoIfUnrecorded(
    _ snapshot: TieSnapshot, in connection: any SQLConnection
  ) throws {
    guard snapshot.columns["photoFormat"] == nil, case .text(let id)? = snapshot.columns["id"]
    else { return }
    try BowTie.describePhoto(ofTie: id, in: connection, readingPhoto: photoContents)
  }

  /// Re-inserts a removed tie's row and its wears.
  private func restoreRemoved(_ snapshot: TieSnapshot, in connection: any SQLConnection) throws
    -> BowTie
  {
    try checkRestorable(snapshot, in: connection)
    var columns = snapshot.withCurrency
    // Inserting the wears counts them again, through the trigger.
    columns.columns[BowTie.Columns.timesWorn] = columns.columns[BowTie.Columns.wearsBeforeHistory]
    let names = columns.columns.keys.sorted()
    try connection.execute(
      .insert(into: BowTie.Columns.table, columns: names, values: columns.values(names)))
    guard case .text(let idText)? = snapshot.columns["id"], let id = UUID(text: idText) else {
      throw BowTieError.storeUnreadable(path: "", reason: "an undo entry cannot be read")
    }
    for date in snapshot.wears {
      var event = WearEvent(tieID: id, wornAt: date)
      try event.append(to: connection)
    }
    try describePhotoIfUnrecorded(snapshot, in: connection)
    guard
      let tie = try connection.fetchOne(
        "SELECT \(BowTie.Columns.all) FROM bowTie WHERE id = \(idText)"
      ).map(BowTie.init)
    else {
      throw BowTieError.noSuchTie(idText)
    }
    try tie.validate()
    return tie
  }

  private func checkRestorable(_ snapshot: TieSnapshot, in connection: any SQLConnection) throws {
    guard case .text(let key)? = snapshot.columns["canonicalKey"],
      case .text(let id)? = snapshot.columns["id"]
    else { throw BowTieError.storeUnreadable(path: "", reason: "an undo entry cannot be read") }
    if let other = try connection.fetchOne(
      "SELECT \(BowTie.Columns.listing) FROM bowTie WHERE canonicalKey = \(key) AND id <> \(id)"
    ).map(BowTie.init) {
      throw BowTieError.invalidTie(
        name: other.name,
        ValidationFailure(attribute: "searchKey", reason: "'\(other.searchKey)' was taken since"))
    }
  }
}
