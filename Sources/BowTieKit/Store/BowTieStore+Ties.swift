import Foundation

// MARK: - Reads

extension BowTieStore {
  /// Finds the one tie `query` names: a search key (`R`, `r`), an id, a name, or a
  /// unique prefix of the canonical name (`cafe` finds "Café Bow Tie").
  ///
  /// - Parameter loadingPhoto: whether to read the photo's bytes, from the file when
  ///   it is stored externally.
  public func tie(matching query: String, loadingPhoto: Bool = false) throws(BowTieError) -> BowTie
  {
    var tie = try read { connection in try Self.resolve(query, in: connection) }
    if loadingPhoto {
      // The same photo, its bytes now at hand: what the store recorded of it stays.
      let (byteCount, description) = (tie.storedPhotoByteCount, tie.storedPhotoDescription)
      tie.photoData = try photoData(of: tie)
      tie.storedPhotoByteCount = byteCount
      tie.storedPhotoDescription = description
    }
    return tie
  }

  /// Every tie, R O Y G B I V first and then by name, without the photos' bytes.
  public func allTies() throws(BowTieError) -> [BowTie] {
    try read { connection in
      try connection.fetchAll(
        "SELECT \(BowTie.listingColumns) FROM bowTie ORDER BY \(BowTie.appOrder)", [],
        BowTie.init)
    }
  }

  /// The number of ties in the store.
  public func count() throws(BowTieError) -> Int {
    try read { connection in try connection.fetchValue("SELECT count(*) FROM bowTie") ?? 0 }
  }

  /// The photo's bytes, read from its external file when it has one.
  public func photoData(of tie: BowTie) throws(BowTieError) -> Data? {
    if let name = tie.externalPhotoName {
      return try engine.readPhoto(name, expectedSize: tie.storedPhotoByteCount, tie: tie.name)
    }
    if tie.photoData == nil, tie.storedPhotoByteCount != nil {
      // A listing fetch skipped the bytes; fetch them now.
      return try read { connection in
        try connection.fetchValue("SELECT photoData FROM bowTie WHERE id = ?", [tie.id.text])
      }
    }
    return tie.photoData
  }

  /// Describes a problem with the tie's external photo file, or nil when it is intact
  /// or the photo is inline. Cheaper than ``photoData(of:)``: it only checks the size.
  public func photoProblem(of tie: BowTie) -> BowTieError? {
    guard let name = tie.externalPhotoName else { return nil }
    return engine.photoProblem(name, expectedSize: tie.storedPhotoByteCount, tie: tie.name)
  }

  /// The one tie `query` names (``tie(matching:loadingPhoto:)``). In a write transaction
  /// (`locking`), its row stays locked until the transaction ends, so that what the command
  /// read of it is what it changes.
  static func resolve(_ query: String, in connection: any SQLConnection, locking: Bool = false)
    throws -> BowTie
  {
    let lock = locking ? connection.dialect.lockingRead : ""
    func ties(where condition: String, _ value: String, limit: Int) throws -> [BowTie] {
      try connection.fetchAll(
        "SELECT \(BowTie.allColumns) FROM bowTie WHERE \(condition) "
          + "ORDER BY \(BowTie.appOrder) LIMIT \(limit)\(lock)", [value], BowTie.init)
    }
    let trimmed = query.trimmingSpaces()
    // GRDB binds text as a C string, so SQLite would see the query only up to a NUL ("B\0x"
    // found B). No key or name holds one: validation refuses control characters.
    guard !trimmed.isEmpty, !trimmed.utf8.contains(0) else { throw BowTieError.noSuchTie(query) }
    let canonical = BowTie.canonicalize(trimmed)
    // The common case, a search key, on its unique index.
    if let row = try connection.fetchOne(
      "SELECT \(BowTie.allColumns) FROM bowTie WHERE canonicalKey = ?\(lock)", [canonical])
    {
      return try BowTie(row: row)
    }
    // Not UUID(uuidString:): on Linux its sscanf reads "…-80+0-…" as "…-8000-…" and stops
    // at a NUL, so text that is no id found a tie.
    if let id = UUID(text: trimmed),
      let row = try connection.fetchOne(
        "SELECT \(BowTie.allColumns) FROM bowTie WHERE id = ?\(lock)", [id.text])
    {
      return try BowTie(row: row)
    }
    let exact = try ties(where: "canonicalName = ?", canonical, limit: 11)
    if exact.count == 1 { return exact[0] }
    if exact.count > 1 {
      throw BowTieError.ambiguousTie(query, candidates: exact.prefix(10).map(\.label))
    }
    // A range on the indexed column finds every name that starts with the prefix.
    let prefixed = try connection.fetchAll(
      "SELECT \(BowTie.allColumns) FROM bowTie WHERE canonicalName >= ? AND canonicalName < ? "
        + "ORDER BY \(BowTie.appOrder) LIMIT 11\(lock)", [canonical, canonical + "\u{10FFFF}"],
      BowTie.init)
    switch prefixed.count {
    case 0: throw BowTieError.noSuchTie(query)
    case 1: return prefixed[0]
    default: throw BowTieError.ambiguousTie(query, candidates: prefixed.prefix(10).map(\.label))
    }
  }
}

