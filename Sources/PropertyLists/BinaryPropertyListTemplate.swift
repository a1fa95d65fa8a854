import Foundation

/// A binary property list laid out once, whose documents differ only in a few scalar
/// values, its slots: writing one is copying the parts between the slots and the slots'
/// new bytes, with the offset table moved to match; reading one checks every other byte
/// against the template instead of parsing the document.
///
/// A document is one of the template's exactly when it is what
/// ``BinaryPropertyList/write(_:)`` writes for the template's value with other values in
/// its slots: ``write(_:)`` gives those bytes, and ``values(in:)`` gives the slots' values
/// for those bytes and nil for any others, however close. A slot's value keeps the kind of
/// the value the template was made with (a 4-byte real stays one); its length may change,
/// as data's and strings' do.
public struct BinaryPropertyListTemplate: Sendable {
  /// A step from a container to one of its values.
  public enum PathComponent: Hashable, Sendable {
    case key(String)
    case index(Int)
  }

  /// The bytes between the slots: one more part than there are slots, the first starting
  /// with the header, the last ending where the offset table starts.
  private let parts: [[UInt8]]
  /// The kind of value each slot holds, in the order of the document. Kinds, not the
  /// example values: a template lives as long as the process, and a `Data` kept in it is
  /// one LeakSanitizer cannot see is held (its reference carries the enum's tag bits), so
  /// the fuzz targets reported it as leaked.
  private let kinds: [SlotKind]

  /// What a slot may hold: the scalars whose bytes ``values(in:)`` reads back.
  private enum SlotKind {
    case bool, integer, real, real32, data, string

    init?(of value: PropertyListValue) {
      switch value {
      case .bool: self = .bool
      case .integer: self = .integer
      case .real: self = .real
      case .real32: self = .real32
      case .data: self = .data
      case .string(let text) where text.utf8.allSatisfy({ $0 < 0x80 }): self = .string
      case .string, .date, .uid, .array, .dictionary, .null: return nil
      }
    }
  }
  /// For each slot in the document's order, its position in the caller's list.
  private let order: [Int]
  /// Where each object starts in the example document.
  private let objectOffsets: [Int]
  /// For each slot in the document's order, its object number.
  private let slotObjects: [Int]
  /// The example's slot lengths, in the document's order.
  private let exampleLengths: [Int]
  private let exampleTableOffset: Int
  private let referenceSize: Int

  /// Lays out `value`, whose scalars at `slots` become the slots; nil when a path leads to
  /// no scalar (a container, a UID, or nothing) or two paths lead to the same one.
  public init?(_ value: PropertyListValue, slots: [[PathComponent]]) {
    var writer = BinaryPropertyListWriter()
    let layout = writer.layOut(value)
    var found: [(object: Int, slot: Int, example: PropertyListValue, kind: SlotKind)] = []
    for (slot, path) in slots.enumerated() {
      guard let object = BinaryPropertyListWriter.objectNumber(at: path, in: value),
        let example = Self.value(at: path, in: value), let kind = SlotKind(of: example),
        !found.contains(where: { $0.object == object })
      else { return nil }
      found.append((object, slot, example, kind))
    }
    found.sort { $0.object < $1.object }
    var parts: [[UInt8]] = []
    var lengths: [Int] = []
    var position = 0
    for slot in found {
      let start = layout.objectOffsets[slot.object]
      var bytes: [UInt8] = []
      BinaryPropertyListWriter.appendScalar(slot.example, to: &bytes)
      parts.append(Array(layout.bytes[position..<start]))
      lengths.append(bytes.count)
      position = start + bytes.count
    }
    parts.append(Array(layout.bytes[position..<layout.tableOffset]))
    self.parts = parts
    kinds = found.map(\.kind)
    order = found.map(\.slot)
    objectOffsets = layout.objectOffsets
    slotObjects = found.map(\.object)
    exampleLengths = lengths
    exampleTableOffset = layout.tableOffset
    referenceSize = layout.referenceSize
  }

  /// The document with `values` in the slots, in the order the slots were given. A value
  /// of another kind than the slot's example is written as given, and such a document is
  /// not one ``values(in:)`` reads.
  public func write(_ values: [PropertyListValue]) -> [UInt8] {
    precondition(values.count == order.count, "one value for each slot")
    var output: [UInt8] = []
    output.reserveCapacity(exampleTableOffset + 64 + objectOffsets.count * 2)
    var lengths: [Int] = []
    lengths.reserveCapacity(order.count)
    for (position, slot) in order.enumerated() {
      output += parts[position]
      let before = output.count
      BinaryPropertyListWriter.appendScalar(values[slot], to: &output)
      lengths.append(output.count - before)
    }
    output += parts[parts.count - 1]
    appendTable(lengths: lengths, to: &output)
    return output
  }

