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

  /// A plain `INSERT INTO table (columns) VALUES (?, …)` is not run row by row, a round
  /// trip each: its rows are queued for a COPY into the table (``PostgresSession/queueRow(_:_:)``),
  /// which the server loads many times faster, in the same transaction. Any other
  /// statement runs as it is.
  func executeMany(_ sql: String, _ values: [SQLValue]) throws {
    let target: PostgresSession.CopyTarget?
    if let known = copyTargets[sql] {
      target = known
    } else {
      target = Self.copyTarget(of: sql)
      copyTargets[sql] = target
    }
    guard let target, target.columns.count == values.count else {
      return try execute(sql, SQLArguments(values))
    }
    try session.queueRow(target) { Self.appendCopyRow(values, to: &$0) }
  }
  private var copyTargets: [String: PostgresSession.CopyTarget?] = [:]

  /// The table and columns of `INSERT INTO table (a, b) VALUES (?, ?)`, with as many `?`
  /// as columns and nothing else; nil for any other statement. Names are plain unquoted
  /// identifiers, folded to lower case as the server folds them, since COPY quotes them.
  static func copyTarget(of sql: String) -> PostgresSession.CopyTarget? {
    let identifier = /[A-Za-z_][A-Za-z0-9_]*/
    let insert =
      /^\s*INSERT\s+INTO\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]*)\)\s*VALUES\s*\(([?,\s]*)\)\s*;?\s*$/
      .ignoresCase()
    guard let match = sql.wholeMatch(of: insert) else { return nil }
    let columns = match.2.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let placeholders = match.3.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard columns.allSatisfy({ $0.wholeMatch(of: identifier) != nil }),
      placeholders == Array(repeating: "?", count: columns.count)
    else { return nil }
    return PostgresSession.CopyTarget(
      table: match.1.lowercased(), columns: columns.map { $0.lowercased() })
  }

  /// One row in COPY's text format: the fields separated by tabs, a newline at the end.
  ///
  /// Written here because postgres-nio sends COPY data as it is given and has no encoder for
  /// it (nor does COPY take bound values). The format (PostgreSQL's `COPY` page, "Text
  /// Format") is small: NULL is `\N`; in text, a backslash, a newline, a carriage return
  /// and a tab (the delimiter) are written as `\\`, `\n`, `\r`, `\t`, and every other byte
  /// as it is: the server reads the bytes in the connection's encoding, as it reads bound
  /// text, and UTF-8 puts no ASCII byte inside a multi-byte character. A field is then read
  /// as the column's type reads text. So bytes are given in BYTEA's hex form
  /// (`\x…`, its backslash escaped for COPY), numbers as their shortest decimal text,
  /// which reads back as the same double.
  static func appendCopyRow(_ values: [SQLValue], to buffer: inout ByteBuffer) {
    for (index, value) in values.enumerated() {
      if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
      appendCopyField(value, to: &buffer)
    }
    buffer.writeInteger(UInt8(ascii: "\n"))
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  static func appendCopyField(_ value: SQLValue, to buffer: inout ByteBuffer) {
    switch value {
    case .null:
      buffer.writeStaticString("\\N")
    case .integer(let number):
      buffer.writeString(String(number))
    case .real(let number):
      buffer.writeString(number.description)
    case .text(var text):
      text.withUTF8 { bytes in
        var start = 0
        for (index, byte) in bytes.enumerated() {
          let escaped: UInt8
          switch byte {
          case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
          case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
          case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
          case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
          default: continue
          }
          buffer.writeBytes(bytes[start..<index])
          buffer.writeInteger(UInt8(ascii: "\\"))
          buffer.writeInteger(escaped)
          start = index + 1
        }
        buffer.writeBytes(bytes[start...])
      }
    case .blob(let data):
      buffer.writeStaticString("\\\\x")
      buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: data.count * 2) { output in
        hexDigits.withUnsafeBufferPointer { digits in
          var at = 0
          for byte in data {
            output[at] = digits[Int(byte >> 4)]
            output[at + 1] = digits[Int(byte & 0x0F)]
            at += 2
          }
          return at
        }
      }
    }
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
