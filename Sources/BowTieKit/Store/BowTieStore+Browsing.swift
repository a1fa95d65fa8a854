import BowTieModel
import Foundation

// What a view that stays open on the store (`browse`) reads: one tie and its neighbours in
// the app's order, however many ties the store holds.

/// A tie's place in the app's order (R O Y G B I V, then by name), with its search key: a
/// segment of the app's segmented control.
public struct TieSegment: Equatable, Sendable {
  public let id: UUID
  public let searchKey: String
  /// R O Y G B I V as 0 to 6; 7 for any other key.
  let rank: Int
  let canonicalName: String
  let canonicalKey: String

  init(row: any SQLRow) throws {
    guard let id = UUID(text: try row.decode("id")) else {
      throw BowTieError.storeUnreadable(path: "", reason: "a tie's id cannot be read")
    }
    self.id = id
    searchKey = try row.decode("searchKey")
    rank = try row.decode("rank")
    canonicalName = try row.decode("canonicalName")
    canonicalKey = try row.decode("canonicalKey")
  }

  /// The columns ``init(row:)`` reads.
  static let columns = SQL(
    sql: "id, searchKey, canonicalName, canonicalKey, \(SummarySQL.appKeyRank) AS rank")
}

/// Where a window of ties is read from.
public enum TieWindowAnchor: Equatable, Sendable {
  /// The first tie in the app's order.
  case first
  /// The last.
  case last
  /// This tie; when it is gone, the one after its place (else the one before).
  case tie(TieSegment)
  /// The tie with this id; when it is gone, the first.
  case tieID(UUID)
}

/// One tie, read whole, and its neighbours' segments: what a screen of one tie with a
/// row of segments shows.
public struct TieWindow: Sendable {
  /// The tie, or nil when the store has none.
  public var tie: BowTie?
  public var segment: TieSegment?
  /// The segments before it, nearest first.
  public var before: [TieSegment]
  /// The segments after it, nearest first.
  public var after: [TieSegment]
}

extension BowTieStore {
  /// The tie at `anchor` and up to `reach` segments on each side of it, in one consistent
  /// read.
  ///
  /// Each part is an `ORDER BY … LIMIT` on an index: the rainbow keys on the unique
  /// `canonicalKey` index, the others from their place on `canonicalName`'s, so a window
  /// costs the same in a store of seven ties or of a million, and no read goes through
  /// them all.
  public func window(at anchor: TieWindowAnchor, reach: Int) throws(BowTieError) -> TieWindow {
    try read { connection in
      let rainbow = try Self.rainbowSegments(connection)
      var current: TieSegment?
      switch anchor {
      case .first:
        current = try Self.segments(after: nil, limit: 1, rainbow: rainbow, connection).first
      case .last:
        current = try Self.segments(before: nil, limit: 1, rainbow: rainbow, connection).first
      case .tie(let segment):
        current =
          try Self.segment(id: segment.id, connection)
          ?? Self.segments(after: segment, limit: 1, rainbow: rainbow, connection).first
          ?? Self.segments(before: segment, limit: 1, rainbow: rainbow, connection).first
      case .tieID(let id):
        current =
          try Self.segment(id: id, connection)
          ?? Self.segments(after: nil, limit: 1, rainbow: rainbow, connection).first
      }
      guard let current else { return TieWindow(tie: nil, segment: nil, before: [], after: []) }
      let tie = try connection.fetchOne(
        "SELECT \(BowTie.Columns.all) FROM bowTie WHERE id = \(current.id.text)"
      ).map { row in try BowTie(row: row) }
      return TieWindow(
        tie: tie, segment: current,
        before: try Self.segments(before: current, limit: reach, rainbow: rainbow, connection),
        after: try Self.segments(after: current, limit: reach, rainbow: rainbow, connection))
    }
  }