extension BowTie {
  /// "Red Bow Tie (R)": how candidates are listed when a name is ambiguous.
  var label: String { "\(name) (\(searchKey))" }
}

// MARK: - Writes

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
      return try Self.refetch(tie, in: connection)
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
      return try Self.refetch(tie, in: connection)
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
      return try Self.refetch(tie, in: connection)
    }
  }

  /// Sets one column of a stored tie.
  static func set(
    _ column: String, to value: any SQLValueConvertible, of tie: BowTie,
    in connection: any SQLConnection
  ) throws {
    try connection.execute("UPDATE bowTie SET \(column) = ? WHERE id = ?", [value, tie.id.text])
  }

  /// The tie as stored now.
  static func refetch(_ tie: BowTie, in connection: any SQLConnection) throws -> BowTie {
    guard
      let row = try connection.fetchOne(
        "SELECT \(BowTie.allColumns) FROM bowTie WHERE id = ?", [tie.id.text])
    else {
      throw BowTieError.noSuchTie(tie.id.uuidString)
    }
    return try BowTie(row: row)
  }

  /// What a caller has already made sure of, so that a save does not check it again.
  struct SaveChecks: OptionSet {
    let rawValue: Int
    /// The tie passed ``BowTie/validate()``.
    static let validated = SaveChecks(rawValue: 1 << 0)
    /// No other stored tie has the tie's search key.
    static let keyIsFree = SaveChecks(rawValue: 1 << 1)
  }

  /// Validates and saves a whole tie (insert or update), storing a large photo
  /// externally. Runs inside the caller's write transaction.
  func save(
    _ tie: BowTie, replacing existing: BowTie?, in connection: any SQLConnection,
    _ photos: any PhotoWriter, alreadyChecked: SaveChecks = []
  ) throws {
    var tie = tie
    if !alreadyChecked.contains(.validated) {
      try tie.validate()
    }
    if !alreadyChecked.contains(.keyIsFree) {
      let key = BowTie.canonicalKey(tie.searchKey)
      if let other = try connection.fetchValue(
        "SELECT name FROM bowTie WHERE canonicalKey = ? AND id != ? LIMIT 1", [key, tie.id.text],
        as: String.self)
      {
        throw BowTieError.invalidTie(
          name: tie.name,
          ValidationFailure(
            attribute: "searchKey", reason: "'\(tie.searchKey)' is already used by \(other)"))
      }
    }
    // New bytes, not yet checked (a library caller's): checked now, as every photo is on
    // its way in. Bytes read from the store are not: a photo stored before photos were
    // checked must not stop an edit of the price.
    if let data = tie.photoData, tie.storedPhotoByteCount == nil, tie.photoDescription == nil {
      do {
        tie.setPhoto(try PhotoIntake.check(data))
      } catch {
        throw BowTieError.invalidTie(
          name: tie.name, ValidationFailure(attribute: "photoData", reason: error.description))
      }
    }
    // New bytes decide where the photo lives; without them, an external photo the tie
    // already refers to stays as it is.
    if let data = tie.photoData {
      tie.externalPhotoName = nil
      if photos.isExternal(byteCount: data.count) {
        tie.externalPhotoName = try photos.store(data)
      }
    }
    if let old = existing?.externalPhotoName, old != tie.externalPhotoName {
      photos.release(old)
    }
    // timesWorn is what the caller says the tie has been worn in all; the recorded
    // events are part of that count, so the rest came from before the history.
    let events =
      existing == nil
      ? 0
      : try connection.fetchValue(
        "SELECT count(*) FROM wearEvent WHERE tieId = ?", [tie.id.text], as: Int.self) ?? 0
    guard Int(tie.timesWorn) >= events else {
      throw BowTieError.invalidTie(
        name: tie.name,
        ValidationFailure(
          attribute: "timesWorn", reason: "\(tie.timesWorn) is below the \(events) recorded wears"))
    }
    tie.wearsBeforeHistory = tie.timesWorn - Int32(events)
    if existing == nil {
      try tie.insertRow(connection)
    } else {
      try tie.updateRow(connection)
    }
  }
}
