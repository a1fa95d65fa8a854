import Foundation
import GRDB

// MARK: - Reads

extension BowTieStore {
  /// Finds the one tie `query` names: a search key (`R`, `r`), an id, a name, or a
  /// unique prefix of the canonical name (`cafe` finds "Café Bow Tie").
  ///
  /// - Parameter loadingPhoto: whether to read the photo's bytes, from the file when
  ///   it is stored externally.
  public func tie(matching query: String, loadingPhoto: Bool = false) throws(BowTieError) -> BowTie
  {
    var tie = try read { db in try Self.resolve(query, in: db) }
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
    try read { db in
      try BowTie.all().select(BowTie.allColumnsButPhotoBytes).orderedLikeTheApp().fetchAll(db)
    }
  }

  /// The number of ties in the store.
  public func count() throws(BowTieError) -> Int {
    try read { db in try BowTie.fetchCount(db) }
  }

  /// The photo's bytes, read from its external file when it has one.
  public func photoData(of tie: BowTie) throws(BowTieError) -> Data? {
    if let name = tie.externalPhotoName {
      return try photos.read(name, expectedSize: tie.storedPhotoByteCount, tie: tie.name)
    }
    if tie.photoData == nil, tie.storedPhotoByteCount != nil {
      // A listing fetch skipped the bytes; fetch them now.
      return try read { db in
        try Data.fetchOne(
          db, BowTie.filter(key: tie.id.uuidString).select(BowTie.Columns.photoData))
      }
    }
    return tie.photoData
  }

  /// Describes a problem with the tie's external photo file, or nil when it is intact
  /// or the photo is inline. Cheaper than ``photoData(of:)``: it only checks the size.
  public func photoProblem(of tie: BowTie) -> BowTieError? {
    guard let name = tie.externalPhotoName else { return nil }
    return photos.problem(with: name, expectedSize: tie.storedPhotoByteCount, tie: tie.name)
  }

  static func resolve(_ query: String, in db: Database) throws -> BowTie {
    let trimmed = query.trimmingSpaces()
    // GRDB binds text as a C string, so SQLite would see the query only up to a NUL ("B\0x"
    // found B). No key or name holds one: validation refuses control characters.
    guard !trimmed.isEmpty, !trimmed.utf8.contains(0) else { throw BowTieError.noSuchTie(query) }
    let canonical = BowTie.canonicalize(trimmed)
    // The common case, a search key, in plain SQL on its unique index: building this
    // query with GRDB's query interface cost more than running it (callgrind, `show`).
    if let tie = try BowTie.fetchOne(
      db, sql: "SELECT * FROM bowTie WHERE canonicalKey = ?", arguments: [canonical])
    {
      return tie
    }
    // Not UUID(uuidString:): on Linux its sscanf reads "…-80+0-…" as "…-8000-…" and stops
    // at a NUL, so text that is no id found a tie.
    if let id = UUID(text: trimmed),
      let tie = try BowTie.filter(key: id.uuidString).fetchOne(db)
    {
      return tie
    }
    let exact = try BowTie.filter(BowTie.Columns.canonicalName == canonical)
      .orderedLikeTheApp().fetchAll(db)
    if exact.count == 1 { return exact[0] }
    if exact.count > 1 { throw BowTieError.ambiguousTie(query, candidates: exact.map(\.label)) }
    // A range on the indexed column finds every name that starts with the prefix.
    let prefixed = try BowTie.filter(
      BowTie.Columns.canonicalName >= canonical
        && BowTie.Columns.canonicalName < canonical + "\u{10FFFF}"
    ).orderedLikeTheApp().limit(11).fetchAll(db)
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
    try write { db, changes in
      var tie = try Self.resolve(query, in: db)
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
      try event.append(to: db)
      if tie.lastWorn != previousLastWorn {
        try Self.set(
          BowTie.Columns.lastWorn, to: tie.lastWorn.map(StorageDate.format), of: tie, in: db)
      }
      try Self.log(
        .wear(eventID: event.id ?? 0, wornAt: date, previousLastWorn: previousLastWorn),
        for: tie, in: db, changes)
      return try Self.refetch(tie, in: db)
    }
  }