  /// The ties keyed R O Y G B I V, in that order: at most seven, found by their
  /// canonical keys.
  private static func rainbowSegments(_ connection: any SQLConnection) throws -> [TieSegment] {
    try connection.fetchAll(
      """
      SELECT \(TieSegment.columns) FROM bowTie \
      WHERE canonicalKey IN ('r', 'o', 'y', 'g', 'b', 'i', 'v')
      """, TieSegment.init
    ).filter { $0.rank < 7 }.sorted { $0.rank < $1.rank }
  }

  /// The segment of the tie `id`; nil when it is not in the store (any more).
  private static func segment(id: UUID, _ connection: any SQLConnection) throws -> TieSegment? {
    try connection.fetchOne("SELECT \(TieSegment.columns) FROM bowTie WHERE id = \(id.text)")
      .map { row in try TieSegment(row: row) }
  }

  /// Up to `limit` segments after `segment` in the app's order, nearest first (from the
  /// first tie when `segment` is nil).
  private static func segments(
    after segment: TieSegment?, limit: Int, rainbow: [TieSegment], _ connection: any SQLConnection
  ) throws -> [TieSegment] {
    guard limit > 0 else { return [] }
    var found = rainbow.filter { segment == nil || $0.rank > segment!.rank }.prefix(limit)
      .map { $0 }
    guard found.count < limit else { return found }
    let others = SQL(sql: "\(SummarySQL.appKeyRank) = 7")
    if let segment, segment.rank == 7 {
      found += try connection.fetchAll(
        """
        SELECT \(TieSegment.columns) FROM bowTie WHERE \(others) \
        AND canonicalName >= \(segment.canonicalName) \
        AND (canonicalName > \(segment.canonicalName) \
        OR canonicalKey > \(segment.canonicalKey)) \
        ORDER BY canonicalName, canonicalKey LIMIT \(sql: String(limit - found.count))
        """, TieSegment.init)
    } else {
      // The bound is every name, but it makes a range on the index of names, which SQLite's
      // planner otherwise passes over for a scan and a sort when the limit is small.
      found += try connection.fetchAll(
        """
        SELECT \(TieSegment.columns) FROM bowTie WHERE \(others) \
        AND canonicalName >= (SELECT min(canonicalName) FROM bowTie) \
        ORDER BY canonicalName, canonicalKey LIMIT \(sql: String(limit - found.count))
        """, TieSegment.init)
    }
    return found
  }

  /// Up to `limit` segments before `segment` in the app's order, nearest first (from the
  /// last tie when `segment` is nil).
  private static func segments(
    before segment: TieSegment?, limit: Int, rainbow: [TieSegment], _ connection: any SQLConnection
  ) throws -> [TieSegment] {
    guard limit > 0 else { return [] }
    var found: [TieSegment] = []
    let others = SQL(sql: "\(SummarySQL.appKeyRank) = 7")
    if let segment, segment.rank == 7 {
      found = try connection.fetchAll(
        """
        SELECT \(TieSegment.columns) FROM bowTie WHERE \(others) \
        AND canonicalName <= \(segment.canonicalName) \
        AND (canonicalName < \(segment.canonicalName) \
        OR canonicalKey < \(segment.canonicalKey)) \
        ORDER BY canonicalName DESC, canonicalKey DESC LIMIT \(sql: String(limit))
        """, TieSegment.init)
    } else if segment == nil {
      found = try connection.fetchAll(
        """
        SELECT \(TieSegment.columns) FROM bowTie WHERE \(others) \
        AND canonicalName <= (SELECT max(canonicalName) FROM bowTie) \
        ORDER BY canonicalName DESC, canonicalKey DESC LIMIT \(sql: String(limit))
        """, TieSegment.init)
    }
    guard found.count < limit else { return found }
    let earlier = rainbow.filter { segment == nil || segment!.rank == 7 || $0.rank < segment!.rank }
    return found + earlier.reversed().prefix(limit - found.count)
  }
}
