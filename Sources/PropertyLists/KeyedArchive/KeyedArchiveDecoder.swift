import Foundation

/// Reads an `NSKeyedArchiver` archive without Foundation's `NSKeyedUnarchiver`, which traps
/// on malformed input on Linux.
///
/// The whole archive is validated (``KeyedArchiveGraph``) before any object is created; then
/// allowed classes are instantiated through their own `init?(coder:)` with this decoder as
/// the coder. Type mismatches are recorded instead of trapping and turn into
/// `ArchiveError.decodingFailed` once the initializer returns.
final class KeyedArchiveDecoder: KeyedArchiveCoder {
  private let graph: KeyedArchiveGraph
  /// The fields of the objects being initialized, innermost last.
  private var containers: [[String: PropertyListValue]] = []
  /// Shared references decode to one instance, as with `NSKeyedUnarchiver`.
  private var decoded: [Int: NSObject] = [:]
  /// Soft observations (a key that was asked for but absent), used to explain an
  /// initializer that returned nil without saying why.
  private var notes: [String] = []

  /// Decodes the root object of a binary keyed archive.
  ///
  /// - Returns: an instance of one of `classes`, never anything else.
  static func decodeRoot(
    from bytes: [UInt8], classes: ArchiveClassTable
  ) throws(ArchiveError) -> NSObject {
    let plist = try BinaryPropertyList.read(bytes)
    let graph = try KeyedArchiveGraph(validating: plist, classes: classes)
    return try KeyedArchiveDecoder(graph: graph).decodeInstance(at: graph.root)
  }

  private init(graph: KeyedArchiveGraph) {
    self.graph = graph
    super.init()
  }

  private func decodeInstance(at index: Int) throws(ArchiveError) -> NSObject {
    if let object = decoded[index] { return object }
    guard let entry = graph.instanceClasses[index],
      case .dictionary(let fields) = graph.objects[index]
    else {
      throw .notKeyedArchive("$objects[\(index)] is not an object")
    }
    containers.append(fields)
    let instance = entry.type.init(coder: self)
    containers.removeLast()
    if let failure {
      throw .decodingFailed(className: entry.name, reason: failure)
    }
    guard let object: NSObject = instance else {
      let reason = notes.first ?? "init(coder:) returned nil"
      throw .decodingFailed(className: entry.name, reason: reason)
    }
    guard ObjectIdentifier(type(of: object)) == ObjectIdentifier(entry.type) else {
      throw .decodingFailed(className: entry.name, reason: "init(coder:) built another class")
    }
    decoded[index] = object
    return object
  }

  // MARK: Field access

  private func value(forKey key: String) -> PropertyListValue? {
    guard let fields = containers.last else {
      recordFailure("decoding key \"\(key)\" outside init(coder:)")
      return nil
    }
    guard let value = fields[KeyedArchiveFormat.escape(key)] else {
      notes.append("key \"\(key)\" is missing")
      return nil
    }
    return value
  }

  private func mismatch(_ key: String, _ value: PropertyListValue, expected: String) {
    recordFailure("key \"\(key)\" holds \(Self.kind(of: value)), not \(expected)")
  }

  private static func kind(of value: PropertyListValue) -> String {
    switch value {
    case .bool: "a boolean"
    case .integer: "an integer"
    case .real, .real32: "a real number"
    case .string: "a string"
    case .data: "data"
    case .date: "a date"
    case .uid: "an object reference"
    case .array: "an array"
    case .dictionary: "a dictionary"
    case .null: "null"
    }
  }

  // MARK: Scalars

  /// A question, not a request: an absent key is not noted as missing, which would cost
  /// more than the lookup itself.
  override func containsValue(forKey key: String) -> Bool {
    containers.last?[KeyedArchiveFormat.escape(key)] != nil
  }

  override func decodeInt64(forKey key: String) -> Int64 {
    guard let value = value(forKey: key) else { return 0 }
    guard case .integer(let int) = value else {
      mismatch(key, value, expected: "an integer")
      return 0
    }
    return int
  }

  override func decodeInteger(forKey key: String) -> Int {
    narrow(decodeInt64(forKey: key), key: key)
  }

  override func decodeInt32(forKey key: String) -> Int32 {
    narrow(decodeInt64(forKey: key), key: key)
  }

  private func narrow<Narrow: FixedWidthInteger>(_ value: Int64, key: String) -> Narrow {
    guard let narrowed = Narrow(exactly: value) else {
      recordFailure("value \(value) for key \"\(key)\" does not fit \(Narrow.self)")
      return 0
    }
    return narrowed
  }

