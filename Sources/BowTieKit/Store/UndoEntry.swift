import Foundation
import GRDB

/// What one change did, with what is needed to take it back.
///
/// Stored as JSON, so later commands can add cases without a migration.
public enum UndoableChange: Codable, Equatable, Sendable {
  /// A wear: its event, and `lastWorn` as it was before.
  case wear(eventID: Int64, wornAt: Date, previousLastWorn: Date?)
  case rate(previous: Double, new: Double)
  case favorite(previous: Bool, new: Bool)
  /// A tie added; undone by removing it.
  case add(name: String)
  /// A tie edited: the row as it was.
  case edit(previous: TieSnapshot)
  /// A tie removed: its row and wears, to put back.
  case remove(previous: TieSnapshot)

  /// The external photo this change may have to bring back, which clean-up must keep.
  var photoFile: String? {
    switch self {
    case .edit(let previous), .remove(let previous): previous.photoFile
    default: nil
    }
  }

  /// The command that made the change.
  public var command: String {
    switch self {
    case .wear: "wear"
    case .rate: "rate"
    case .favorite: "favorite"
    case .add: "add"
    case .edit: "edit"
    case .remove: "remove"
    }
  }
}

/// A change in the undo log.
public struct UndoEntry: Identifiable, Equatable, Sendable {
  public var id: Int64?
  public var madeAt: Date
  public var tieID: UUID
  public var change: UndoableChange

  /// How many changes the log keeps; older ones are forgotten.
  public static let capacity = 100
}

extension UndoEntry {
  /// Why this entry cannot be undone as it is stored, or nil: for an edit or a removal,
  /// the row it would put back.
  func problem(in db: Database) throws -> String? {
    switch change {
    case .edit(let previous), .remove(let previous):
      let columns = Set(try db.columns(in: BowTie.databaseTableName).map(\.name))
      return previous.problem(tableColumns: columns)
    case .wear, .rate, .favorite, .add:
      return nil
    }
  }
}

/// What `undo` took back.
public struct UndoneChange: Equatable, Sendable {
  public var change: UndoableChange
  /// The tie as it is after the undo; nil when undoing removed it (an undone `add`).
  public var tie: BowTie?
  /// The tie's name, whether or not it still exists.
  public var name: String
}

// MARK: - Database

extension UndoEntry: FetchableRecord, MutablePersistableRecord {
  public static let databaseTableName = "undoEntry"

  public enum Columns {
    public static let id = Column("id")
    public static let madeAt = Column("madeAt")
    public static let tieID = Column("tieId")
    public static let change = Column("change")
    public static let photoFile = Column("photoFile")
  }

  public init(row: Row) throws {
    let tieText: String = try row.decode(forColumn: Columns.tieID.name)
    let changeText: String = try row.decode(forColumn: Columns.change.name)
    let madeText: String = try row.decode(forColumn: Columns.madeAt.name)
    guard let tieID = UUID(uuidString: tieText),
      let change = try? Self.decoder.decode(UndoableChange.self, from: Data(changeText.utf8))
    else {
      throw BowTieError.storeUnreadable(path: "", reason: "an undo entry cannot be read")
    }
    self.init(
      id: row[Columns.id], madeAt: try StorageDate.parse(madeText), tieID: tieID, change: change)
  }

  public func encode(to container: inout PersistenceContainer) throws {
    container[Columns.id] = id
    container[Columns.madeAt] = StorageDate.format(madeAt)
    container[Columns.tieID] = tieID.uuidString
    container[Columns.change] = String(decoding: try Self.encoder.encode(change), as: UTF8.self)
    container[Columns.photoFile] = change.photoFile
  }

  public mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }

  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(StorageDate.format(date))
    }
    return encoder
  }

  private static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      try StorageDate.parse(try decoder.singleValueContainer().decode(String.self))
    }
    return decoder
  }
}
