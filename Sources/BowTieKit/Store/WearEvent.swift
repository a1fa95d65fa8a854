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
  /// Reads a row with `id`, `tieId` and `wornAt`.
  init(row: any SQLRow) throws(BowTieError) {
    let tieText: String = try row.decode("tieId")
    guard let tieID = UUID(text: tieText) else {
      throw .storeUnreadable(path: "", reason: "a wear's tie id '\(tieText)' is not a UUID")
    }
    self.init(
      id: try row.decode("id"), tieID: tieID, wornAt: try StorageDate.parse(row.decode("wornAt")))
  }

  /// Inserts the event and takes its new id.
  mutating func append(to connection: any SQLConnection) throws {
    id = try connection.fetchValue(
      "INSERT INTO wearEvent (tieId, wornAt) VALUES (?, ?) RETURNING id",
      [tieID.text, StorageDate.format(wornAt)])
  }
}
