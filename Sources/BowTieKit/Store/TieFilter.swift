import Foundation
import GRDB

/// Which ties `list` shows, in which order.
public struct TieFilter: Equatable, Sendable {
  /// How ties are ordered. Each has the direction people expect first; `reverse` flips it.
  public enum Sort: String, CaseIterable, Sendable {
    /// R O Y G B I V, then by name: the app's order.
    case key
    /// A to Z.
    case name
    /// Highest first.
    case rating
    /// Most worn first.
    case worn
    /// Most recently worn first; never worn last.
    case lastWorn = "last-worn"
  }

  public var favoritesOnly = false
  public var minimumRating: Double?
  public var maximumRating: Double?
  /// Ties last worn at or after this date.
  public var wornSince: Date?
  /// Ties not worn since this date, never-worn ties included.
  public var notWornSince: Date?
  public var neverWorn = false
  public var sort = Sort.key
  public var reverse = false
  public var limit: Int?

  public init() {}
}

extension BowTieStore {
  /// The ties that pass `filter`, in its order, without the photos' bytes.
  public func ties(_ filter: TieFilter) throws(BowTieError) -> [BowTie] {
    var ties: [BowTie] = []
    try forEachTie(filter) { ties.append($0) }
    return ties
  }

  /// Calls `body` with each tie that passes `filter`, in its order, without the photos'
  /// bytes, one row at a time from a single read: a million ties need not fit in memory.
  public func forEachTie(_ filter: TieFilter, _ body: (BowTie) throws -> Void)
    throws(BowTieError)
  {
    try read { db in
      let cursor = try Self.request(filter).select(BowTie.allColumnsButPhotoBytes)
        .fetchCursor(db)
      while let tie = try cursor.next() { try body(tie) }
    }
  }

  /// Like ``forEachTie(_:_:)``, but first calls `names` with the search key and name of
  /// each tie it is about to pass: a listing in columns sizes them before its first line.
  /// Both readings, one row at a time, see one snapshot.
  public func forEachTie(
    _ filter: TieFilter, names: (_ key: String, _ name: String) throws -> Void,
    _ body: (BowTie) throws -> Void
  ) throws(BowTieError) {
    try read { db in
      let columns = BowTie.Columns.self
      let rows = try Row.fetchCursor(
        db, Self.request(filter).select(columns.searchKey, columns.name))
      while let row = try rows.next() { try names(row[0], row[1]) }
      let ties = try Self.request(filter).select(BowTie.allColumnsButPhotoBytes).fetchCursor(db)
      while let tie = try ties.next() { try body(tie) }
    }
  }

  /// The ties that pass `filter`, in its order.
  private static func request(_ filter: TieFilter) -> QueryInterfaceRequest<BowTie> {
    var request = BowTie.all()
    let columns = BowTie.Columns.self
    if filter.favoritesOnly { request = request.filter(columns.isFavorite == true) }
    if let minimum = filter.minimumRating { request = request.filter(columns.rating >= minimum) }
    if let maximum = filter.maximumRating { request = request.filter(columns.rating <= maximum) }
    if let since = filter.wornSince {
      request = request.filter(columns.lastWorn >= StorageDate.format(since))
    }
    if let since = filter.notWornSince {
      request = request.filter(
        columns.lastWorn == nil || columns.lastWorn < StorageDate.format(since))
    }
    if filter.neverWorn { request = request.filter(columns.timesWorn == 0) }
    request = order(request, filter.sort)
    if filter.reverse { request = request.reversed() }
    if let limit = filter.limit { request = request.limit(limit) }
    return request
  }

  private static func order(_ request: QueryInterfaceRequest<BowTie>, _ sort: TieFilter.Sort)
    -> QueryInterfaceRequest<BowTie>
  {
    let columns = BowTie.Columns.self
    let appOrder = request.orderedLikeTheApp()
    switch sort {
    case .key: return appOrder
    case .name: return request.order(columns.canonicalName, columns.canonicalKey)
    case .rating:
      return request.order(columns.rating.desc, columns.canonicalName, columns.canonicalKey)
    case .worn:
      return request.order(columns.timesWorn.desc, columns.canonicalName, columns.canonicalKey)
    case .lastWorn:
      return request.order(
        columns.lastWorn == nil, columns.lastWorn.desc, columns.canonicalName,
        columns.canonicalKey)
    }
  }
}
