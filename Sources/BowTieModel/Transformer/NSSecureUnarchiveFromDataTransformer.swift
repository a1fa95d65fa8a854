import Foundation
import PropertyLists

/// Turns archive `Data` into an object of an allowed class and back; a port of Foundation's
/// transformer of the same name, the base Core Data uses for transformable attributes.
///
/// Archives are `NSKeyedArchiver`-compatible binary property lists, read and written by our
/// own strict codec: on Linux, Foundation's `NSKeyedUnarchiver` traps on corrupt input and
/// `NSKeyedArchiver` writes nothing in a `-static-stdlib` binary. Classes are identified in
/// archives by ``StableArchiveName/archivedClassName``, not by their module-qualified name.
///
/// Stateless, so sharing one instance across threads is safe.
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer, @unchecked Sendable {
  /// The classes an archive's root object may be. Empty by default: nothing is allowed
  /// until a subclass says so. Each class must be `NSObject & NSSecureCoding &
  /// StableArchiveName` with `supportsSecureCoding` true; others are ignored. Nested
  /// objects must be of these classes too (or strings).
  open class var allowedTopLevelClasses: [AnyClass] { [] }

  /// ``allowedTopLevelClasses`` as the types the codec works with. The default casts each
  /// class at run time, and each such cast scans every protocol conformance in the binary
  /// (two scans for a color, a noticeable part of a `show`'s start-up); a subclass that
  /// names its classes overrides this instead, and ``allowedTopLevelClasses`` follows.
  open class var archivableClasses: [ArchivableClass] {
    allowedTopLevelClasses.compactMap { $0 as? ArchivableClass }
  }

  /// Classes an archive may hold below its root object but never as it: what an allowed
  /// class's own archive holds (a color's color space). Empty by default.
  open class var nestedArchivableClasses: [ArchivableClass] { [] }

  /// Extra archived class names accepted when unarchiving, each mapped to one of
  /// ``allowedTopLevelClasses`` (for example the `Module.Class` name that Foundation's own
  /// `NSKeyedArchiver` writes). Empty by default. Archiving always uses the stable name.
  open class var archivedClassNameAliases: [String: AnyClass] { [:] }

  /// Archives larger than this are refused before parsing. A color archive bowties writes
  /// is about 400 bytes; AppKit's, with its ICC profile, about 3,700.
  open class var maximumArchiveSize: Int { 16 * 1024 }

  override open class func allowsReverseTransformation() -> Bool { true }

  override open class func transformedValueClass() -> AnyClass {
    allowedTopLevelClasses.first ?? NSObject.self
  }

  /// Unarchives `Data` into an object; nil for any other input or on any failure.
  override open func transformedValue(_ value: Any?) -> Any? {
    guard let data = value as? Data else { return nil }
    return try? unarchivedObject(from: data)
  }

  /// Archives an object of an allowed class into `Data`; nil for anything else.
  override open func reverseTransformedValue(_ value: Any?) -> Any? {
    guard let object = value as? NSObject else { return nil }
    return try? archivedData(from: object)
  }

  /// Unarchives `data`, validating the whole archive before creating any object.
  ///
  /// - Returns: an instance of exactly one of ``allowedTopLevelClasses``.
  /// - Throws: the first problem found; malformed input never traps.
  public func unarchivedObject(from data: Data) throws(ArchiveError) -> NSObject {
    guard !data.isEmpty else { throw .empty }
    let limit = Self.maximumArchiveSize
    guard data.count <= limit else { throw .tooLarge(bytes: data.count, limit: limit) }
    return try KeyedArchive.decodeRoot(from: [UInt8](data), classes: classTable)
  }

  /// Archives `object`, which must be an instance of one of ``allowedTopLevelClasses``.
  public func archivedData(from object: NSObject) throws(ArchiveError) -> Data {
    let bytes = try KeyedArchive.archive(object, classes: classTable)
    // Never write what unarchivedObject(from:) would refuse to read back.
    let limit = Self.maximumArchiveSize
    guard bytes.count <= limit else { throw .tooLarge(bytes: bytes.count, limit: limit) }
    return Data(bytes)
  }

  var classTable: ArchiveClassTable {
    ArchiveClassTable(
      allowed: Self.archivableClasses, nested: Self.nestedArchivableClasses,
      aliases: Self.archivedClassNameAliases)
  }
}
