import BowTieKit
import BowTieModel
import Foundation
import NIOCore
import PostgresNIO

/// The store's SQL on a PostgreSQL session, inside one of its transactions.
///
/// Placeholders are PostgreSQL's numbered ones (`$1`, `$2`…), written where ``SQL`` says
/// its values go; a large result is read through a cursor, a thousand rows at a time, so
/// that it costs no more memory than a small one and the caller may run other statements
/// between rows (an export reads each large photo as it goes).
final class PostgresSQLConnection: SQLConnection {
  let session: PostgresSession
  private var cursors = 0

  init(session: PostgresSession) {
    self.session = session
  }

  var dialect: any SQLDialect { PostgresDialect() }

  /// `sql`'s text with PostgreSQL's placeholders.
  static func text(_ sql: SQL) -> String {
    sql.text { "$\($0 + 1)" }
  }

  func execute(_ sql: SQL) throws {
    try session.run(Self.text(sql), sql.values)
  }

  /// Rows are not inserted one by one, a round trip each: they are queued for a COPY into
  /// the table (``PostgresSession/queueRow(_:_:)``), which the server loads many times
  /// faster, in the same transaction.
  func insertMany(
    into table: String, columns: [String],
    rows: (_ insert: (_ row: [SQLValue]) throws -> Void) throws -> Void
  ) throws {
    // COPY quotes the names it is given; unquoted, the server folded them to lower case.
    let target = PostgresSession.CopyTarget(
      table: table.lowercased(), columns: columns.map { $0.lowercased() })
    try session.copying(into: target) {
      try rows { values in
        guard values.count == columns.count else {
          throw BowTieError.storeUnreadable(
            path: "", reason: "\(values.count) values for the \(columns.count) columns of \(table)")
        }
        try session.queueRow(target) { Self.appendCopyRow(values, to: &$0) }
      }
    }
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

  func fetchRows(_ sql: SQL) throws -> [SQLRowSnapshot] {
    try session.run(Self.text(sql), sql.values).map(Self.snapshot)
  }

  func forEachRow(_ sql: SQL, _ body: (any SQLRow) throws -> Void) throws {
    cursors += 1
    let cursor = "bowties_rows_\(cursors)"
    defer { cursors -= 1 }
    try session.run("DECLARE \(cursor) NO SCROLL CURSOR FOR \(Self.text(sql))", sql.values)
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
}
