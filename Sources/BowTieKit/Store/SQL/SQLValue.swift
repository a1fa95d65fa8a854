import BowTieModel
import Foundation

/// A value bound to a statement or read from a row, in the terms both engines share: the
/// store keeps flags as integers 0 and 1, dates as ISO 8601 text, prices as decimal text,
/// so that the same SQL reads and writes the same values on SQLite and on PostgreSQL.
public enum SQLValue: Sendable, Equatable, CustomStringConvertible {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)

  public var text: String? {
    if case .text(let text) = self { return text }
    return nil
  }

  public var integer: Int64? {
    if case .integer(let number) = self { return number }
    return nil
  }

  /// As a message shows a value that could not be read.
  public var description: String {
    switch self {
    case .null: "NULL"
    case .integer(let number): String(number)
    case .real(let number): String(number)
    case .text(let text): "'\(text.prefix(40))'"
    case .blob(let data): "\(data.count) bytes"
    }
  }
}

/// A Swift value a statement can bind.
public protocol SQLValueConvertible: Sendable {
  var sqlValue: SQLValue { get }
}

extension SQLValue: SQLValueConvertible {
  public var sqlValue: SQLValue { self }
}

extension String: SQLValueConvertible {
  public var sqlValue: SQLValue { .text(self) }
}

extension Int: SQLValueConvertible {
  public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int64: SQLValueConvertible {
  public var sqlValue: SQLValue { .integer(self) }
}

extension Int32: SQLValueConvertible {
  public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLValueConvertible {
  public var sqlValue: SQLValue { .real(self) }
}

extension Bool: SQLValueConvertible {
  public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}

extension Data: SQLValueConvertible {
  public var sqlValue: SQLValue { .blob(self) }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
  public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// A Swift value a row's column can be read as.
public protocol SQLValueDecodable {
  /// The value, or nil when `value` is not one.
  static func decode(_ value: SQLValue) -> Self?
}

extension String: SQLValueDecodable {
  public static func decode(_ value: SQLValue) -> String? { value.text }
}

extension Int64: SQLValueDecodable {
  public static func decode(_ value: SQLValue) -> Int64? {
    switch value {
    case .integer(let number): number
    case .real(let number) where number == number.rounded() && abs(number) < 9e18: Int64(number)
    default: nil
    }
  }
}

extension Int: SQLValueDecodable {
  public static func decode(_ value: SQLValue) -> Int? { Int64.decode(value).map(Int.init) }
}

extension Int32: SQLValueDecodable {
  public static func decode(_ value: SQLValue) -> Int32? {
    Int64.decode(value).flatMap { Int32(exactly: $0) }
  }
}

extension Double: SQLValueDecodable {
  public static func decode(_ value: SQLValue) -> Double? {
    switch value {
    case .real(let number): number
    case .integer(let number): Double(number)
    default: nil
    }
  }
}

extension Bool: SQLValueDecodable {
  public static func decode(_ value: SQLValue) -> Bool? {
    switch value {
    case .integer(0): false
    case .integer(1): true
    default: nil
    }
  }
}

extension Data: SQLValueDecodable {
  public static func decode(_ value: SQLValue) -> Data? {
    if case .blob(let data) = value { return data }
    return nil
  }
}
