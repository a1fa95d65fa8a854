import BowTieModel
import Foundation

// The changes of one attribute that `wear`, `rate` and `favorite` make, each one transaction
// that the undo log records.

/// How `favorite` changes the flag.
public enum FavoriteChange: Sendable {
  case set, clear, toggle
}

extension BowTieStore {
  /// Records one more wear as an event, which adds one to `timesWorn` in the same
  /// transaction, so concurrent processes never lose a wear. `lastWorn` moves to `date`
  /// unless the tie was already worn later (a wear recorded after the fact).
  @discardableResult
  public func wear(_ query: String, on date: Date = Date()) throws(BowTieError) -> BowTie {
    try write { connection, photos in
      var tie = try Self.resolve(query, in: connection, locking: true)
      guard tie.timesWorn < Int32.max else {
        throw BowTieError.invalidTie(
          name: tie.name,
          ValidationFailure(attribute: "timesWorn", reason: "cannot go above \(Int32.max)"))
      }
      // The tie's lastWorn keeps the later date, so the wear's own is checked too: one
      // before the year 1 would be stored as text nothing reads back.
      guard BowTie.lastWornRange.contains(date) else {
        throw BowTieError.invalidTie(
          name: tie.name,
          ValidationFailure(attribute: "wornAt", reason: "is outside the years 1 to 9999"))
      }
      let previousLastWorn = tie.lastWorn
      tie.timesWorn += 1
      tie.lastWorn = max(previousLastWorn ?? date, date)
      try tie.validate()
      var event = WearEvent(tieID: tie.id, wornAt: date)
      try event.append(to: connection)
      if tie.lastWorn != previousLastWorn {
        try Self.set("lastWorn", to: tie.lastWorn.map(StorageDate.format), of: tie, in: connection)
      }
      try log(
        .wear(eventID: event.id ?? 0, wornAt: date, previousLastWorn: previousLastWorn),
        for: tie, in: connection, photos)
      return checkingPhoto(try Self.refetch(tie, in: connection))
    }
  }

  /// Sets the rating, which must lie in 0…5.
  @discardableResult
  public func rate(_ query: String, rating: Double) throws(BowTieError) -> BowTie {
    try write { connection, photos in
      var tie = try Self.resolve(query, in: connection, locking: true)
      let previous = tie.rating
      tie.rating = rating
      try tie.validate()
      try Self.set("rating", to: rating, of: tie, in: connection)
      try log(.rate(previous: previous, new: rating), for: tie, in: connection, photos)
      return checkingPhoto(try Self.refetch(tie, in: connection))
    }
  }

  /// Sets, clears or toggles the favorite flag.
  @discardableResult
  public func favorite(_ query: String, _ change: FavoriteChange) throws(BowTieError) -> BowTie {
    try write { connection, photos in
      var tie = try Self.resolve(query, in: connection, locking: true)
      let previous = tie.isFavorite
      switch change {
      case .set: tie.isFavorite = true
      case .clear: tie.isFavorite = false
      case .toggle: tie.isFavorite.toggle()
      }
      try tie.validate()
      try Self.set("isFavorite", to: tie.isFavorite, of: tie, in: connection)
      try log(
        .favorite(previous: previous, new: tie.isFavorite), for: tie, in: connection, photos)
      return checkingPhoto(try Self.refetch(tie, in: connection))
    }
  }

  /// Sets one column of a stored tie.
  static func set(
    _ column: String, to value: any SQLValueConvertible, of tie: BowTie,
    in connection: any SQLConnection
  ) throws {
    try connection.execute("UPDATE bowTie SET \(sql: column) = \(value) WHERE id = \(tie.id.text)")
  }

  /// The tie as stored now.
  static func refetch(_ tie: BowTie, in connection: any SQLConnection) throws -> BowTie {
    guard
      let row = try connection.fetchOne(
        "SELECT \(BowTie.Columns.all) FROM bowTie WHERE id = \(tie.id.text)")
    else {
      throw BowTieError.noSuchTie(tie.id.uuidString)
    }
    return try BowTie(row: row)
  }
}
