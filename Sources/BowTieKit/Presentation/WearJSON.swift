import Foundation

/// One wear as `history --json` prints it.
public struct WearJSON: Encodable, Sendable {
  public var id: Int64
  public var tieId: String
  public var searchKey: String
  public var name: String
  public var wornAt: Date

  public init(_ record: WearRecord) {
    id = record.event.id ?? 0
    tieId = record.event.tieID.uuidString
    searchKey = record.searchKey
    name = record.name
    wornAt = record.event.wornAt
  }
}