  /// Sets the rating, which must lie in 0…5.
  @discardableResult
  public func rate(_ query: String, rating: Double) throws(BowTieError) -> BowTie {
    try write { db, changes in
      var tie = try Self.resolve(query, in: db)
      let previous = tie.rating
      tie.rating = rating
      try tie.validate()
      try Self.set(BowTie.Columns.rating, to: rating, of: tie, in: db)
      try Self.log(.rate(previous: previous, new: rating), for: tie, in: db, changes)
      return try Self.refetch(tie, in: db)
    }
  }

  /// Sets, clears or toggles the favorite flag.
  @discardableResult
  public func favorite(_ query: String, _ change: FavoriteChange) throws(BowTieError) -> BowTie {
    try write { db, changes in
      var tie = try Self.resolve(query, in: db)
      let previous = tie.isFavorite
      switch change {
      case .set: tie.isFavorite = true
      case .clear: tie.isFavorite = false
      case .toggle: tie.isFavorite.toggle()
      }
      try tie.validate()
      try Self.set(BowTie.Columns.isFavorite, to: tie.isFavorite, of: tie, in: db)
      try Self.log(.favorite(previous: previous, new: tie.isFavorite), for: tie, in: db, changes)
      return try Self.refetch(tie, in: db)
    }
  }

  // `wear`, `rate` and `favorite` write one column of one row, then read the row back,
  // in SQL: GRDB's query interface reads the table's schema on its first use in a
  // connection (is it a view? which columns make a unique key?), and a connection here
  // lives for one command. With `LogRecord.append`, doing without that reading took a
  // `wear` from 17.6 M to 13.8 M instructions.

  /// Sets one column of a stored tie.
  static func set(
    _ column: Column, to value: (any DatabaseValueConvertible)?, of tie: BowTie, in db: Database
  ) throws {
    try db.execute(
      literal:
        "UPDATE \(BowTie.self) SET \(column) = \(value) WHERE \(BowTie.Columns.id) = \(tie.id.uuidString)"
    )
  }

  /// The tie as stored now.
  static func refetch(_ tie: BowTie, in db: Database) throws -> BowTie {
    let request = SQLRequest<BowTie>(
      literal: "SELECT * FROM \(BowTie.self) WHERE \(BowTie.Columns.id) = \(tie.id.uuidString)")
    guard let saved = try request.fetchOne(db) else {
      throw BowTieError.noSuchTie(tie.id.uuidString)
    }
    return saved
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
    _ tie: BowTie, replacing existing: BowTie?, in db: Database, _ changes: PhotoChanges,
    alreadyChecked: SaveChecks = []
  ) throws {
    var tie = tie
    if !alreadyChecked.contains(.validated) {
      try tie.validate()
    }
    if !alreadyChecked.contains(.keyIsFree) {
      let key = BowTie.canonicalKey(tie.searchKey)
      let keyOwner = try db.cachedStatement(
        sql: "SELECT name FROM bowTie WHERE canonicalKey = ? AND id != ? LIMIT 1")
      if let other = try String.fetchOne(keyOwner, arguments: [key, tie.id.text]) {
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
      if photos.isExternal(data) {
        let (name, created) = try photos.write(data, changes)
        tie.externalPhotoName = name
        if created { changes.created.append(name) }
      }
    }
    if let old = existing?.externalPhotoName, old != tie.externalPhotoName {
      changes.released.insert(old)
    }
    // timesWorn is what the caller says the tie has been worn in all; the recorded
    // events are part of that count, so the rest came from before the history.
    let events =
      existing == nil
      ? 0 : try WearEvent.filter(WearEvent.Columns.tieID == tie.id.uuidString).fetchCount(db)
    guard Int(tie.timesWorn) >= events else {
      throw BowTieError.invalidTie(
        name: tie.name,
        ValidationFailure(
          attribute: "timesWorn", reason: "\(tie.timesWorn) is below the \(events) recorded wears"))
    }
    tie.wearsBeforeHistory = tie.timesWorn - Int32(events)
    if existing == nil {
      try tie.insertRow(db)
    } else {
      try tie.update(db)
    }
  }
}
