/// Writes a `bplist00` document whose root is an array, an element at a time, so that a
/// large array costs the writer a few bytes an object rather than the whole document.
///
/// ``BinaryPropertyList/write(_:)`` numbers a whole tree before it writes a byte: a
/// container first, then what it holds, with references as wide as the object count
/// needs. Here each object is written as soon as what it holds is: an element's values,
/// then its keys when first met, then the element; the root array comes last, and the
/// trailer names it as the top object. References are four bytes wide, whatever the count,
/// since the count is not known until the end; dictionary keys are written once and
/// shared by every element that has them, as CoreFoundation's writer shares them. What
/// stays in memory until the end is one offset an object, four bytes each, for the offset
/// table, and one reference an element, for the root array.
///
/// The same elements give the same bytes.
public struct BinaryPropertyListArrayWriter {
  /// References to objects are this many bytes wide.
  static let referenceSize = 4

  /// Bytes of the document handed out so far.
  private var written = 0
  /// Each object's distance from the one before, by object number; the first from the
  /// start of the document. An object is far smaller than 4 GiB.
  private var offsetSteps: [UInt32] = []
  private var lastOffset = 0
  /// The object number of each element, in order.
  private var elements: [UInt32] = []
  /// The object number of each dictionary key written so far.
  private var keys: [String: UInt32] = [:]

  public init() {}

  /// The document's first bytes.
  public mutating func start() -> [UInt8] {
    written = BinaryPropertyList.magic.count
    return BinaryPropertyList.magic
  }

  /// Adds `element` to the array: the bytes of its objects, to write right after the
  /// bytes handed out before.
  public mutating func append(_ element: PropertyListValue) throws(ArchiveError) -> [UInt8] {
    var output: [UInt8] = []
    elements.append(try write(element, to: &output))
    written += output.count
    return output
  }

  /// The rest of the document: the root array, the offset table and the trailer, handed
  /// to `emit` in pieces of about 64 KiB, since the table alone is four bytes an object.
  public mutating func finish(_ emit: ([UInt8]) -> Void) throws(ArchiveError) {
    var piece: [UInt8] = []
    let root = try writeContainer(0xA, count: elements.count, references: elements, to: &piece)
    let tableOffset = written + piece.count
    let offsetSize = BinaryPropertyListWriter.byteWidth(for: UInt64(tableOffset))
    var offset = 0
    for step in offsetSteps {
      offset += Int(step)
      BinaryPropertyListWriter.appendBigEndian(UInt64(offset), size: offsetSize, to: &piece)
      if piece.count >= Self.pieceSize {
        written += piece.count
        emit(piece)
        piece.removeAll(keepingCapacity: true)
      }
    }
    BinaryPropertyListWriter.appendTrailer(
      objectCount: offsetSteps.count, topObject: Int(root), tableOffset: tableOffset,
      offsetSize: offsetSize, referenceSize: Self.referenceSize, to: &piece)
    written += piece.count
    emit(piece)
  }

  private static let pieceSize = 1 << 16

  /// Writes `value`'s objects, what it holds before itself; returns its object number.
  private mutating func write(_ value: PropertyListValue, to output: inout [UInt8])
    throws(ArchiveError) -> UInt32
  {
    switch value {
    case .array(let items):
      var refs: [UInt32] = []
      refs.reserveCapacity(items.count)
      for item in items { refs.append(try write(item, to: &output)) }
      return try writeContainer(0xA, count: refs.count, references: refs, to: &output)
    case .dictionary(let dictionary):
      // Sorted keys keep the bytes the same from run to run.
      let names = dictionary.keys.sorted()
      var refs: [UInt32] = []
      refs.reserveCapacity(names.count * 2)
      for name in names {
        if let key = keys[name] {
          refs.append(key)
        } else {
          let key = try write(.string(name), to: &output)
          keys[name] = key
          refs.append(key)
        }
      }
      for name in names {
        // swift-format-ignore: NeverForceUnwrap
        // Each name is one of the dictionary's keys.
        refs.append(try write(dictionary[name]!, to: &output))
      }
      return try writeContainer(0xD, count: names.count, references: refs, to: &output)
    default:
      return try writeObject(to: &output) { BinaryPropertyListWriter.appendScalar(value, to: &$0) }
    }
  }

  /// Writes one object with `body`, noting where it starts; returns its number.
  private mutating func writeObject(to output: inout [UInt8], _ body: (inout [UInt8]) -> Void)
    throws(ArchiveError) -> UInt32
  {
    guard let number = UInt32(exactly: offsetSteps.count) else {
      throw .unsupportedObject(
        "more than \(UInt32.max) objects, which four-byte references cannot reach")
    }
    let offset = written + output.count
    guard let step = UInt32(exactly: offset - lastOffset) else {
      throw .unsupportedObject("an object of 4 GiB or more")
    }
    offsetSteps.append(step)
    lastOffset = offset
    body(&output)
    return number
  }

  /// Writes one container (``BinaryPropertyListWriter/appendContainer``); returns its number.
  private mutating func writeContainer(
    _ kind: UInt8, count: Int, references: [UInt32], to output: inout [UInt8]
  ) throws(ArchiveError) -> UInt32 {
    try writeObject(to: &output) {
      BinaryPropertyListWriter.appendContainer(
        kind, count: count, references: references, size: Self.referenceSize, to: &$0)
    }
  }
}
