/// Writes the `bplist00` subset of ``PropertyListValue``: flattens the value tree into
/// numbered objects, then lays out objects, offset table and trailer as CoreFoundation does.
/// Equal objects are not uniqued (CoreFoundation does it; readers don't care).
struct BinaryPropertyListWriter {
  private enum Node {
    case scalar(PropertyListValue)
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
  }

  private var nodes: [Node] = []

  mutating func write(_ root: PropertyListValue) -> [UInt8] {
    layOut(root).bytes
  }

  /// A written document and where its parts are: what a template is made of.
  struct Layout {
    var bytes: [UInt8]
    /// Where each object starts, by object number.
    var objectOffsets: [Int]
    /// Where the offset table starts, right after the last object.
    var tableOffset: Int
    var referenceSize: Int
  }

  mutating func layOut(_ root: PropertyListValue) -> Layout {
    nodes = []
    _ = flatten(root)
    let refSize = Self.byteWidth(for: UInt64(nodes.count))
    var output = BinaryPropertyList.magic
    var offsets: [Int] = []
    offsets.reserveCapacity(nodes.count)
    for node in nodes {
      offsets.append(output.count)
      append(node, refSize: refSize, to: &output)
    }
    let tableOffset = output.count
    Self.appendTable(
      offsets: offsets, tableOffset: tableOffset, referenceSize: refSize, to: &output)
    return Layout(
      bytes: output, objectOffsets: offsets, tableOffset: tableOffset, referenceSize: refSize)
  }

  /// The offset table and the trailer, for objects at `offsets` followed by the table.
  static func appendTable(
    offsets: [Int], tableOffset: Int, referenceSize: Int, to output: inout [UInt8]
  ) {
    let offsetSize = byteWidth(for: UInt64(tableOffset))
    for offset in offsets { appendBigEndian(UInt64(offset), size: offsetSize, to: &output) }
    appendTrailer(
      objectCount: offsets.count, topObject: 0, tableOffset: tableOffset,
      offsetSize: offsetSize, referenceSize: referenceSize, to: &output)
  }

  /// The trailer: the widths of offsets and references, how many objects there are, which
  /// is the root, and where the offset table starts.
  static func appendTrailer(
    objectCount: Int, topObject: Int, tableOffset: Int, offsetSize: Int, referenceSize: Int,
    to output: inout [UInt8]
  ) {
    output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
    appendBigEndian(UInt64(objectCount), size: 8, to: &output)
    appendBigEndian(UInt64(topObject), size: 8, to: &output)
    appendBigEndian(UInt64(tableOffset), size: 8, to: &output)
  }

  /// The number ``layOut(_:)`` gives the object at `path` in `root`, or nil when the path
  /// leads nowhere. Objects are numbered depth-first, as `flatten(_:)` numbers them: a
  /// container, then (a dictionary's keys, sorted, then) its values.
  static func objectNumber(
    at path: [BinaryPropertyListTemplate.PathComponent], in root: PropertyListValue
  ) -> Int? {
    var number = 0
    var value = root
    for component in path {
      switch (value, component) {
      case (.array(let elements), .index(let index)) where elements.indices.contains(index):
        number += 1 + elements[..<index].reduce(0) { $0 + objectCount($1) }
        value = elements[index]
      case (.dictionary(let dict), .key(let key)):
        let keys = dict.keys.sorted()
        guard let position = keys.firstIndex(of: key), let child = dict[key] else { return nil }
        number +=
          1 + keys.count + keys[..<position].reduce(0) { $0 + objectCount(dict[$1] ?? .null) }
        value = child
      default:
        return nil
      }
    }
    return number
  }

  /// How many objects `value` is written as, itself included.
  private static func objectCount(_ value: PropertyListValue) -> Int {
    switch value {
    case .array(let elements): 1 + elements.reduce(0) { $0 + objectCount($1) }
    case .dictionary(let dict): 1 + dict.count + dict.values.reduce(0) { $0 + objectCount($1) }
    default: 1
    }
  }

