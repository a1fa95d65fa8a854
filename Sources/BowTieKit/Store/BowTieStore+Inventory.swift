import Foundation
import GRDB

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
  public var photo = PhotoChange.keep
  public var timesWorn: Int32?
  public var lastWorn: Date?

  public init() {}
}

extension BowTieStore {
  /// Adds a tie, choosing a free search key when `tie.searchKey` is empty.
  @discardableResult
  public func add(_ tie: BowTie) throws(BowTieError) -> BowTie {
    try write { db, changes in
      var tie = tie
      if tie.searchKey.isEmpty {
        tie.searchKey = try Self.freeSearchKey(for: tie.name, in: db)
      }
      if try BowTie.exists(db, key: tie.id.uuidString) {
        throw BowTieError.invalidTie(
          name: tie.name, ValidationFailure(attribute: "id", reason: "\(tie.id) is already used"))
      }
      try save(tie, replacing: nil, in: db, changes)
      try Self.log(.add(name: tie.name), for: tie, in: db, changes)
      return try Self.refetch(tie, in: db)
    }
  }

  /// Changes some of a tie's attributes, validated like any save.
  @discardableResult
  public func edit(_ query: String, _ edit: TieEdit) throws(BowTieError) -> BowTie {
    try write { db, changes in
      let existing = try Self.resolve(query, in: db)
      guard let snapshot = try TieSnapshot.take(existing.id, in: db) else {
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
      if let price = edit.price { tie.price = price }
      if let timesWorn = edit.timesWorn { tie.timesWorn = timesWorn }
      if let lastWorn = edit.lastWorn { tie.lastWorn = lastWorn }
      switch edit.photo {
      case .keep: break
      case .replace(let photo): tie.setPhoto(photo)
      case .remove:
        tie.photoData = nil
        tie.externalPhotoName = nil
      }
      try save(tie, replacing: existing, in: db, changes)
      try Self.log(.edit(previous: snapshot), for: tie, in: db, changes)
      return try Self.refetch(tie, in: db)
    }
  }

  /// Removes ties, with their wears; each removal can be undone, photo included.
  ///
  /// - Returns: the removed ties, in the order asked.
  @discardableResult
  public func remove(_ queries: [String]) throws(BowTieError) -> [BowTie] {
    try write { db, changes in
      // Every name is resolved before anything goes, so "B blue" names one tie twice
      // rather than a tie and then nothing.
      var removed: [BowTie] = []
      var seen: Set<UUID> = []
      for query in queries {
        var tie = try Self.resolve(query, in: db)
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
        guard let snapshot = try TieSnapshot.take(tie.id, in: db, withWears: true) else { continue }
        try BowTie.deleteOne(db, key: tie.id.uuidString)
        if let file = tie.externalPhotoName { changes.released.insert(file) }
        try Self.log(.remove(previous: snapshot), for: tie, in: db, changes)
      }
      return removed
    }
  }

  /// A short search key no tie uses: the name's initial, then its words' initials,
  /// then the initial with a number ("T", "TB", "T2").
  static func freeSearchKey(for name: String, in db: Database) throws -> String {
    let words = BowTie.canonicalize(name).uppercased().split(separator: " ")
      .map { $0.filter { $0.isLetter || $0.isNumber } }.filter { !$0.isEmpty }
    let initial = words.first.map { String($0.prefix(1)) } ?? "T"
    let initials = String(words.compactMap(\.first).prefix(BowTie.maximumSearchKeyLength))
    var candidates = [initial, initials]
    candidates += (2...9_999).lazy.map { "\(initial)\($0)" }.prefix(9_998)
    for candidate in candidates where !candidate.isEmpty {
      let taken =
        try BowTie.filter(BowTie.Columns.canonicalKey == BowTie.canonicalKey(candidate))
        .isEmpty(db) == false
      if !taken { return candidate }
    }
    return String(UUID().uuidString.prefix(8))
  }
}
