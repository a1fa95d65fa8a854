import Foundation

/// A value bound to a statement or read from a row, in the terms both engines share: the
/// store keeps flags as integers 0 and 1, dates as ISO 8601 text, prices as decimal text,
/// so that the same SQL reads and writes the same values on SQLite and on PostgreSQL.
public enum SQLValue: Sendable, Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)

  public init(_ value: Int) { self = .integer(Int64(value)) }
  public init(_ value: Bool) { self = .integer(value ? 1 : 0) }
  public init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
  public init(_ value: Data?) { self = value.map(SQLValue.blob) ?? .null }

  public var text: String? {
    if case .text(let text) = self { return text }
    return nil
  }

  public var integer: Int64? {
    if case .integer(let number) = self { return number }
    return nil
  }
}
