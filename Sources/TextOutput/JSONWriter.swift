/// A value that JSON shows as an object. Its fields are listed once, in
/// ``writeFields(to:)``, for both ways it is written: `JSONEncoder` (through
/// ``encodeFields(to:)``, inside larger documents) and ``JSONWriter`` (in long arrays,
/// where `JSONEncoder` would cost more than reading the rows).
public protocol JSONObject: Encodable {
  /// Hands each field to `fields`, keys in ascending order of their bytes, the order
  /// `JSONEncoder`'s `.sortedKeys` puts them in.
  func writeFields(to fields: inout some JSONFields) throws
}

/// What a ``JSONObject`` hands its fields to. A nil value is `null`, or with
/// `omittingNil` no field at all (as `encodeIfPresent`).
public protocol JSONFields {
  mutating func field(_ key: StaticString, _ value: String?, omittingNil: Bool) throws
  mutating func field(_ key: StaticString, _ value: Int?, omittingNil: Bool) throws
  mutating func field(_ key: StaticString, _ value: Double?, omittingNil: Bool) throws
  mutating func field(_ key: StaticString, _ value: Bool?, omittingNil: Bool) throws
  mutating func field(_ key: StaticString, _ value: (some JSONObject)?, omittingNil: Bool) throws
}

extension JSONFields {
  public mutating func field(_ key: StaticString, _ value: String?) throws {
    try field(key, value, omittingNil: false)
  }
  public mutating func field(_ key: StaticString, _ value: Int?) throws {
    try field(key, value, omittingNil: false)
  }
  public mutating func field(_ key: StaticString, _ value: Double?) throws {
    try field(key, value, omittingNil: false)
  }
  public mutating func field(_ key: StaticString, _ value: Bool?) throws {
    try field(key, value, omittingNil: false)
  }
  public mutating func field(_ key: StaticString, _ value: (some JSONObject)?) throws {
    try field(key, value, omittingNil: false)
  }
}

extension JSONObject {
  /// The object's fields through `encoder`: what `encode(to:)` does for a `JSONObject`.
  public func encodeFields(to encoder: any Encoder) throws {
    var fields = EncoderFields(container: encoder.container(keyedBy: FieldKey.self))
    try writeFields(to: &fields)
  }
}

private struct FieldKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
  init(_ key: StaticString) { stringValue = key.description }
}

/// The fields as `JSONEncoder` (or any `Encoder`) takes them.
private struct EncoderFields: JSONFields {
  var container: KeyedEncodingContainer<FieldKey>

  mutating func field(_ key: StaticString, _ value: String?, omittingNil: Bool) throws {
    try put(key, value, omittingNil)
  }
  mutating func field(_ key: StaticString, _ value: Int?, omittingNil: Bool) throws {
    try put(key, value, omittingNil)
  }
  mutating func field(_ key: StaticString, _ value: Double?, omittingNil: Bool) throws {
    try put(key, value, omittingNil)
  }
  mutating func field(_ key: StaticString, _ value: Bool?, omittingNil: Bool) throws {
    try put(key, value, omittingNil)
  }
  mutating func field(_ key: StaticString, _ value: (some JSONObject)?, omittingNil: Bool) throws {
    try put(key, value, omittingNil)
  }

  private mutating func put(_ key: StaticString, _ value: (some Encodable)?, _ omittingNil: Bool)
    throws
  {
    if omittingNil {
      try container.encodeIfPresent(value, forKey: FieldKey(key))
    } else {
      try container.encode(value, forKey: FieldKey(key))
    }
  }
}

/// JSON's text, written as it comes, byte for byte what `JSONEncoder` writes with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`: two spaces an indent,
/// `"key" : value`, `/` as it is, the control characters escaped, numbers as Swift
/// describes them less a trailing `.0`, and an empty array as `[`, a blank line and `]`.
///
/// `JSONEncoder` builds a tree of every value, then sorts each object's keys and writes
/// it; for a long array that costs more than reading its rows from the store. This writes
/// each field as its object hands it over (``JSONObject`` lists them sorted), so an array
/// of a million objects streams at the speed of its `write(2)`s. Tests hold its bytes to
/// `JSONEncoder`'s.
public struct JSONWriter: JSONFields {
  /// What is written so far, until ``flush(to:)`` moves it on.
  public private(set) var bytes: [UInt8] = []
  /// The indentation of the value being written, in levels of two spaces.
  private var depth: Int
  /// Whether the object being written has had a field yet.
  private var hasField = false
  #if DEBUG
    /// The last key of the object being written: keys must ascend, as JSONEncoder sorts them.
    private var lastKey: StaticString?
  #endif

  /// A writer for a value at `depth` levels of indentation: 0 for a whole document.
  public init(depth: Int = 0) {
    self.depth = depth
    bytes.reserveCapacity(1 << 12)
  }

  /// Writes `value` as an object at the current depth.
  public mutating func object(_ value: some JSONObject) throws {
    bytes.append(UInt8(ascii: "{"))
    let outer = hasField
    hasField = false
    depth += 1
    #if DEBUG
      let outerKey = lastKey
      lastKey = nil
      defer { lastKey = outerKey }
    #endif
    try value.writeFields(to: &self)
    depth -= 1
    // An object without fields is "{", a blank line and "}", as JSONEncoder writes one.
    bytes.append(UInt8(ascii: "\n"))
    if !hasField { bytes.append(UInt8(ascii: "\n")) }
    indent()
    bytes.append(UInt8(ascii: "}"))
    hasField = outer
  }

  /// Moves what is written so far to `output`.
  public mutating func flush(to output: inout some ByteOutput) {
    bytes.withUnsafeBytes { output.write(bytes: $0) }
    bytes.removeAll(keepingCapacity: true)
  }

