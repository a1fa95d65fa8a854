import BowTieModel
import Foundation

/// One row of a result, read by column name, whatever the engine.
///
/// A row an engine hands to a callback is valid only during the call; ``snapshot()``
/// keeps one.
public protocol SQLRow {
  /// The value of `column`, NULL when the row has no such column.
  subscript(_ column: String) -> SQLValue { get }
  /// The value of the column at `index`, NULL beyond the last.
  subscript(_ index: Int) -> SQLValue { get }
  /// The columns' names, in order.
  var columnNames: [String] { get }
}

extension SQLRow {
  /// The value of `column` as `Value`.
  ///
  /// - Throws: a store error naming the column and the value, for a row another tool
  ///   wrote with something of another type.
  // Inlined, so that each caller reads its own type without the runtime looking up
  // `Optional<Value>`'s metadata for every value of every row.
  @inline(__always)
  public func decode<Value: SQLValueDecodable>(
    _ column: String, as type: Value.Type = Value.self
  ) throws(BowTieError) -> Value {
    let value = self[column]
    guard let decoded = Value.decode(value) else {
      throw .storeUnreadable(path: "", reason: "a row's \(column) cannot be read (\(value))")
    }
    return decoded
  }

  /// The value of `column` as `Value`, nil for NULL.
  // Inlined, so that each caller reads its own type without the runtime looking up
  // `Optional<Value>`'s metadata for every value of every row.
  @inline(__always)
  public func decode<Value: SQLValueDecodable>(
    _ column: String, as type: Value?.Type = Value?.self
  ) throws(BowTieError) -> Value? {
    let value = self[column]
    if value == .null { return nil }
    guard let decoded = Value.decode(value) else {
      throw .storeUnreadable(path: "", reason: "a row's \(column) cannot be read (\(value))")
    }
    return decoded
  }

  /// A copy that outlives the callback that handed this row over.
  public func snapshot() -> SQLRowSnapshot {
    let names = columnNames
    return SQLRowSnapshot(columnNames: names, values: names.indices.map { self[$0] })
  }
}

/// A row's values, kept.
public struct SQLRowSnapshot: SQLRow, Sendable, Equatable {
  public let columnNames: [String]
  public let values: [SQLValue]
  /// Whether ``columnNames`` are in lower case and columns are found whatever their case:
  /// PostgreSQL folds unquoted names so, and `canonicalName` comes back as `canonicalname`.
  public let caseInsensitive: Bool

  public init(columnNames: [String], values: [SQLValue], caseInsensitive: Bool = false) {
    self.columnNames = columnNames
    self.values = values
    self.caseInsensitive = caseInsensitive
  }

  public subscript(_ column: String) -> SQLValue {
    let index =
      caseInsensitive
      ? columnNames.firstIndex(of: column.lowercased())
      : columnNames.firstIndex(of: column)
    guard let index else { return .null }
    return values[index]
  }

  public subscript(_ index: Int) -> SQLValue {
    index < values.count ? values[index] : .null
  }
}