  /// Numbers `value` and its descendants depth-first; returns the index of `value`.
  private mutating func flatten(_ value: PropertyListValue) -> Int {
    let index = nodes.count
    switch value {
    case .array(let elements):
      nodes.append(.array([]))
      nodes[index] = .array(elements.map { flatten($0) })
    case .dictionary(let dict):
      nodes.append(.dictionary(keys: [], values: []))
      // Sorted keys keep archives byte-for-byte reproducible.
      let keys = dict.keys.sorted()
      let keyRefs = keys.map { flatten(.string($0)) }
      let valueRefs = keys.compactMap { dict[$0] }.map { flatten($0) }
      nodes[index] = .dictionary(keys: keyRefs, values: valueRefs)
    default:
      nodes.append(.scalar(value))
    }
    return index
  }

  private func append(_ node: Node, refSize: Int, to output: inout [UInt8]) {
    switch node {
    case .array(let refs):
      Self.appendContainer(0xA, count: refs.count, references: refs, size: refSize, to: &output)
    case .dictionary(let keys, let values):
      Self.appendContainer(
        0xD, count: keys.count, references: keys + values, size: refSize, to: &output)
    case .scalar(let value):
      Self.appendScalar(value, to: &output)
    }
  }

  static func appendScalar(_ value: PropertyListValue, to output: inout [UInt8]) {
    switch value {
    case .bool(let flag):
      output.append(flag ? 0x09 : 0x08)
    case .integer(let int):
      appendInteger(int, to: &output)
    case .real(let real):
      output.append(0x23)
      appendBigEndian(real.bitPattern, size: 8, to: &output)
    case .real32(let real):
      output.append(0x22)
      appendBigEndian(UInt64(real.bitPattern), size: 4, to: &output)
    case .string(let string):
      if string.utf8.allSatisfy({ $0 < 0x80 }) {
        appendHeader(0x5, count: string.utf8.count, to: &output)
        output += string.utf8
      } else {
        appendHeader(0x6, count: string.utf16.count, to: &output)
        for unit in string.utf16 { appendBigEndian(UInt64(unit), size: 2, to: &output) }
      }
    case .data(let data):
      appendHeader(0x4, count: data.count, to: &output)
      output += data
    case .date(let date):
      output.append(0x33)
      appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8, to: &output)
    case .uid(let uid):
      let size = uid <= 0xFF ? 1 : uid <= 0xFFFF ? 2 : 4
      output.append(0x80 | UInt8(size - 1))
      appendBigEndian(UInt64(uid), size: size, to: &output)
    case .array, .dictionary:
      preconditionFailure("containers are flattened before serialization")
    case .null:
      preconditionFailure("JSON's null has no place in a property list")
    }
  }

  /// Non-negative integers use the smallest unsigned width; negative ones need 8 bytes.
  private static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
    let exponent: UInt8
    switch value {
    case 0...0xFF: exponent = 0
    case 0x100...0xFFFF: exponent = 1
    case 0x1_0000...0xFFFF_FFFF: exponent = 2
    default: exponent = 3
    }
    output.append(0x10 | exponent)
    appendBigEndian(UInt64(bitPattern: value), size: 1 << Int(exponent), to: &output)
  }

  /// A container: its marker and count (its elements, or a dictionary's keys), then the
  /// numbers of the objects it holds (a dictionary's keys, then its values), each `size`
  /// bytes wide.
  static func appendContainer<Reference: BinaryInteger>(
    _ kind: UInt8, count: Int, references: [Reference], size: Int, to output: inout [UInt8]
  ) {
    appendHeader(kind, count: count, to: &output)
    for reference in references {
      appendBigEndian(UInt64(reference), size: size, to: &output)
    }
  }

  private static func appendHeader(_ kind: UInt8, count: Int, to output: inout [UInt8]) {
    if count < 0xF {
      output.append(kind << 4 | UInt8(count))
    } else {
      output.append(kind << 4 | 0xF)
      appendInteger(Int64(count), to: &output)
    }
  }

  static func byteWidth(for maxValue: UInt64) -> Int {
    switch maxValue {
    case 0...0xFF: return 1
    case 0x100...0xFFFF: return 2
    case 0x1_0000...0xFFFF_FFFF: return 4
    default: return 8
    }
  }

  static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
    for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
      output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }
}
