import Foundation

/// A class that names itself in archives with a fixed string instead of its Swift type name.
///
/// Foundation's `NSKeyedArchiver` records `Module.Class`, so renaming the module would
/// orphan every stored object. Classes an archive codec works with adopt this protocol so
/// the name in the archive stays the same whatever the module is called; a class that
/// stands for one of Apple's (`UIColor`, `NSColorSpace`) gives that class's name.
public protocol StableArchiveName: AnyObject {
  /// The `$classname` written to archives and looked up when reading them. Never change
  /// it once data has been stored.
  static var archivedClassName: String { get }

  /// The `$classhints` written with the class: what a reader that lacks the class may use
  /// instead (UIKit names `NSColor` for `UIColor`). Empty by default, and then not written.
  static var archivedClassHints: [String] { get }
}

extension StableArchiveName {
  public static var archivedClassHints: [String] { [] }
}

/// A class the archive codec can write and instantiate: what each of the classes an
/// ``ArchiveClassTable`` lists must be.
public typealias ArchivableClass = any (NSObject & NSSecureCoding & StableArchiveName).Type

extension NSCoder {
  /// The bytes stored under `key` by `encodeBytes(_:length:forKey:)`, or nil when there
  /// are none. The one call that reads them differs between Apple's Foundation and
  /// swift-corelibs-foundation.
  public func decodedBytes(forKey key: String) -> [UInt8]? {
    #if canImport(Darwin)
      var length = 0
      guard let bytes = decodeBytes(forKey: key, returnedLength: &length) else { return nil }
      return Array(UnsafeBufferPointer(start: bytes, count: length))
    #else
      return withDecodedUnsafeBytes(forKey: key) { $0.map { Array($0) } }
    #endif
  }
}
