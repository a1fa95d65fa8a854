import BowTieModel
import Foundation

/// A tie's row exactly as stored, column by column, so an undo can put it back bit for
/// bit, an undecodable color archive included.
public struct TieSnapshot: Codable, Equatable, Sendable {
  /// One stored value, as the undo log's JSON keeps it.
  public enum Value: Codable, Equatable, Sendable {
    case null, integer(Int64), real(Double), text(String), blob(Data)

    init(_ value: SQLValue) {
      switch value {
      case .null: self = .null
      case .integer(let number): self = .integer(number)
      case .real(let number): self = .real(number)
      case .text(let text): self = .text(text)
      case .blob(let data): self = .blob(data)
      }
    }

    var sqlValue: SQLValue {
      switch self {
      case .null: .null
      case .integer(let number): .integer(number)
      case .real(let number): .real(number)
      case .text(let text): .text(text)
      case .blob(let data): .blob(data)
      }
    }
  }

  public var columns: [String: Value]
  /// The tie's wear dates, for a snapshot taken before a removal.
  public var wears: [Date]

  /// The row's values under the schema's column names (``BowTie/Columns/stored``), which
  /// are the same whatever case an engine gives its result's columns.
  init(_ row: any SQLRow, wears: [Date] = []) {
    var columns: [String: Value] = [:]
    for name in BowTie.Columns.stored { columns[name] = Value(row[name]) }
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

  /// The snapshot as the store's columns are now: one taken before prices had a
  /// currency (schema v7, p2) gives its price the currency the migration gave stored
  /// prices, ``Currency/unlabelled``, so that an undo puts back a price with one.
  var withCurrency: TieSnapshot {
    guard columns["currency"] == nil, let price = columns["price"] else { return self }
    var snapshot = self
    snapshot.columns["currency"] = price == .null ? .null : .text(Currency.unlabelled)
    return snapshot
  }

  /// The values of `names`, in order.
  func values(_ names: [String]) -> [SQLValue] {
    names.map { (columns[$0] ?? .null).sqlValue }
  }

  /// Takes a snapshot of the tie with this id, locking its row for the write transaction
  /// it is taken in.
  static func take(_ id: UUID, in connection: any SQLConnection, withWears: Bool = false)
    throws -> TieSnapshot?
  {
    guard
      let row = try connection.fetchOne(
        "SELECT \(BowTie.Columns.all) FROM bowTie WHERE id = \(id.text)\(connection.dialect.lockingRead)"
      )
    else { return nil }
    let wears =
      withWears
      ? try connection.fetchValues(
        "SELECT wornAt FROM wearEvent WHERE tieId = \(id.text) ORDER BY wornAt, id",
        as: String.self
      ).map { text throws(BowTieError) in try StorageDate.parse(text) }
      : []
    return TieSnapshot(row, wears: wears)
  }
}
