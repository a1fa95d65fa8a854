import BowTieModel
import Foundation

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
  /// bytes but with their ``BowTie/photoIssue``, one row at a time from a single read: a million ties need not fit in memory.
  public func forEachTie(_ filter: TieFilter, _ body: (BowTie) throws -> Void)
    throws(BowTieError)
  {
    let sql = Self.select(BowTie.Columns.listing, filter)
    try read { db in
      try db.forEachRow(sql) { row in try body(checkingPhoto(try BowTie(row: row))) }
    }
  }

  /// Like ``forEachTie(_:_:)``, but first calls `measure` with the search key, name and
  /// rating of each tie it is about to pass: a listing in columns sizes them before its
  /// first line. Both readings, one row at a time, see one snapshot.
  public func forEachTie(
    _ filter: TieFilter,
    measure: (_ key: String, _ name: String, _ rating: Double) throws -> Void,
    _ body: (BowTie) throws -> Void
  ) throws(BowTieError) {
    let namesSQL = Self.select("searchKey, name, rating", filter)
    let tiesSQL = Self.select(BowTie.Columns.listing, filter)
    try read { db in
      try db.forEachRow(namesSQL) { row in
        try measure(try row.decode("searchKey"), try row.decode("name"), try row.decode("rating"))
      }
      try db.forEachRow(tiesSQL) { row in try body(checkingPhoto(try BowTie(row: row))) }
    }
  }

  /// The statement that selects `columns` of the ties that pass `filter`, in its order.
  static func select(_ columns: SQL, _ filter: TieFilter) -> SQL {
    var conditions: [SQL] = []
    if filter.favoritesOnly { conditions.append("isFavorite = 1") }
    if let minimum = filter.minimumRating { conditions.append("rating >= \(minimum)") }
    if let maximum = filter.maximumRating { conditions.append("rating <= \(maximum)") }
    if let since = filter.wornSince {
      conditions.append("lastWorn >= \(StorageDate.format(since))")
    }
    if let since = filter.notWornSince {
      conditions.append("(lastWorn IS NULL OR lastWorn < \(StorageDate.format(since)))")
    }
    if filter.neverWorn { conditions.append("timesWorn = 0") }
    let order = Self.order(filter.sort).map { term, descending in
      term + (descending != filter.reverse ? " DESC" : "")
    }
    var sql: SQL = "SELECT \(columns) FROM bowTie"
    if !conditions.isEmpty { sql += " WHERE \(conditions.joined(separator: " AND "))" }
    sql += " ORDER BY \(sql: order.joined(separator: ", "))"
    if let limit = filter.limit { sql += " LIMIT \(Int64(limit))" }
    return sql
  }

  /// The terms of `sort`'s order, each with whether it descends; `reverse` flips them all.
  /// A never-worn tie's NULL `lastWorn` is placed by a term of its own, as the engines
  /// place NULLs differently.
  private static func order(_ sort: TieFilter.Sort) -> [(String, Bool)] {
    let byName = [("canonicalName", false), ("canonicalKey", false)]
    switch sort {
    case .key:
      return [(SummarySQL.appKeyRank, false)] + byName
    case .name: return byName
    case .rating: return [("rating", true)] + byName
    case .worn: return [("timesWorn", true)] + byName
    case .lastWorn: return [("lastWorn IS NULL", false), ("lastWorn", true)] + byName
    }
  }
}