  /// The slots' values, in the order the slots were given, when `bytes` are exactly what
  /// ``write(_:)`` writes for them with each of the kind of its slot's example; else nil.
  /// Nothing is written to compare with: each byte is checked where it is.
  public func values(in bytes: UnsafeRawBufferPointer) -> [PropertyListValue]? {
    var found = [PropertyListValue](repeating: .null, count: order.count)
    var lengths: [Int] = []
    lengths.reserveCapacity(order.count)
    var position = 0
    for (index, slot) in order.enumerated() {
      guard Self.matches(parts[index], bytes, at: position) else { return nil }
      position += parts[index].count
      guard let (value, length) = Self.scalar(of: kinds[index], in: bytes, at: position)
      else { return nil }
      found[slot] = value
      lengths.append(length)
      position += length
    }
    guard Self.matches(parts[parts.count - 1], bytes, at: position) else { return nil }
    position += parts[parts.count - 1].count
    guard tableMatches(lengths: lengths, in: bytes, at: position) else { return nil }
    return found
  }

  /// Where each object starts for slots of `lengths` (in the document's order): objects
  /// after a slot move by how much longer than the example's it is.
  private func offset(of object: Int, shift: inout Int, slot: inout Int, lengths: [Int]) -> Int {
    while slot < slotObjects.count && slotObjects[slot] < object {
      shift += lengths[slot] - exampleLengths[slot]
      slot += 1
    }
    return objectOffsets[object] + shift
  }

  /// The offset table and trailer, for slots of `lengths` (in the document's order),
  /// written in place: a seed writes 100,000 of them.
  private func appendTable(lengths: [Int], to output: inout [UInt8]) {
    let tableOffset = tableOffset(lengths: lengths)
    let offsetSize = BinaryPropertyListWriter.byteWidth(for: UInt64(tableOffset))
    let start = output.count
    output.append(
      contentsOf: repeatElement(
        0, count: objectOffsets.count * offsetSize + BinaryPropertyList.trailerSize))
    output.withUnsafeMutableBufferPointer { buffer in
      func put(_ value: Int, size: Int, at end: Int) {
        var value = value
        for index in stride(from: end - 1, through: end - size, by: -1) {
          buffer[index] = UInt8(truncatingIfNeeded: value)
          value >>= 8
        }
      }
      var position = start
      var shift = 0
      var slot = 0
      for object in objectOffsets.indices {
        position += offsetSize
        put(
          offset(of: object, shift: &shift, slot: &slot, lengths: lengths), size: offsetSize,
          at: position)
      }
      buffer[position + 6] = UInt8(offsetSize)
      buffer[position + 7] = UInt8(referenceSize)
      put(objectOffsets.count, size: 8, at: position + 16)
      put(tableOffset, size: 8, at: position + 32)
    }
  }

  private func tableOffset(lengths: [Int]) -> Int {
    zip(lengths, exampleLengths).reduce(exampleTableOffset) { $0 + $1.0 - $1.1 }
  }

  /// Whether `bytes` from `start` to their end are what ``appendTable(lengths:to:)``
  /// appends: compared where they are, a listing reads 100,000 of them.
  private func tableMatches(lengths: [Int], in bytes: UnsafeRawBufferPointer, at start: Int)
    -> Bool
  {
    let tableOffset = tableOffset(lengths: lengths)
    let offsetSize = BinaryPropertyListWriter.byteWidth(for: UInt64(tableOffset))
    guard start == tableOffset,
      bytes.count - start == objectOffsets.count * offsetSize + BinaryPropertyList.trailerSize
    else { return false }
    /// Whether the `size` bytes ending at `end` are `value`, big-endian.
    func holds(_ value: Int, size: Int, endingAt end: Int) -> Bool {
      var value = value
      var index = end - 1
      while index >= end - size {
        guard bytes[index] == UInt8(truncatingIfNeeded: value) else { return false }
        value >>= 8
        index -= 1
      }
      return value == 0
    }
    var position = start
    var shift = 0
    var slot = 0
    for object in objectOffsets.indices {
      position += offsetSize
      let expected = offset(of: object, shift: &shift, slot: &slot, lengths: lengths)
      guard holds(expected, size: offsetSize, endingAt: position) else { return false }
    }
    for index in position..<(position + 6) where bytes[index] != 0 { return false }
    return bytes[position + 6] == UInt8(offsetSize) && bytes[position + 7] == UInt8(referenceSize)
      && holds(objectOffsets.count, size: 8, endingAt: position + 16)
      && holds(0, size: 8, endingAt: position + 24)
      && holds(tableOffset, size: 8, endingAt: position + 32)
  }

