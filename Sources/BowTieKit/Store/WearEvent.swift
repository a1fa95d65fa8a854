import BowTieModel
import Foundation

/// One time a tie was worn.
public struct WearEvent: Identifiable, Equatable, Sendable {
  public var id: Int64?
  public var tieID: UUID
  public var wornAt: Date

  public init(id: Int64? = nil, tieID: UUID, wornAt: Date) {
    self.id = id
    self.tieID = tieID
    self.wornAt = wornAt
  }
}

/// A wear event with the tie it belongs to, as `history` lists them.
public struct WearRecord: Equatable, Sendable {
  public var event: WearEvent
  public var searchKey: String
  public var name: String
}

// MARK: - Database

extension WearEvent {
  /// The `wearEvent` table and its columns, as the schema names them on both engines.
  enum Columns {
    static let table = "wearEvent"

    static let id = "id"
    static let tieId = "tieId"
    static let wornAt = "wornAt"

    /// Every column.
    static let all = [id, tieId, wornAt]
  }

  /// Reads a row with ``Columns/all``.
  init(row: any SQLRow) throws(BowTieError) {
    let tieText: String = try row.decode(Columns.tieId)
    guard let tieID = UUID(text: tieText) else {
      throw .storeUnreadable(path: "", reason: "a wear's tie id '\(tieText)' is not a UUID")
    }
    self.init(
      id: try row.decode(Columns.id), tieID: tieID,
      wornAt: try StorageDate.parse(row.decode(Columns.wornAt)))
  }

  /// Inserts the event and takes its new id.
  mutating func append(to connection: any SQLConnection) throws {
    id = try connection.fetchValue(
      """
      INSERT INTO wearEvent (tieId, wornAt) \
      VALUES (\(tieID.text), \(StorageDate.format(wornAt))) RETURNING id
      """)
  }
}
