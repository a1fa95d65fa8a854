import BowTieModel
import Foundation

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
  /// The tie's name, where the change itself records it.
  var tieName: String? {
    switch self {
    case .add(let name): name
    case .edit(let previous), .remove(let previous):
      if case .text(let name)? = previous.columns["name"] { name } else { nil }
    case .wear, .rate, .favorite: nil
    }
  }

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
  /// Who made it (``UndoUser/current``): `undo` takes back one's own changes only.
  public var madeBy: String
  public var tieID: UUID
  public var change: UndoableChange

  /// How many changes the log keeps; older ones are forgotten.
  public static let capacity = 100
}

extension UndoEntry {
  /// Why this entry cannot be undone as it is stored, or nil: for an edit or a removal,
  /// the row it would put back.
  func problem() -> String? {
    switch change {
    case .edit(let previous), .remove(let previous):
      return previous.problem(tableColumns: Set(BowTie.Columns.stored))
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

extension UndoEntry {
  /// The `undoEntry` table and its columns, as the schema names them on both engines.
  enum Columns {
    static let table = "undoEntry"

    static let id = "id"
    static let madeAt = "madeAt"
    static let madeBy = "madeBy"
    static let tieId = "tieId"
    static let change = "change"
    /// The external photo the change may bring back, which clean-up must keep.
    static let photoFile = "photoFile"

    /// Every column.
    static let all = [id, madeAt, madeBy, tieId, change, photoFile]

    /// What ``UndoEntry/init(row:)`` reads.
    static let entry = SQL(sql: [id, madeAt, madeBy, tieId, change].joined(separator: ", "))
  }

  /// Reads a row of the `undoEntry` table.
  init(row: any SQLRow) throws(BowTieError) {
    let tieText: String = try row.decode(Columns.tieId)
    let changeText: String = try row.decode(Columns.change)
    let madeText: String = try row.decode(Columns.madeAt)
    guard let tieID = UUID(text: tieText),
      let change = try? Self.decoder.decode(UndoableChange.self, from: Data(changeText.utf8))
    else {
      throw .storeUnreadable(path: "", reason: "an undo entry cannot be read")
    }
    self.init(
      id: try row.decode(Columns.id), madeAt: try StorageDate.parse(madeText),
      madeBy: try row.decode(Columns.madeBy) ?? "", tieID: tieID, change: change)
  }

  /// Inserts the entry and takes its new id.
  mutating func append(to connection: any SQLConnection) throws {
    let change = String(decoding: try Self.encoder.encode(self.change), as: UTF8.self)
    id = try connection.fetchValue(
      """
      INSERT INTO undoEntry (madeAt, madeBy, tieId, change, photoFile) \
      VALUES (\(StorageDate.format(madeAt)), \(madeBy), \(tieID.text), \(change), \
      \(self.change.photoFile)) RETURNING id
      """)
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

/// Who makes a change, as the undo log records it: `BOWTIES_USER`, else the login name
/// and the host (`alice@laptop`). On a store several people share, `undo` takes back the
/// changes of the one who runs it.
public enum UndoUser {
  public static var current: String {
    if let user = ProcessEnvironment.value("BOWTIES_USER"), !user.isEmpty { return user }
    let login =
      ["USER", "LOGNAME"].lazy.compactMap(ProcessEnvironment.value).first { !$0.isEmpty }
      ?? "uid\(getuid())"
    var host = [CChar](repeating: 0, count: 256)
    guard gethostname(&host, host.count - 1) == 0 else { return login }
    let name = String(
      decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? login : "\(login)@\(name)"
  }
}
