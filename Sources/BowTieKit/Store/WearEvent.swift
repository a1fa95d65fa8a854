import Foundation
import GRDB

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

extension WearEvent: FetchableRecord, MutablePersistableRecord {
  public static let databaseTableName = "wearEvent"

  public enum Columns {
    public static let id = Column("id")
    public static let tieID = Column("tieId")
    public static let wornAt = Column("wornAt")
  }

  public init(row: Row) throws {
    let tieText: String = try row.decode(forColumn: Columns.tieID.name)
    let wornText: String = try row.decode(forColumn: Columns.wornAt.name)
    guard let tieID = UUID(uuidString: tieText) else {
      throw BowTieError.storeUnreadable(
        path: "", reason: "a wear's tie id '\(tieText)' is not a UUID")
    }
    self.init(id: row[Columns.id], tieID: tieID, wornAt: try StorageDate.parse(wornText))
  }

  public func encode(to container: inout PersistenceContainer) {
    container[Columns.id] = id
    container[Columns.tieID] = tieID.uuidString
    container[Columns.wornAt] = StorageDate.format(wornAt)
  }

  public mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}