  /// Appends text that is already JSON (brackets, commas, line breaks).
  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Two spaces for each level of depth.
  mutating func indent() {
    for _ in 0..<depth { raw("  ") }
  }

  /// Moves in or out a level, for an array's elements.
  mutating func nest(_ levels: Int) { depth += levels }

  // MARK: Fields

  public mutating func field(_ key: StaticString, _ value: String?, omittingNil: Bool) throws {
    guard let value else { return nullField(key, omittingNil) }
    start(key)
    string(value)
  }

  public mutating func field(_ key: StaticString, _ value: Int?, omittingNil: Bool) throws {
    guard let value else { return nullField(key, omittingNil) }
    start(key)
    integer(value)
  }

  public mutating func field(_ key: StaticString, _ value: Double?, omittingNil: Bool) throws {
    guard let value else { return nullField(key, omittingNil) }
    guard value.isFinite else {
      // As JSONEncoder refuses them: JSON has no NaN or infinity.
      throw EncodingError.invalidValue(
        value,
        .init(codingPath: [], debugDescription: "\(value) in \(key) is not valid JSON"))
    }
    start(key)
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  public mutating func field(_ key: StaticString, _ value: Bool?, omittingNil: Bool) throws {
    guard let value else { return nullField(key, omittingNil) }
    start(key)
    if value { raw("true") } else { raw("false") }
  }

  public mutating func field(_ key: StaticString, _ value: (some JSONObject)?, omittingNil: Bool)
    throws
  {
    guard let value else { return nullField(key, omittingNil) }
    start(key)
    try object(value)
  }

  private mutating func nullField(_ key: StaticString, _ omittingNil: Bool) {
    guard !omittingNil else { return }
    start(key)
    raw("null")
  }

  /// A field's line: the separator, the indentation and the key.
  private mutating func start(_ key: StaticString) {
    #if DEBUG
      if let lastKey {
        let ascending = lastKey.withUTF8Buffer { last in
          key.withUTF8Buffer { last.lexicographicallyPrecedes($0) }
        }
        assert(ascending, "JSON keys out of order: \(key) after \(lastKey)")
      }
      lastKey = key
    #endif
    // Most of a long listing is field starts: the comma, the line break, the indentation
    // and the key's opening quote go in one append.
    if depth < Self.fieldStarts.count {
      let start = Self.fieldStarts[depth]
      bytes.append(contentsOf: hasField ? start[...] : start.dropFirst())
    } else {
      if hasField { raw(",\n") } else { raw("\n") }
      indent()
      bytes.append(UInt8(ascii: "\""))
    }
    hasField = true
    key.withUTF8Buffer { bytes.append(contentsOf: $0) }
    raw("\" : ")
  }

  /// What comes before a field's key at each depth: `,\n`, two spaces a level, `"`.
  private static let fieldStarts: [[UInt8]] = (0..<8).map { depth in
    Array(",\n".utf8) + Array(repeating: UInt8(ascii: " "), count: 2 * depth) + [UInt8(ascii: "\"")]
  }

  // MARK: Values

  private mutating func integer(_ value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    // The digits from the right; by magnitude, so that Int.min has its own.
    var magnitude = value.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var index = digits.count
      repeat {
        index -= 1
        digits[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
    }
  }

  /// A string in quotes, escaped as JSONEncoder escapes it: `"` and `\`, and the control
  /// characters below U+0020 (`\b \t \n \f \r`, the others as `\u00XX`). Everything else,
  /// `/` and DEL included, is its UTF-8 as it is.
  private mutating func string(_ value: String) {
    bytes.append(UInt8(ascii: "\""))
    var value = value
    value.withUTF8 { utf8 in
      var start = 0
      for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        start = index + 1
        escape(byte)
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func escape(_ byte: UInt8) {
    switch byte {
    case 0x22: raw("\\\"")
    case 0x5C: raw("\\\\")
    case 0x08: raw("\\b")
    case 0x09: raw("\\t")
    case 0x0A: raw("\\n")
    case 0x0C: raw("\\f")
    case 0x0D: raw("\\r")
    default:
      let hex = Array("0123456789abcdef".utf8)
      raw("\\u00")
      bytes.append(hex[Int(byte >> 4)])
      bytes.append(hex[Int(byte & 0xF)])
    }
  }
}

/// A JSON array of objects written as they come, byte for byte what `JSONEncoder` writes
/// for the whole array, without holding it: `list --json`, `history --json`, an export's
/// ties, a report's lists. Call ``flush(to:)`` as often as suits the output.
public struct JSONArrayWriter {
  private var writer: JSONWriter
  private let depth: Int
  private var opened = false

  /// An array whose brackets sit at `depth` levels of indentation.
  public init(depth: Int = 0) {
    self.depth = depth
    writer = JSONWriter(depth: depth + 1)
  }

  public mutating func append(_ element: some JSONObject) throws {
    if opened { writer.raw(",\n") } else { writer.raw("[\n") }
    opened = true
    writer.indent()
    try writer.object(element)
  }

  /// Closes the array; without an element, it still opens: "[", a blank line, "]".
  public mutating func finish() {
    if !opened { writer.raw("[\n") }
    writer.raw("\n")
    writer.nest(-1)
    writer.indent()
    writer.nest(1)
    writer.raw("]")
  }

  /// What is written and not yet flushed, in bytes.
  public var pendingCount: Int { writer.bytes.count }

  /// Moves what is written so far to `output`.
  public mutating func flush(to output: inout some ByteOutput) {
    writer.flush(to: &output)
  }
}
