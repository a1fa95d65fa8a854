import Foundation
import GRDB

/// A tie's row exactly as stored, column by column, so an undo can put it back bit for
/// bit, an undecodable color archive included.
public struct TieSnapshot: Codable, Equatable, Sendable {
  /// One SQLite value.
  public enum Value: Codable, Equatable, Sendable {
    case null, integer(Int64), real(Double), text(String), blob(Data)
  }

  public var columns: [String: Value]
  /// The tie's wear dates, for a snapshot taken before a removal.
  public var wears: [Date]

  init(_ row: Row, wears: [Date] = []) {
    var columns: [String: Value] = [:]
    for (name, value) in row {
      switch value.storage {
      case .null: columns[name] = .null
      case .int64(let number): columns[name] = .integer(number)
      case .double(let number): columns[name] = .real(number)
      case .string(let text): columns[name] = .text(text)
      case .blob(let data): columns[name] = .blob(data)
      }
    }
    self.columns = columns
    self.wears = wears
  }

  var photoFile: String? {
    if case .text(let name)? = columns["photoFile"] { return name }
    return nil
  }

  /// Why this snapshot cannot be put back into the `bowTie` table, whose columns are
  /// `tableColumns`; nil when it can. An undo turns the snapshot's column names into SQL
  /// identifiers and its photo file's name into a path, and the undo log is data that any
  /// tool can write, so both are checked before either is used.
  func problem(tableColumns: Set<String>) -> String? {
    if let unknown = columns.keys.sorted().first(where: { !tableColumns.contains($0) }) {
      return "it names a column '\(unknown)' that the bowTie table does not have"
    }
    if case .text(let name)? = columns["photoFile"], !PhotoStorage.isFileName(name) {
      return "its photo file name '\(name)' is not a photo file name"
    }
    guard case .text(let id)? = columns["id"], UUID(text: id) != nil,
      case .text? = columns["canonicalKey"]
    else { return "it has no tie id or search key" }
    return nil
  }

  /// The values as GRDB arguments, in `names` order.
  func arguments(_ names: [String]) -> StatementArguments {
    StatementArguments(
      names.map { name -> (any DatabaseValueConvertible)? in
        switch columns[name] ?? .null {
        case .null: nil
        case .integer(let number): number
        case .real(let number): number
        case .text(let text): text
        case .blob(let data): data
        }
      })
  }

  /// Takes a snapshot of the tie with this id.
  static func take(_ id: UUID, in db: Database, withWears: Bool = false) throws -> TieSnapshot? {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT * FROM bowTie WHERE id = ?", arguments: [id.uuidString])
    else { return nil }
    let wears =
      withWears
      ? try String.fetchAll(
        db, sql: "SELECT wornAt FROM wearEvent WHERE tieId = ? ORDER BY wornAt, id",
        arguments: [id.uuidString]
      ).map(StorageDate.parse)
      : []
    return TieSnapshot(row, wears: wears)
  }
}
