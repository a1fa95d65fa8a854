import Foundation

/// Writes objects in the structure `NSKeyedArchiver` produces, through their own
/// `encode(with:)`, without Foundation's archiver: in a `-static-stdlib` binary on Linux
/// that one silently emits empty binary output and broken XML.
///
/// Supported values: integers, booleans, reals, bytes, strings, `nil`, and nested objects of
/// the allowed classes. Anything else is recorded as a failure and reported as
/// `ArchiveError.unsupportedObject` rather than trapping.
final class KeyedArchiveEncoder: KeyedArchiveCoder {
  private let classes: ArchiveClassTable
  private var objects: [PropertyListValue] = [.string(KeyedArchiveFormat.nullName)]
  /// The fields of the objects being encoded, innermost last.
  private var containers: [[String: PropertyListValue]] = []
  private var objectUIDs: [ObjectIdentifier: UInt32] = [:]
  private var inProgress: Set<ObjectIdentifier> = []
  private var classUIDs: [String: UInt32] = [:]
  /// Keeps every encoded object alive so that no `ObjectIdentifier` is reused mid-archive.
  private var encodedObjects: [NSObject] = []

  /// Archives `root` and returns the property list that the archive's bytes are.
  static func archive(
    _ root: NSObject, classes: ArchiveClassTable
  ) throws(ArchiveError) -> PropertyListValue {
    let encoder = KeyedArchiveEncoder(classes: classes)
    let rootUID = try encoder.encodeInstance(root)
    let top: [String: PropertyListValue] = [
      "$archiver": .string(KeyedArchiveFormat.archiver),
      "$version": .integer(KeyedArchiveFormat.version),
      "$top": .dictionary([KeyedArchiveFormat.rootKey: .uid(rootUID)]),
      "$objects": .array(encoder.objects),
    ]
    return .dictionary(top)
  }

  private init(classes: ArchiveClassTable) {
    self.classes = classes
    super.init()
  }

  /// Appends `object` (and, through its `encode(with:)`, what it contains) to `$objects`.
  private func encodeInstance(_ object: NSObject) throws(ArchiveError) -> UInt32 {
    let id = ObjectIdentifier(object)
    if let uid = objectUIDs[id] {
      // Our decoder builds each object before anything can refer to it, so a cycle could
      // be written but never read back.
      guard !inProgress.contains(id) else {
        throw .unsupportedObject("a reference cycle through \(type(of: object))")
      }
      return uid
    }
    guard let entry = classes.entry(for: type(of: object)) else {
      throw .unsupportedObject(
        "\(type(of: object)): not an allowed class (allowed: \(classes.allowedNamesList))")
    }
    let uid = UInt32(objects.count)
    objects.append(.string(KeyedArchiveFormat.nullName))  // Placeholder until encoded.
    objectUIDs[id] = uid
    encodedObjects.append(object)
    inProgress.insert(id)
    containers.append([:])
    entry.encode(object, self)
    var fields = containers.removeLast()
    inProgress.remove(id)
    if let failure {
      throw .unsupportedObject("\(entry.name): \(failure)")
    }
    fields[KeyedArchiveFormat.classKey] = .uid(classUID(for: entry))
    objects[Int(uid)] = .dictionary(fields)
    return uid
  }

  /// The class description is shared by all instances of a class, as `NSKeyedArchiver`
  /// does. Intermediate superclasses are not listed: readers go by `$classname`.
  private func classUID(for entry: ArchiveClassTable.Entry) -> UInt32 {
    if let uid = classUIDs[entry.name] { return uid }
    let uid = UInt32(objects.count)
    var description: [String: PropertyListValue] = [
      KeyedArchiveFormat.classNameKey: .string(entry.name),
      KeyedArchiveFormat.classesKey: .array([.string(entry.name), .string("NSObject")]),
    ]
    if !entry.hints.isEmpty {
      description[KeyedArchiveFormat.classHintsKey] = .array(entry.hints.map { .string($0) })
    }
    objects.append(.dictionary(description))
    classUIDs[entry.name] = uid
    return uid
  }

  private func set(_ value: PropertyListValue, forKey key: String) {
    guard !containers.isEmpty else {
      recordFailure("encoding key \"\(key)\" outside encode(with:)")
      return
    }
    containers[containers.count - 1][KeyedArchiveFormat.escape(key)] = value
  }

  // MARK: Scalars

  override func encode(_ intv: Int, forKey key: String) { set(.integer(Int64(intv)), forKey: key) }
  override func encode(_ intv: Int32, forKey key: String) {
    set(.integer(Int64(intv)), forKey: key)
  }
  override func encode(_ intv: Int64, forKey key: String) { set(.integer(intv), forKey: key) }
  override func encode(_ boolv: Bool, forKey key: String) { set(.bool(boolv), forKey: key) }
  override func encode(_ realv: Double, forKey key: String) { set(.real(realv), forKey: key) }
  override func encode(_ realv: Float, forKey key: String) { set(.real32(realv), forKey: key) }

  override func encodeBytes(
    _ bytesp: UnsafePointer<UInt8>?, length lenv: Int, forKey key: String
  ) {
    guard let bytesp, lenv > 0 else {
      set(.data(Data()), forKey: key)
      return
    }
    set(.data(Data(UnsafeBufferPointer(start: bytesp, count: lenv))), forKey: key)
  }

  // MARK: Objects

  override func encode(_ objv: Any?, forKey key: String) {
    guard let objv else {
      set(.uid(0), forKey: key)
      return
    }
    // Strings first: a Swift String would also cast to NSObject (as NSString).
    if let string = objv as? String {
      objects.append(.string(string))
      set(.uid(UInt32(objects.count - 1)), forKey: key)
      return
    }
    guard let object = objv as? NSObject, classes.entry(for: type(of: object)) != nil else {
      recordFailure("key \"\(key)\" holds a \(type(of: objv)), which is not allowed")
      return
    }
    do {
      set(.uid(try encodeInstance(object)), forKey: key)
    } catch {
      if case .unsupportedObject(let reason) = error {
        recordFailure(reason)
      } else {
        recordFailure(error.description)
      }
    }
  }

  /// Like `NSKeyedArchiver`: a reference only if the object is encoded unconditionally
  /// elsewhere (and already was; later encodings are not looked ahead to), else nothing.
  override func encodeConditionalObject(_ objv: Any?, forKey key: String) {
    guard let object = objv as? NSObject, let uid = objectUIDs[ObjectIdentifier(object)] else {
      return
    }
    set(.uid(uid), forKey: key)
  }
}
