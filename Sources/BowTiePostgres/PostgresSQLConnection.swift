import BowTieKit
import Foundation
import NIOCore
import PostgresNIO

/// The store's SQL on a PostgreSQL session, inside one of its transactions.
///
/// Placeholders are translated to PostgreSQL's numbered ones (`?` and `:name` become `$1`,
/// `$2`…); a large result is read through a cursor, a thousand rows at a time, so that it
/// costs no more memory than a small one and the caller may run other statements between
/// rows (an export reads each large photo as it goes).
final class PostgresSQLConnection: SQLConnection {
  let session: PostgresSession
  private var cursors = 0

  init(session: PostgresSession) {
    self.session = session
  }

  var dialect: SQLDialect { .postgresql }

  func execute(_ sql: String, _ arguments: SQLArguments) throws {
    if arguments.positional.isEmpty && arguments.named.isEmpty {
      // Schema changes come as several statements, which the extended protocol, the only
      // one postgres-nio speaks, takes one at a time.
      for statement in Self.statements(in: sql) { try session.run(statement) }
      return
    }
    let (text, values) = try Self.numbered(sql, arguments)
    try session.run(text, values)
  }

  func fetchRows(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRowSnapshot] {
    let (text, values) = try Self.numbered(sql, arguments)
    return try session.run(text, values).map(Self.snapshot)
  }

  func forEachRow(
    _ sql: String, _ arguments: SQLArguments, _ body: (any SQLRow) throws -> Void
  ) throws {
    let (text, values) = try Self.numbered(sql, arguments)
    cursors += 1
    let cursor = "bowties_rows_\(cursors)"
    defer { cursors -= 1 }
    try session.run("DECLARE \(cursor) NO SCROLL CURSOR FOR \(text)", values)
    while true {
      let rows = try session.run("FETCH 1000 FROM \(cursor)")
      for row in rows { try body(Self.snapshot(row)) }
      if rows.count < 1000 { break }
    }
    try session.run("CLOSE \(cursor)")
  }

  /// A row's values as the store reads them: integers, floating point, text and bytes,
  /// whatever width or type the server sent them in; a Boolean as 0 or 1. Column names
  /// as the server gives them: unquoted names fold to lower case there
  /// (``SQLRowSnapshot`` matches them case-insensitively).
  static func snapshot(_ row: PostgresRow) throws -> SQLRowSnapshot {
    var names: [String] = []
    var values: [SQLValue] = []
    names.reserveCapacity(row.count)
    values.reserveCapacity(row.count)
    for cell in row {
      names.append(cell.columnName.lowercased())
      values.append(try value(of: cell))
    }
    return SQLRowSnapshot(columnNames: names, values: values, caseInsensitive: true)
  }

  private static func value(of cell: PostgresCell) throws -> SQLValue {
    guard cell.bytes != nil else { return .null }
    switch cell.dataType {
    case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
    case .float4, .float8: return .real(try cell.decode(Double.self))
    case .numeric:
      return .real(NSDecimalNumber(decimal: try cell.decode(Decimal.self)).doubleValue)
    case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
    case .bytea:
      var buffer = try cell.decode(ByteBuffer.self)
      return .blob(buffer.readData(length: buffer.readableBytes) ?? Data())
    default: return .text(try cell.decode(String.self))
    }
  }

  /// The statements of a script, split at each `;` outside quotes and `$$` bodies.
  static func statements(in script: String) -> [String] {
    var statements: [String] = []
    var current = ""
    var quote: Character?
    var inBody = false
    var previous: Character = " "
    for character in script {
      current.append(character)
      if let open = quote {
        if character == open { quote = nil }
      } else if character == "$" && previous == "$" {
        inBody.toggle()
      } else if !inBody && (character == "'" || character == "\"") {
        quote = character
      } else if !inBody && character == ";" {
        statements.append(current)
        current = ""
      }
      previous = character
    }
    if !current.allSatisfy(\.isWhitespace) { statements.append(current) }
    return statements
  }

  /// `sql` with its placeholders numbered, and the values in their order. A `?` takes the
  /// next positional value; every `:name` the same number for the same name. Nothing is
  /// read inside a quoted literal or identifier, and `::` (a cast) is no placeholder.
  static func numbered(_ sql: String, _ arguments: SQLArguments) throws -> (String, [SQLValue]) {
    let bytes = Array(sql.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + 16)
    var values: [SQLValue] = []
    var positional = arguments.positional.makeIterator()
    var numbers: [String: Int] = [:]
    var index = 0
    func isNameByte(_ byte: UInt8) -> Bool {
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x61 && byte <= 0x7A)
        || byte == 0x5F
    }
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "'"), UInt8(ascii: "\""):
        // A quoted literal or identifier, copied whole ('' and "" stay inside it).
        output.append(byte)
        index += 1
        while index < bytes.count {
          output.append(bytes[index])
          index += 1
          if bytes[index - 1] == byte { break }
        }
      case UInt8(ascii: "?"):
        guard let value = positional.next() else {
          throw BowTieError.storeUnreadable(path: "", reason: "a statement has too few values")
        }
        values.append(value)
        output += Array("$\(values.count)".utf8)
        index += 1
      case UInt8(ascii: ":")
      where index + 1 < bytes.count && isNameByte(bytes[index + 1])
        && (index == 0 || bytes[index - 1] != UInt8(ascii: ":")):
        var end = index + 1
        while end < bytes.count && isNameByte(bytes[end]) { end += 1 }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        guard let value = arguments.named[name] else {
          throw BowTieError.storeUnreadable(
            path: "", reason: "a statement has no value for :\(name)")
        }
        let number: Int
        if let known = numbers[name] {
          number = known
        } else {
          values.append(value)
          number = values.count
          numbers[name] = number
        }
        output += Array("$\(number)".utf8)
        index = end
      default:
        output.append(byte)
        index += 1
      }
    }
    return (String(decoding: output, as: UTF8.self), values)
  }
}
