import Foundation

/// Bounds that keep a hostile property list from costing more than a legitimate archive.
public struct PropertyListLimits: Sendable {
  /// For a seed file of `byteCount` bytes: dates, and budgets that grow with the file.
  /// Every object takes at least one byte of the file, and so does every value read
  /// unless a shared container is expanded twice: no plist writer's file comes near them.
  public static func seedFile(byteCount: Int) -> PropertyListLimits {
    PropertyListLimits(
      maxObjects: max(4096, byteCount), maxValues: max(16_384, byteCount), allowsDates: true)
  }

  /// The limits for a keyed archive; a seed file's are wider.
  public init(
    maxObjects: Int = 4096, maxDepth: Int = 32, maxValues: Int = 16_384, allowsDates: Bool = false
  ) {
    self.maxObjects = maxObjects
    self.maxDepth = maxDepth
    self.maxValues = maxValues
    self.allowsDates = allowsDates
  }

  /// Most objects the offset table may declare.
  public var maxObjects: Int
  /// Deepest container nesting accepted (a keyed archive needs about four levels).
  public var maxDepth: Int
  /// Most values materialized in total. Shared references are expanded at every use, so
  /// without this budget a few hundred bytes of nested shared arrays could expand to
  /// billions of values.
  public var maxValues: Int
  /// Whether date objects are read (seed files) or refused (keyed archives).
  public var allowsDates: Bool
}

/// The fixed parts of the format, shared by the reader and the writer.
public enum BinaryPropertyList {
  public static let magic: [UInt8] = Array("bplist00".utf8)
  static let trailerSize = 32

  /// Parses a complete `bplist00` document. Every defect becomes an `ArchiveError`.
  public static func read(
    _ bytes: [UInt8], limits: PropertyListLimits = PropertyListLimits()
  ) throws(ArchiveError) -> PropertyListValue {
    var reader = try BinaryPropertyListReader(bytes: bytes, limits: limits)
    return try reader.readTopObject()
  }

  /// Serializes `value` as a `bplist00` document (no uniquing of equal objects).
  public static func write(_ value: PropertyListValue) -> [UInt8] {
    var writer = BinaryPropertyListWriter()
    return writer.write(value)
  }
}

/// A strict reader. Input-derived numbers only meet overflow-checked arithmetic and every
/// index is range-checked first, so malformed input cannot trap.
private struct BinaryPropertyListReader {
  private let bytes: [UInt8]
  private let limits: PropertyListLimits
  private let offsetSize: Int
  private let refSize: Int
  private let objectCount: Int
  private let topObject: Int
  /// Where the offset table starts; every object must end before it.
  private let objectAreaEnd: Int
  private var onPath: [Bool]
  private var valuesLeft: Int

  init(bytes: [UInt8], limits: PropertyListLimits) throws(ArchiveError) {
    guard !bytes.isEmpty else { throw .empty }
    guard bytes.starts(with: BinaryPropertyList.magic) else { throw .notBinaryPropertyList }
    let headerSize = BinaryPropertyList.magic.count
    guard bytes.count >= headerSize + 1 + BinaryPropertyList.trailerSize else {
      throw .malformedPropertyList("\(bytes.count) bytes is too short for a trailer")
    }
    self.bytes = bytes
    self.limits = limits
    let trailer = bytes.count - BinaryPropertyList.trailerSize
    offsetSize = Int(bytes[trailer + 6])
    refSize = Int(bytes[trailer + 7])
    guard (1...8).contains(offsetSize) else {
      throw .malformedPropertyList("offset size \(offsetSize) is not 1...8")
    }
    guard (1...8).contains(refSize) else {
      throw .malformedPropertyList("reference size \(refSize) is not 1...8")
    }
    let count = Self.bigEndian(bytes, at: trailer + 8, size: 8)
    let top = Self.bigEndian(bytes, at: trailer + 16, size: 8)
    let tableOffset = Self.bigEndian(bytes, at: trailer + 24, size: 8)
    guard count >= 1, count <= UInt64(limits.maxObjects) else {
      throw .malformedPropertyList("object count \(count) is not 1...\(limits.maxObjects)")
    }
    guard top < count else {
      throw .malformedPropertyList("top object \(top) is out of range (\(count) objects)")
    }
    // The table must sit between the header's first object and the trailer.
    guard tableOffset > UInt64(headerSize), tableOffset <= UInt64(trailer) else {
      throw .malformedPropertyList("offset table offset \(tableOffset) is out of range")
    }
    objectCount = Int(count)
    topObject = Int(top)
    objectAreaEnd = Int(tableOffset)
    let (tableSize, overflow) = objectCount.multipliedReportingOverflow(by: offsetSize)
    guard !overflow, tableSize <= trailer - objectAreaEnd else {
      throw .malformedPropertyList("offset table runs into the trailer")
    }
    onPath = Array(repeating: false, count: objectCount)
    valuesLeft = limits.maxValues
  }

