import BowTieModel
import Foundation
import PropertyLists
import TextOutput

/// One wear as `history --json` prints it.
public struct WearJSON: Encodable, Sendable, JSONObject {
  public var id: Int64
  public var tieId: String
  public var searchKey: String
  public var name: String
  public var wornAt: Date

  public init(_ record: WearRecord) {
    id = record.event.id ?? 0
    tieId = record.event.tieID.text
    searchKey = record.searchKey
    name = record.name
    wornAt = record.event.wornAt
  }

  public func writeFields(to fields: inout some JSONFields) throws {
    try fields.field("id", Int(id))
    try fields.field("name", name)
    try fields.field("searchKey", searchKey)
    try fields.field("tieId", tieId)
    try fields.field("wornAt", ISO8601.formatUTC(wornAt))
  }

  public func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
}
