import Foundation

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
      if try connection.fetchOne("SELECT 1 FROM bowTie WHERE id = ?", [tie.id.text]) != nil {
        throw BowTieError.invalidTie(
          name: tie.name, ValidationFailure(attribute: "id", reason: "\(tie.id) is already used"))
      }
      try save(tie, replacing: nil, in: connection, photos)
      try log(.add(name: tie.name), for: tie, in: connection, photos)
      return try Self.refetch(tie, in: connection)
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
      if let lastWorn = edit.lastWorn { tie.lastWorn = lastWorn }
      switch edit.photo {
      case .keep: break
      case .replace(let photo): tie.setPhoto(photo)
      case .remove:
        tie.photoData = nil
        tie.externalPhotoName = nil
      }
      try save(tie, replacing: existing, in: connection, photos)
      try log(.edit(previous: snapshot), for: tie, in: connection, photos)
      return try Self.refetch(tie, in: connection)
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
        guard let snapshot = try TieSnapshot.take(tie.id, in: connection, withWears: true) else {
          continue
        }
        try connection.execute("DELETE FROM bowTie WHERE id = ?", [tie.id.text])
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
        "SELECT 1 FROM bowTie WHERE canonicalKey = ?", [BowTie.canonicalKey(candidate)])
      if taken == nil { return candidate }
    }
    return String(UUID().uuidString.prefix(8))
  }
}