  mutating func readTopObject() throws(ArchiveError) -> PropertyListValue {
    try readObject(topObject, depth: 0)
  }

  // MARK: Objects

  private mutating func readObject(_ index: Int, depth: Int) throws(ArchiveError)
    -> PropertyListValue
  {
    guard depth <= limits.maxDepth else {
      throw .malformedPropertyList("nesting is deeper than \(limits.maxDepth) levels")
    }
    guard !onPath[index] else {
      throw .malformedPropertyList("reference cycle through object \(index)")
    }
    valuesLeft -= 1
    guard valuesLeft >= 0 else {
      throw .malformedPropertyList("more than \(limits.maxValues) values")
    }
    let start = try offset(ofObject: index)
    let marker = bytes[start]
    let low = Int(marker & 0x0F)
    var cursor = start + 1
    switch marker >> 4 {
    case 0x0 where marker == 0x08: return .bool(false)
    case 0x0 where marker == 0x09: return .bool(true)
    case 0x1: return .integer(try readInteger(sizeExponent: low, at: cursor))
    case 0x2: return .real(try readReal(sizeExponent: low, at: cursor))
    case 0x3 where marker == 0x33 && limits.allowsDates:
      return .date(Date(timeIntervalSinceReferenceDate: try readReal(sizeExponent: 3, at: cursor)))
    case 0x4:
      let count = try readCount(low, cursor: &cursor)
      return .data(Data(bytes[try span(from: cursor, length: count)]))
    case 0x5:
      let count = try readCount(low, cursor: &cursor)
      return .string(try asciiString(try span(from: cursor, length: count)))
    case 0x6:
      let count = try readCount(low, cursor: &cursor)
      let (length, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else { throw .malformedPropertyList("string length overflows") }
      return .string(try utf16String(try span(from: cursor, length: length)))
    case 0x8:
      guard low <= 3 else { throw badMarker(marker, at: start) }
      let range = try span(from: cursor, length: low + 1)
      return .uid(UInt32(Self.bigEndian(bytes, at: range.lowerBound, size: range.count)))
    case 0xA:
      let count = try readCount(low, cursor: &cursor)
      let refs = try readRefs(count: count, at: cursor)
      onPath[index] = true
      var elements: [PropertyListValue] = []
      elements.reserveCapacity(refs.count)
      for ref in refs { elements.append(try readObject(ref, depth: depth + 1)) }
      onPath[index] = false
      return .array(elements)
    case 0xD:
      let count = try readCount(low, cursor: &cursor)
      let (refCount, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else { throw .malformedPropertyList("dictionary size overflows") }
      let refs = try readRefs(count: refCount, at: cursor)
      onPath[index] = true
      var dict: [String: PropertyListValue] = [:]
      // Keys first, then values. By index rather than zip(_:_:) over two slices, which
      // would make every process that reads a color look up two conformances at run time.
      for position in 0..<count {
        let (keyRef, valueRef) = (refs[position], refs[count + position])
        guard case .string(let key) = try readObject(keyRef, depth: depth + 1) else {
          throw .malformedPropertyList("dictionary key in object \(index) is not a string")
        }
        guard dict[key] == nil else {
          throw .malformedPropertyList("duplicate dictionary key \"\(key)\"")
        }
        dict[key] = try readObject(valueRef, depth: depth + 1)
      }
      onPath[index] = false
      return .dictionary(dict)
    default:
      throw badMarker(marker, at: start)
    }
  }

  private func badMarker(_ marker: UInt8, at offset: Int) -> ArchiveError {
    .malformedPropertyList("unsupported marker 0x\(hex(marker)) at offset \(offset)")
  }

  /// Integers of 1, 2 and 4 bytes are unsigned; 8-byte ones are signed (as CoreFoundation
  /// writes them). 16-byte integers are refused: nothing we archive needs them.
  private func readInteger(sizeExponent: Int, at cursor: Int) throws(ArchiveError) -> Int64 {
    guard sizeExponent <= 3 else {
      throw .malformedPropertyList("\(1 << min(sizeExponent, 15))-byte integer at \(cursor - 1)")
    }
    let size = 1 << sizeExponent
    let range = try span(from: cursor, length: size)
    let raw = Self.bigEndian(bytes, at: range.lowerBound, size: size)
    return size == 8 ? Int64(bitPattern: raw) : Int64(raw)
  }

  private func readReal(sizeExponent: Int, at cursor: Int) throws(ArchiveError) -> Double {
    switch sizeExponent {
    case 2:
      let range = try span(from: cursor, length: 4)
      let raw = UInt32(Self.bigEndian(bytes, at: range.lowerBound, size: 4))
      return Double(Float(bitPattern: raw))
    case 3:
      let range = try span(from: cursor, length: 8)
      return Double(bitPattern: Self.bigEndian(bytes, at: range.lowerBound, size: 8))
    default:
      throw .malformedPropertyList("real of size exponent \(sizeExponent) at \(cursor - 1)")
    }
  }

  /// A marker's low nibble is the count, or 0xF when an integer object holding the count
  /// follows. `cursor` moves past that integer.
  private func readCount(_ low: Int, cursor: inout Int) throws(ArchiveError) -> Int {
    guard low == 0xF else { return low }
    let markerRange = try span(from: cursor, length: 1)
    let marker = bytes[markerRange.lowerBound]
    guard marker >> 4 == 0x1 else {
      throw .malformedPropertyList("count at offset \(cursor) is not an integer")
    }
    let value = try readInteger(sizeExponent: Int(marker & 0x0F), at: cursor + 1)
    guard value >= 0, value <= Int64(objectAreaEnd) else {
      throw .malformedPropertyList("count \(value) at offset \(cursor) exceeds the data")
    }
    cursor += 1 + (1 << Int(marker & 0x0F))
    return Int(value)
  }

  private func readRefs(count: Int, at cursor: Int) throws(ArchiveError) -> [Int] {
    let (length, overflow) = count.multipliedReportingOverflow(by: refSize)
    guard !overflow else { throw .malformedPropertyList("container size overflows") }
    let range = try span(from: cursor, length: length)
    return try stride(from: range.lowerBound, to: range.upperBound, by: refSize).map {
      (position: Int) throws(ArchiveError) -> Int in
      let ref = Self.bigEndian(bytes, at: position, size: refSize)
      guard ref < UInt64(objectCount) else {
        throw .malformedPropertyList("reference \(ref) is out of range (\(objectCount) objects)")
      }
      return Int(ref)
    }
  }

  private func offset(ofObject index: Int) throws(ArchiveError) -> Int {
    // Cannot overflow: index < maxObjects and offsetSize <= 8, checked in init.
    let position = objectAreaEnd + index * offsetSize
    let offset = Self.bigEndian(bytes, at: position, size: offsetSize)
    guard offset >= UInt64(BinaryPropertyList.magic.count), offset < UInt64(objectAreaEnd) else {
      throw .malformedPropertyList("object \(index) has offset \(offset) outside the objects")
    }
    return Int(offset)
  }

  /// The range `start..<start+length`, or an error if any of it lies outside the objects.
  private func span(from start: Int, length: Int) throws(ArchiveError) -> Range<Int> {
    let (end, overflow) = start.addingReportingOverflow(length)
    guard length >= 0, !overflow, start >= 0, end <= objectAreaEnd else {
      throw .malformedPropertyList("object data at offset \(start) runs past the objects")
    }
    return start..<end
  }

  // MARK: Strings

  private func asciiString(_ range: Range<Int>) throws(ArchiveError) -> String {
    let slice = bytes[range]
    guard slice.allSatisfy({ $0 < 0x80 }) else {
      throw .malformedPropertyList("ASCII string at \(range.lowerBound) has non-ASCII bytes")
    }
    return String(decoding: slice, as: UTF8.self)
  }

  /// Decodes UTF-16BE strictly: a lone surrogate is an error, not a replacement character.
  private func utf16String(_ range: Range<Int>) throws(ArchiveError) -> String {
    let units = stride(from: range.lowerBound, to: range.upperBound, by: 2).map {
      UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
    }
    var iterator = units.makeIterator()
    var decoder = UTF16()
    var scalars = String.UnicodeScalarView()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): scalars.append(scalar)
      case .emptyInput: return String(scalars)
      case .error:
        throw .malformedPropertyList("UTF-16 string at \(range.lowerBound) is invalid")
      }
    }
  }

  /// Reads `size` (1...8) big-endian bytes; callers have range-checked the position.
  private static func bigEndian(_ bytes: [UInt8], at position: Int, size: Int) -> UInt64 {
    bytes[position..<(position + size)].reduce(0) { $0 << 8 | UInt64($1) }
  }
}

private func hex(_ byte: UInt8) -> String {
  let digits = Array("0123456789ABCDEF")
  return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