  /// `size` big-endian bytes at `start`, or nil when they run past the end.
  private static func bigEndian(_ bytes: UnsafeRawBufferPointer, at start: Int, size: Int)
    -> UInt64?
  {
    guard start >= 0, size <= bytes.count - start else { return nil }
    var value: UInt64 = 0
    for index in start..<(start + size) { value = value << 8 | UInt64(bytes[index]) }
    return value
  }

  private static func matches(_ part: [UInt8], _ bytes: UnsafeRawBufferPointer, at position: Int)
    -> Bool
  {
    guard position >= 0, part.count <= bytes.count - position else { return false }
    return part.withUnsafeBytes { expected in
      guard let base = bytes.baseAddress, let other = expected.baseAddress else {
        return part.isEmpty
      }
      return memcmp(base + position, other, part.count) == 0
    }
  }

  /// The size exponent the writer gives an integer: the smallest unsigned width for one
  /// that is not negative, 8 bytes for one that is.
  private static func sizeExponent(of value: Int64) -> UInt8 {
    switch value {
    case 0...0xFF: 0
    case 0x100...0xFFFF: 1
    case 0x1_0000...0xFFFF_FFFF: 2
    default: 3
    }
  }

  /// The scalar of `kind` at `position`, and how many bytes it takes, when those bytes are
  /// the ones the writer writes for it (no longer form of a count or an integer); nil
  /// otherwise.
  private static func scalar(
    of kind: SlotKind, in bytes: UnsafeRawBufferPointer, at position: Int
  ) -> (PropertyListValue, Int)? {
    guard position < bytes.count else { return nil }
    let marker = bytes[position]
    /// The integer at `start` (its marker, then its bytes), with its length.
    func integer(at start: Int) -> (value: Int64, length: Int)? {
      guard start < bytes.count, bytes[start] >> 4 == 0x1, bytes[start] & 0x0F <= 3 else {
        return nil
      }
      let exponent = bytes[start] & 0x0F
      guard let raw = bigEndian(bytes, at: start + 1, size: 1 << Int(exponent)) else {
        return nil
      }
      let value = exponent == 3 ? Int64(bitPattern: raw) : Int64(raw)
      guard sizeExponent(of: value) == exponent else { return nil }
      return (value, 1 + 1 << Int(exponent))
    }
    /// A data's or a string's length, from its marker's low nibble or the integer after
    /// it, and where its bytes start.
    func count(kind: UInt8) -> (count: Int, start: Int)? {
      guard marker >> 4 == kind else { return nil }
      guard marker & 0x0F == 0x0F else { return (Int(marker & 0x0F), position + 1) }
      guard let (count, length) = integer(at: position + 1), count >= 0x0F,
        count <= Int64(bytes.count)
      else { return nil }
      return (Int(count), position + 1 + length)
    }
    switch kind {
    case .bool:
      guard marker == 0x08 || marker == 0x09 else { return nil }
      return (.bool(marker == 0x09), 1)
    case .integer:
      guard let (value, length) = integer(at: position) else { return nil }
      return (.integer(value), length)
    case .real:
      guard marker == 0x23, let raw = bigEndian(bytes, at: position + 1, size: 8) else {
        return nil
      }
      return (.real(Double(bitPattern: raw)), 9)
    case .real32:
      guard marker == 0x22, let raw = bigEndian(bytes, at: position + 1, size: 4) else {
        return nil
      }
      return (.real32(Float(bitPattern: UInt32(raw))), 5)
    case .data:
      guard let (length, start) = count(kind: 0x4), length <= bytes.count - start else {
        return nil
      }
      return (.data(Data(bytes[start..<(start + length)])), start + length - position)
    case .string:
      guard let (length, start) = count(kind: 0x5), length <= bytes.count - start,
        bytes[start..<(start + length)].allSatisfy({ $0 < 0x80 })
      else { return nil }
      let text = String(decoding: bytes[start..<(start + length)], as: UTF8.self)
      return (.string(text), start + length - position)
    }
  }

  private static func value(at path: [PathComponent], in root: PropertyListValue)
    -> PropertyListValue?
  {
    var value = root
    for component in path {
      switch (value, component) {
      case (.array(let elements), .index(let index)) where elements.indices.contains(index):
        value = elements[index]
      case (.dictionary(let dict), .key(let key)):
        guard let child = dict[key] else { return nil }
        value = child
      default:
        return nil
      }
    }
    return value
  }
}
