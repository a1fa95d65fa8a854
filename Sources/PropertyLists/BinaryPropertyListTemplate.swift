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
  /// The value the template was made with in each slot, in the order of the document.
  private let examples: [PropertyListValue]
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
    var found: [(object: Int, slot: Int, example: PropertyListValue)] = []
    for (slot, path) in slots.enumerated() {
      guard let object = BinaryPropertyListWriter.objectNumber(at: path, in: value),
        let example = Self.value(at: path, in: value), Self.isSlotKind(example),
        !found.contains(where: { $0.object == object })
      else { return nil }
      found.append((object, slot, example))
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
    examples = found.map(\.example)
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
  public func values(in bytes: UnsafeRawBufferPointer) -> [PropertyListValue]? {
    var found = [PropertyListValue](repeating: .null, count: order.count)
    var lengths: [Int] = []
    lengths.reserveCapacity(order.count)
    var position = 0
    for (index, slot) in order.enumerated() {
      guard Self.matches(parts[index], bytes, at: position) else { return nil }
      position += parts[index].count
      guard let (value, length) = Self.scalar(like: examples[index], in: bytes, at: position)
      else { return nil }
      found[slot] = value
      lengths.append(length)
      position += length
    }
    guard Self.matches(parts[parts.count - 1], bytes, at: position) else { return nil }
    position += parts[parts.count - 1].count
    var table: [UInt8] = []
    appendTable(lengths: lengths, to: &table)
    guard bytes.count - position == table.count, Self.matches(table, bytes, at: position) else {
      return nil
    }
    return found
  }

  /// The offset table and trailer, for slots of `lengths` (in the document's order).
  private func appendTable(lengths: [Int], to output: inout [UInt8]) {
    var offsets = objectOffsets
    var shift = 0
    var slot = 0
    for object in offsets.indices {
      // Objects after a slot move by how much longer than the example's it is.
      while slot < slotObjects.count && slotObjects[slot] < object {
        shift += lengths[slot] - exampleLengths[slot]
        slot += 1
      }
      offsets[object] += shift
    }
    let tableShift = zip(lengths, exampleLengths).reduce(0) { $0 + $1.0 - $1.1 }
    BinaryPropertyListWriter.appendTable(
      offsets: offsets, tableOffset: exampleTableOffset + tableShift,
      referenceSize: referenceSize, to: &output)
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

  /// The scalar of `example`'s kind at `position`, and how many bytes it takes, when those
  /// bytes are the ones the writer writes for it; nil otherwise.
  private static func scalar(
    like example: PropertyListValue, in bytes: UnsafeRawBufferPointer, at position: Int
  ) -> (PropertyListValue, Int)? {
    guard position < bytes.count else { return nil }
    let marker = bytes[position]
    func bigEndian(at start: Int, size: Int) -> UInt64? {
      guard size <= bytes.count - start else { return nil }
      var value: UInt64 = 0
      for index in start..<(start + size) { value = value << 8 | UInt64(bytes[index]) }
      return value
    }
    /// A marker's count, from its low nibble or the integer after it.
    func count(kind: UInt8) -> (count: Int, start: Int)? {
      guard marker >> 4 == kind else { return nil }
      guard marker & 0x0F == 0x0F else { return (Int(marker & 0x0F), position + 1) }
      guard position + 1 < bytes.count, bytes[position + 1] >> 4 == 0x1 else { return nil }
      let size = 1 << Int(bytes[position + 1] & 0x0F)
      guard size <= 8, let raw = bigEndian(at: position + 2, size: size), raw < 1 << 31
      else { return nil }
      return (Int(raw), position + 2 + size)
    }
    let value: PropertyListValue
    switch example {
    case .bool:
      guard marker == 0x08 || marker == 0x09 else { return nil }
      value = .bool(marker == 0x09)
    case .integer:
      guard marker >> 4 == 0x1, marker & 0x0F <= 3,
        let raw = bigEndian(at: position + 1, size: 1 << Int(marker & 0x0F))
      else { return nil }
      value = .integer(marker & 0x0F == 3 ? Int64(bitPattern: raw) : Int64(raw))
    case .real:
      guard marker == 0x23, let raw = bigEndian(at: position + 1, size: 8) else { return nil }
      value = .real(Double(bitPattern: raw))
    case .real32:
      guard marker == 0x22, let raw = bigEndian(at: position + 1, size: 4) else { return nil }
      value = .real32(Float(bitPattern: UInt32(raw)))
    case .data:
      guard let (length, start) = count(kind: 0x4), length <= bytes.count - start else {
        return nil
      }
      value = .data(Data(bytes[start..<(start + length)]))
    case .string:
      guard let (length, start) = count(kind: 0x5), length <= bytes.count - start,
        bytes[start..<(start + length)].allSatisfy({ $0 < 0x80 })
      else { return nil }
      value = .string(String(decoding: bytes[start..<(start + length)], as: UTF8.self))
    default:
      return nil
    }
    // Only the writer's own bytes for the value: no longer form of a count or an integer.
    var written: [UInt8] = []
    BinaryPropertyListWriter.appendScalar(value, to: &written)
    guard matches(written, bytes, at: position) else { return nil }
    return (value, written.count)
  }

  /// What a slot may hold: the scalars whose bytes ``values(in:)`` reads back.
  private static func isSlotKind(_ value: PropertyListValue) -> Bool {
    switch value {
    case .bool, .integer, .real, .real32, .data: true
    case .string(let text): text.utf8.allSatisfy { $0 < 0x80 }
    case .date, .uid, .array, .dictionary, .null: false
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
