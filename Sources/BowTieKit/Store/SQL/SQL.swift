import BowTieModel

/// A statement, or a piece of one, with the values it binds: SQL written once for both
/// engines, each value interpolated into it (`"… WHERE id = \(id)"`) bound as a value,
/// never spliced into the text.
///
/// It keeps where each value goes, so an engine writes its placeholders its own way
/// without reading the text: SQLite takes ``text`` as it is, a `?` for each value;
/// PostgreSQL numbers them (``text(placeholder:)``). Text that is SQL itself (a list of
/// column names, a fragment built elsewhere) goes in as `\(sql: text)` or as another
/// `SQL`, with its values.
public struct SQL: Sendable, Equatable, ExpressibleByStringInterpolation,
  CustomStringConvertible
{
  /// The text, with a `?` for each value.
  public fileprivate(set) var text: String
  /// The values, in the order of their placeholders.
  public fileprivate(set) var values: [SQLValue]
  /// Where each value's `?` is in ``text``, as an offset in its UTF-8, in order.
  public fileprivate(set) var placeholderOffsets: [Int]

  /// SQL text that binds no value.
  public init(sql text: String) {
    self.text = text
    values = []
    placeholderOffsets = []
  }

  public init(stringLiteral text: String) {
    self.init(sql: text)
  }

  public init(stringInterpolation: StringInterpolation) {
    self = stringInterpolation.sql
  }

  public struct StringInterpolation: StringInterpolationProtocol {
    var sql = SQL(sql: "")

    public init(literalCapacity: Int, interpolationCount: Int) {
      sql.text.reserveCapacity(literalCapacity + interpolationCount)
    }

    public mutating func appendLiteral(_ literal: String) {
      sql.text += literal
    }

    /// A value, bound.
    public mutating func appendInterpolation(_ value: some SQLValueConvertible) {
      sql.append(value: value.sqlValue)
    }

    /// A value or NULL, bound.
    public mutating func appendInterpolation(_ value: (some SQLValueConvertible)?) {
      sql.append(value: value?.sqlValue ?? .null)
    }

    /// A piece of SQL, with its values.
    public mutating func appendInterpolation(_ fragment: SQL) {
      sql.append(fragment)
    }

    /// Text that is SQL: names, keywords, a list of columns. Never a value.
    public mutating func appendInterpolation(sql text: String) {
      sql.text += text
    }
  }

  /// Appends `other`, its values after these.
  public mutating func append(_ other: SQL) {
    let base = text.utf8.count
    text += other.text
    values += other.values
    placeholderOffsets += other.placeholderOffsets.map { $0 + base }
  }

  /// Appends a placeholder bound to `value`.
  public mutating func append(value: SQLValue) {
    placeholderOffsets.append(text.utf8.count)
    text += "?"
    values.append(value)
  }

  public static func + (lhs: SQL, rhs: SQL) -> SQL {
    var sum = lhs
    sum.append(rhs)
    return sum
  }

  public static func += (lhs: inout SQL, rhs: SQL) {
    lhs.append(rhs)
  }

  /// The text with the placeholder of value `n` (from 0) written as `placeholder(n)`: for
  /// an engine whose placeholders are not `?` (PostgreSQL's `$1`).
  public func text(placeholder: (Int) -> String) -> String {
    guard !placeholderOffsets.isEmpty else { return text }
    let utf8 = Array(text.utf8)
    var result: [UInt8] = []
    result.reserveCapacity(utf8.count + 3 * placeholderOffsets.count)
    var start = 0
    for (number, offset) in placeholderOffsets.enumerated() {
      result += utf8[start..<offset]
      result += placeholder(number).utf8
      start = offset + 1
    }
    result += utf8[start...]
    return String(decoding: result, as: UTF8.self)
  }

  /// The text and its values, as a message shows a statement.
  public var description: String {
    values.isEmpty ? text : "\(text) \(values)"
  }
}

extension Sequence where Element == SQL {
  /// The pieces, one after another, `separator` between each two.
  public func joined(separator: String) -> SQL {
    var result = SQL(sql: "")
    for (index, piece) in enumerated() {
      if index > 0 { result.text += separator }
      result.append(piece)
    }
    return result
  }
}

extension SQL {
  /// `INSERT INTO table (columns) VALUES (…)`, one value for each column.
  public static func insert(into table: String, columns: [String], values: [SQLValue]) -> SQL {
    var sql = SQL(sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (")
    for (index, value) in values.enumerated() {
      if index > 0 { sql.text += ", " }
      sql.append(value: value)
    }
    sql.text += ")"
    return sql
  }
}
