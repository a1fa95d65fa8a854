import BowTieModel
import Foundation

// Adding, editing and removing whole ties, and the save they share with seeding.

/// What `edit` changes; a nil attribute stays as it is.
public struct TieEdit: Sendable {
  public enum PhotoChange: Sendable {
    case keep
    case replace(CheckedPhoto)
    case remove
  }

  public var name: String?
  public var searchKey: String?
  public var tintColor: TieColor?
  public var rating: Double?
  public var url: URL?
  public var price: Decimal?
  /// The new price's currency; nil keeps the tie's.
  public var currency: String?
  public var photo = PhotoChange.keep
  public var timesWorn: Int32?
  public var lastWorn: Date?

  public init() {}

  /// Whether the edit names no attribute to change: an edit that must be refused, not
  /// one whose values merely equal the tie's.
  public var namesNothing: Bool {
    guard case .keep = photo else { return false }
    let values: [Any?] = [
      name, searchKey, tintColor, rating, url, price, currency, timesWorn, lastWorn,
    ]
    return values.allSatisfy { $0 == nil }
  }
}

extension BowTieStore {
  /// Adds a tie, choosing a free search key when `tie.searchKey` is empty.
  @discardableResult
  public func add(_ tie: BowTie) throws(BowTieError) -> BowTie {
    try write { connection, photos in
      var tie = tie
      if tie.searchKey.isEmpty {
        tie.searchKey = try Self.freeSearchKey(for: tie.name, in: connection)
      }
      if try connection.fetchOne("SELECT 1 FROM bowTie WHERE id = \(tie.id.text)") != nil {
        throw BowTieError.invalidTie(
          name: tie.name, ValidationFailure(attribute: "id", reason: "\(tie.id) is already used"))
      }
      try save(tie, replacing: nil, in: connection, photos)
      try log(.add(name: tie.name), for: tie, in: connection, photos)
      return checkingPhoto(try Self.refetch(tie, in: connection))
    }
  }

  /// Changes some of a tie's attributes, validated like any save.
  @discardableResult
  public func edit(_ query: String, _ edit: TieEdit) throws(BowTieError) -> BowTie {
    try write { connection, photos in
      let existing = try Self.resolve(query, in: connection, locking: true)
      guard let snapshot = try TieSnapshot.take(existing.id, in: connection) else {
        throw BowTieError.noSuchTie(query)
      }
      var tie = existing
      if let name = edit.name { tie.name = name }
      if let key = edit.searchKey { tie.searchKey = key }
      if let color = edit.tintColor {
        tie.tintColor = color
        tie.colorIssue = nil
      }
      if let rating = edit.rating { tie.rating = rating }
      if let url = edit.url { tie.url = url }
      if let price = edit.price {
        tie.price = price
        tie.currency = edit.currency ?? tie.currency
      }
      if let timesWorn = edit.timesWorn { tie.timesWorn = timesWorn }
      if let lastWorn = edit.lastWorn {
        // A last wear without any wear would list the tie as never worn and as worn since
        // that day at once; a wear on that day is what was meant.
        guard tie.timesWorn > 0 else {
          throw BowTieError.invalidTie(
            name: tie.name,
            ValidationFailure(
              attribute: "lastWorn",
              reason: "is given for a tie never worn (timesWorn 0): record a wear on that day "
                + "(bowties wear TIE --date DATE), or give --times-worn too"))
        }
        tie.lastWorn = lastWorn
      }
      switch edit.photo {
      case .keep: break
      case .replace(let photo): tie.setPhoto(photo)
      case .remove:
        tie.photoData = nil
        tie.externalPhotoName = nil
      }
      // An edit that changes nothing writes nothing, and leaves no undo step that would
      // take nothing back.
      guard tie != existing else { return checkingPhoto(existing) }
      try save(tie, replacing: existing, in: connection, photos)
      try log(.edit(previous: snapshot), for: tie, in: connection, photos)
      return checkingPhoto(try Self.refetch(tie, in: connection))
    }
  }