  override func decodeBool(forKey key: String) -> Bool {
    guard let value = value(forKey: key) else { return false }
    guard case .bool(let flag) = value else {
      mismatch(key, value, expected: "a boolean")
      return false
    }
    return flag
  }

  override func decodeDouble(forKey key: String) -> Double {
    switch value(forKey: key) {
    case nil: return 0
    case .real(let real): return real
    case .real32(let real): return Double(real)
    case .integer(let int): return Double(int)
    case let value?:
      mismatch(key, value, expected: "a number")
      return 0
    }
  }

  override func decodeFloat(forKey key: String) -> Float {
    Float(decodeDouble(forKey: key))
  }

  // MARK: Objects

  override func decodeObject(forKey key: String) -> Any? {
    decodeObject(of: nil, forKey: key)
  }

  /// Strings decode as `NSString` and data (which `NSKeyedArchiver` stores as a plain value,
  /// as it does an immutable `NSData`) as `NSData`; objects must be of an allowed class
  /// and, when `classes` is given, of one of those classes too (the secure-coding contract).
  override func decodeObject(of classes: [AnyClass]?, forKey key: String) -> Any? {
    guard let value = value(forKey: key) else { return nil }
    guard case .uid(let uid) = value else {
      mismatch(key, value, expected: "an object reference")
      return nil
    }
    let index = Int(uid)
    guard index != 0 else { return nil }
    let wanted = classes.map { Set($0.map(ObjectIdentifier.init)) }
    switch graph.objects[index] {
    case .string(let string):
      guard wanted?.contains(ObjectIdentifier(NSString.self)) ?? true else {
        recordFailure("key \"\(key)\" holds a string, which was not requested")
        return nil
      }
      return NSString(string: string)
    case .data(let bytes):
      guard wanted?.contains(ObjectIdentifier(NSData.self)) ?? true else {
        recordFailure("key \"\(key)\" holds data, which was not requested")
        return nil
      }
      return NSData(data: bytes)
    case .dictionary:
      guard let entry = graph.instanceClasses[index] else {
        recordFailure("key \"\(key)\" refers to a class description")
        return nil
      }
      guard wanted?.contains(ObjectIdentifier(entry.type)) ?? true else {
        recordFailure("key \"\(key)\" holds a \(entry.name), which was not requested")
        return nil
      }
      do {
        return try decodeInstance(at: index)
      } catch {
        recordFailure(error.description)
        return nil
      }
    case let other:
      recordFailure("key \"\(key)\" refers to \(Self.kind(of: other)), which is unsupported")
      return nil
    }
  }

  #if !canImport(Darwin)
    override func withDecodedUnsafeBytes<ResultType>(
      forKey key: String, body: (UnsafeRawBufferPointer?) throws -> ResultType
    ) rethrows -> ResultType {
      switch value(forKey: key) {
      case .data(let bytes)?:
        return try bytes.withUnsafeBytes { try body($0) }
      case let value?:
        mismatch(key, value, expected: "data")
        return try body(nil)
      case nil:
        return try body(nil)
      }
    }

    override var allowedClasses: [AnyClass]? {
      graph.instanceClasses.values.map { $0.type as AnyClass } + [NSString.self, NSData.self]
    }
  #endif
}

extension KeyedArchiveDecoder {
  /// The first, in sorting order, of the keys of the object being decoded that start with
  /// `prefix`, as `encode(_:forKey:)` named it.
  fileprivate func firstKey(withPrefix prefix: String) -> String? {
    guard let fields = containers.last else { return nil }
    var first: String?
    for key in fields.keys where key != KeyedArchiveFormat.classKey {
      let name = key.hasPrefix("$$") ? String(key.dropFirst()) : key
      if name.hasPrefix(prefix), first.map({ name < $0 }) ?? true { first = name }
    }
    return first
  }
}

extension NSCoder {
  /// The first, in sorting order, of the keys of the object being decoded that start with
  /// `prefix`, when this coder is ``KeyedArchive``'s decoder; nil when none does, or for
  /// any other coder. `NSCoder` has no way to list keys, and a class that refuses forms it
  /// does not read (UIKit's dynamic colors, all of whose keys start with `UIDynamic`)
  /// needs to find them.
  public func firstKeyedArchiveKey(withPrefix prefix: String) -> String? {
    (self as? KeyedArchiveDecoder)?.firstKey(withPrefix: prefix)
  }
}
