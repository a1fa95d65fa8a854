import Foundation
import GRDB

// MARK: - Wear history

extension BowTieStore {
  /// Wear events, newest first, for one tie or all, within `[since, until)`.
  public func history(
    of query: String? = nil, since: Date? = nil, until: Date? = nil
  ) throws(BowTieError) -> [WearRecord] {
    try read { db in
      var request = WearEvent.all()
      if let query {
        let tie = try Self.resolve(query, in: db)
        request = request.filter(WearEvent.Columns.tieID == tie.id.uuidString)
      }
      if let since {
        request = request.filter(WearEvent.Columns.wornAt >= StorageDate.format(since))
      }
      if let until {
        request = request.filter(WearEvent.Columns.wornAt < StorageDate.format(until))
      }
      let events = try request.order(WearEvent.Columns.wornAt.desc, WearEvent.Columns.id.desc)
        .fetchAll(db)
      let ids = Set(events.map(\.tieID.uuidString))
      let ties = try BowTie.filter(keys: ids).select(BowTie.allColumnsButPhotoBytes).fetchAll(db)
      let byID = Dictionary(uniqueKeysWithValues: ties.map { ($0.id, $0) })
      return events.map { event in
        let tie = byID[event.tieID]
        return WearRecord(event: event, searchKey: tie?.searchKey ?? "?", name: tie?.name ?? "?")
      }
    }
  }

  /// The dates of all wears in `[since, until)`, oldest first: what reports count.
  public func wearDates(since: Date, until: Date) throws(BowTieError) -> [Date] {
    try read { db in
      try String.fetchAll(
        db,
        WearEvent.select(WearEvent.Columns.wornAt)
          .filter(WearEvent.Columns.wornAt >= StorageDate.format(since))
          .filter(WearEvent.Columns.wornAt < StorageDate.format(until))
          .order(WearEvent.Columns.wornAt)
      ).map(StorageDate.parse)
    }
  }
}

// MARK: - Undo

extension BowTieStore {
  /// Adds a change to the undo log, forgetting the oldest beyond its capacity.
  static func log(_ change: UndoableChange, for tie: BowTie, in db: Database) throws {
    var entry = UndoEntry(madeAt: Date(), tieID: tie.id, change: change)
    try entry.insert(db)
    if let newest = entry.id {
      try UndoEntry.filter(UndoEntry.Columns.id <= newest - Int64(UndoEntry.capacity)).deleteAll(db)
    }
  }

  /// Takes back the most recent logged change; called again, the one before it.
  ///
  /// The restored tie is validated like any save; if it would be refused, nothing
  /// changes and the entry stays. Entries for ties that no longer exist are dropped.
  ///
  /// - Returns: what was undone, or nil when the log is empty.
  public func undo() throws(BowTieError) -> UndoneChange? {
    try write { db, _ in
      while let entry = try UndoEntry.order(UndoEntry.Columns.id.desc).fetchOne(db) {
        _ = try entry.delete(db)
        guard var tie = try BowTie.filter(key: entry.tieID.uuidString).fetchOne(db) else {
          continue
        }
        switch entry.change {
        case .wear(let eventID, _, let previousLastWorn):
          if try WearEvent.deleteOne(db, key: eventID) {
            tie.timesWorn -= 1
          }
          tie.lastWorn = previousLastWorn
          try tie.validate()
          try BowTie.filter(key: tie.id.uuidString).updateAll(
            db, BowTie.Columns.lastWorn.set(to: previousLastWorn.map(StorageDate.format)))
        case .rate(let previous, _):
          tie.rating = previous
          try tie.validate()
          try BowTie.filter(key: tie.id.uuidString).updateAll(
            db, BowTie.Columns.rating.set(to: previous))
        case .favorite(let previous, _):
          tie.isFavorite = previous
          try tie.validate()
          try BowTie.filter(key: tie.id.uuidString).updateAll(
            db, BowTie.Columns.isFavorite.set(to: previous))
        }
        return UndoneChange(change: entry.change, tie: try Self.refetch(tie, in: db))
      }
      return nil
    }
  }
}
