/// The constants of the `NSKeyedArchiver` format.
enum KeyedArchiveFormat {
  static let archiver = "NSKeyedArchiver"
  static let version: Int64 = 100_000
  static let nullName = "$null"
  static let rootKey = "root"
  static let classKey = "$class"
  static let classNameKey = "$classname"
  static let classesKey = "$classes"
  static let classHintsKey = "$classhints"

  /// `NSKeyedArchiver` prefixes one more "$" to keys that start with "$", so that object
  /// fields never collide with its own `$class`.
  static func escape(_ key: String) -> String {
    key.hasPrefix("$") ? "$" + key : key
  }
}

/// A keyed archive whose whole structure has been checked, so decoding can trust it: every
/// UID is in range, every class description names an allowed class, every object's `$class`
/// leads to such a description, and the object graph under the root is acyclic and shallow.
struct KeyedArchiveGraph {
  let objects: [PropertyListValue]
  let root: Int
  /// The allowed class of each object dictionary, by index in `objects`.
  let instanceClasses: [Int: ArchiveClassTable.Entry]

  static let maxObjectDepth = 32

  init(validating plist: PropertyListValue, classes: ArchiveClassTable) throws(ArchiveError) {
    guard case .dictionary(let top) = plist else {
      throw .notKeyedArchive("the top level is not a dictionary")
    }
    guard case .string(let archiver)? = top["$archiver"] else {
      throw .notKeyedArchive("$archiver is missing or not a string")
    }
    guard archiver == KeyedArchiveFormat.archiver else {
      throw .notKeyedArchive("$archiver is \"\(archiver)\", not NSKeyedArchiver")
    }
    guard top["$version"] == .integer(KeyedArchiveFormat.version) else {
      throw .notKeyedArchive("$version is missing or not \(KeyedArchiveFormat.version)")
    }
    guard case .array(let objects)? = top["$objects"] else {
      throw .notKeyedArchive("$objects is missing or not an array")
    }
    guard objects.first == .string(KeyedArchiveFormat.nullName) else {
      throw .notKeyedArchive("$objects does not start with $null")
    }
    guard case .dictionary(let topObjects)? = top["$top"] else {
      throw .notKeyedArchive("$top is missing or not a dictionary")
    }
    guard case .uid(let rootUID)? = topObjects[KeyedArchiveFormat.rootKey] else {
      throw .notKeyedArchive("$top has no root UID")
    }
    for (key, value) in topObjects {
      try Self.checkReferences(in: value, objects: objects, context: "$top.\(key)")
    }
    guard rootUID != 0 else { throw .notKeyedArchive("the root object is nil") }
    self.objects = objects
    root = Int(rootUID)
    instanceClasses = try Self.classifyObjects(objects, classes: classes)
    try checkRoot()
    var heights: [Int: Int] = [:]
    var onPath: Set<Int> = []
    _ = try height(of: root, depth: 1, heights: &heights, onPath: &onPath)
  }

  /// Checks every entry of `$objects` and returns the class of each object dictionary.
  private static func classifyObjects(
    _ objects: [PropertyListValue], classes: ArchiveClassTable
  ) throws(ArchiveError) -> [Int: ArchiveClassTable.Entry] {
    var classDescriptions: [Int: ArchiveClassTable.Entry] = [:]
    for (index, object) in objects.enumerated() where index > 0 {
      guard case .dictionary(let dict) = object, dict[KeyedArchiveFormat.classNameKey] != nil else {
        continue
      }
      classDescriptions[index] = try classEntry(dict, index: index, classes: classes)
    }
    var instances: [Int: ArchiveClassTable.Entry] = [:]
    for (index, object) in objects.enumerated() where index > 0 {
      switch object {
      case .string, .integer, .real, .real32, .bool, .data:
        continue  // NSString, NSNumber and NSData are stored as plain values.
      case .uid, .array:
        throw .notKeyedArchive("$objects[\(index)] is a bare UID or array")
      case .date, .null:
        throw .notKeyedArchive(
          "$objects[\(index)] is \(object.kind), which keyed archives never hold")
      case .dictionary(let dict):
        if classDescriptions[index] != nil { continue }
        guard case .uid(let classUID)? = dict[KeyedArchiveFormat.classKey] else {
          throw .notKeyedArchive("$objects[\(index)] is a dictionary without a $class UID")
        }
        guard let entry = classDescriptions[Int(classUID)] else {
          throw .notKeyedArchive("$objects[\(index)].$class does not refer to a class")
        }
        for (key, value) in dict where key != KeyedArchiveFormat.classKey {
          try checkReferences(
            in: value, objects: objects, context: "$objects[\(index)].\(key)",
            classDescriptions: classDescriptions)
        }
        instances[index] = entry
      }
    }
    return instances
  }