  /// Removes ties, with their wears; each removal can be undone, photo included.
  ///
  /// - Returns: the removed ties, in the order asked.
  @discardableResult
  public func remove(_ queries: [String]) throws(BowTieError) -> [BowTie] {
    try write { connection, photos in
      // Every name is resolved before anything goes, so "B blue" names one tie twice
      // rather than a tie and then nothing.
      var removed: [BowTie] = []
      var seen: Set<UUID> = []
      for query in queries {
        var tie = try Self.resolve(query, in: connection, locking: true)
        guard seen.insert(tie.id).inserted else { continue }
        // Kept without the photo's bytes, so that many ties fit: each removal's undo entry,
        // written as it goes, keeps them.
        let (photoBytes, photo) = (tie.photoByteCount, tie.photoDescription)
        tie.photoData = nil
        tie.storedPhotoByteCount = photoBytes
        tie.storedPhotoDescription = photo
        removed.append(tie)
      }
      for tie in removed {
        // The tie was found and locked in this transaction, so a row its id does not find
        // is one whose id another tool wrote in a form bowties does not: nothing is
        // removed, rather than a removal reported that did not happen.
        guard let snapshot = try TieSnapshot.take(tie.id, in: connection, withWears: true) else {
          throw BowTieError.storeUnreadable(
            path: "",
            reason: "the row of \(tie.name) (\(tie.searchKey)) is not found by its id "
              + "\(tie.id.text): another tool wrote it otherwise")
        }
        try connection.execute("DELETE FROM bowTie WHERE id = \(tie.id.text)")
        if let file = tie.externalPhotoName { photos.release(file) }
        try log(.remove(previous: snapshot), for: tie, in: connection, photos)
      }
      return removed
    }
  }

  /// A short search key no tie uses: the name's initial, then its words' initials,
  /// then the initial with a number ("T", "TB", "T2").
  static func freeSearchKey(for name: String, in connection: any SQLConnection) throws -> String {
    let words = BowTie.canonicalize(name).uppercased().split(separator: " ")
      .map { $0.filter { $0.isLetter || $0.isNumber } }.filter { !$0.isEmpty }
    let initial = words.first.map { String($0.prefix(1)) } ?? "T"
    let initials = String(words.compactMap(\.first).prefix(BowTie.maximumSearchKeyLength))
    var candidates = [initial, initials]
    candidates += (2...9_999).lazy.map { "\(initial)\($0)" }.prefix(9_998)
    for candidate in candidates where !candidate.isEmpty {
      let taken = try connection.fetchOne(
        "SELECT 1 FROM bowTie WHERE canonicalKey = \(BowTie.canonicalKey(candidate))")
      if taken == nil { return candidate }
    }
    return String(UUID().uuidString.prefix(8))
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
    try save(tie, replacing: existing, in: connection, photos, alreadyChecked: alreadyChecked) {
      row in
      try connection.execute(
        .insert(into: BowTie.Columns.table, columns: BowTie.Columns.stored, values: row))
    }
  }

  /// ``save(_:replacing:in:_:alreadyChecked:)``, a new tie's row (``BowTie/Columns/stored``)
  /// inserted by `insert`: one of many alike (``SQLConnection/insertMany(into:columns:rows:)``).
  func save(
    _ tie: BowTie, replacing existing: BowTie?, in connection: any SQLConnection,
    _ photos: any PhotoWriter, alreadyChecked: SaveChecks = [],
    inserting insert: (_ row: [SQLValue]) throws -> Void
  ) throws {
    var tie = tie
    if !alreadyChecked.contains(.validated) {
      try tie.validate()
    }
    if !alreadyChecked.contains(.keyIsFree) {
      let key = BowTie.canonicalKey(tie.searchKey)
      if let other = try connection.fetchValue(
        "SELECT name FROM bowTie WHERE canonicalKey = \(key) AND id != \(tie.id.text) LIMIT 1",
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
        "SELECT count(*) FROM wearEvent WHERE tieId = \(tie.id.text)", as: Int.self) ?? 0
    guard Int(tie.timesWorn) >= events else {
      throw BowTieError.invalidTie(
        name: tie.name,
        ValidationFailure(
          attribute: "timesWorn", reason: "\(tie.timesWorn) is below the \(events) recorded wears"))
    }
    tie.wearsBeforeHistory = tie.timesWorn - Int32(events)
    if existing == nil {
      try insert(try tie.storedValues())
    } else {
      try tie.updateRow(connection)
    }
  }
}