  /// Validates a `{"$classname": …, "$classes": […]}` description and resolves its class.
  private static func classEntry(
    _ dict: [String: PropertyListValue], index: Int, classes: ArchiveClassTable
  ) throws(ArchiveError) -> ArchiveClassTable.Entry {
    guard case .string(let name)? = dict[KeyedArchiveFormat.classNameKey] else {
      throw .notKeyedArchive("$objects[\(index)].$classname is not a string")
    }
    guard dict[KeyedArchiveFormat.classKey] == nil else {
      throw .notKeyedArchive("$objects[\(index)] has both $class and $classname")
    }
    // Foundation omits $classes when a class name was remapped, so it is optional; when
    // present it must be the class chain starting with $classname.
    if let chain = dict[KeyedArchiveFormat.classesKey] {
      guard case .array(let names) = chain, names.first == .string(name),
        names.allSatisfy({ if case .string = $0 { true } else { false } })
      else {
        throw .notKeyedArchive("$objects[\(index)].$classes is not a chain of class names")
      }
    }
    if let hints = dict[KeyedArchiveFormat.classHintsKey] {
      guard case .array(let names) = hints,
        names.allSatisfy({ if case .string = $0 { true } else { false } })
      else {
        throw .notKeyedArchive("$objects[\(index)].$classhints is not an array of names")
      }
    }
    guard let entry = classes.entry(named: name) else { throw .classNotAllowed(name) }
    return entry
  }

  /// Every UID inside `value` must index `$objects`, and only `$class` may point at a
  /// class description.
  private static func checkReferences(
    in value: PropertyListValue, objects: [PropertyListValue], context: String,
    classDescriptions: [Int: ArchiveClassTable.Entry] = [:]
  ) throws(ArchiveError) {
    switch value {
    case .uid(let uid):
      guard Int(uid) < objects.count else {
        throw .notKeyedArchive("\(context) UID \(uid) is out of range (\(objects.count) objects)")
      }
      guard classDescriptions[Int(uid)] == nil else {
        throw .notKeyedArchive("\(context) refers to a class description")
      }
    case .array(let elements):
      for element in elements {
        try checkReferences(
          in: element, objects: objects, context: context, classDescriptions: classDescriptions)
      }
    case .dictionary(let dict):
      for (key, element) in dict {
        try checkReferences(
          in: element, objects: objects, context: "\(context).\(key)",
          classDescriptions: classDescriptions)
      }
    case .date, .null:
      throw .notKeyedArchive("\(context) is \(value.kind), which keyed archives never hold")
    case .string, .integer, .real, .real32, .bool, .data:
      break
    }
  }

  /// The root must be an object dictionary; a bare value root means Foundation archived an
  /// NSString, NSNumber or NSData, which are never allowed here.
  private func checkRoot() throws(ArchiveError) {
    switch objects[root] {
    case .string: throw .classNotAllowed("NSString")
    case .integer, .real, .real32, .bool: throw .classNotAllowed("NSNumber")
    case .data: throw .classNotAllowed("NSData")
    case .dictionary:
      guard let entry = instanceClasses[root] else { break }
      // A class allowed only inside another object (a color's color space) is refused as
      // the root, as a class outside the table is.
      guard entry.isTopLevel else { throw .classNotAllowed(entry.name) }
      return
    default: break
    }
    throw .notKeyedArchive("the root is a class description, not an object")
  }

  /// The depth of the object graph under `index`, refusing cycles: objects are built by
  /// `init?(coder:)` before anyone holds a reference to them, so a cycle cannot be decoded.
  private func height(
    of index: Int, depth: Int, heights: inout [Int: Int], onPath: inout Set<Int>
  ) throws(ArchiveError) -> Int {
    if let known = heights[index] { return known }
    guard depth <= Self.maxObjectDepth else {
      throw .notKeyedArchive("objects nest deeper than \(Self.maxObjectDepth) levels")
    }
    guard !onPath.contains(index) else {
      throw .notKeyedArchive("reference cycle through $objects[\(index)]")
    }
    guard case .dictionary(let fields) = objects[index] else { return 0 }
    onPath.insert(index)
    var tallest = 0
    for child in Self.referencedInstances(in: .dictionary(fields), instances: instanceClasses) {
      let childHeight = try height(
        of: child, depth: depth + 1, heights: &heights,
        onPath: &onPath)
      tallest = max(tallest, childHeight)
    }
    onPath.remove(index)
    heights[index] = tallest + 1
    return tallest + 1
  }

  private static func referencedInstances(
    in value: PropertyListValue, instances: [Int: ArchiveClassTable.Entry]
  ) -> [Int] {
    switch value {
    case .uid(let uid): return instances[Int(uid)] != nil ? [Int(uid)] : []
    case .array(let elements):
      return elements.flatMap { referencedInstances(in: $0, instances: instances) }
    case .dictionary(let dict):
      return dict.filter { $0.key != KeyedArchiveFormat.classKey }.values.flatMap {
        referencedInstances(in: $0, instances: instances)
      }
    case .string, .integer, .real, .real32, .bool, .data, .date, .null: return []
    }
  }
}
