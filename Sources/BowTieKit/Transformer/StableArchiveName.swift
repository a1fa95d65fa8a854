import Foundation

/// A class that names itself in archives with a fixed string instead of its Swift type name.
///
/// Foundation's `NSKeyedArchiver` records `Module.Class`, so renaming the module would
/// orphan every stored object. Classes listed in
/// ``NSSecureUnarchiveFromDataTransformer/allowedTopLevelClasses`` adopt this protocol so
/// the name in the archive stays the same whatever the module is called.
public protocol StableArchiveName: AnyObject {
  /// The `$classname` written to archives and looked up when reading them. Never change
  /// it once data has been stored.
  static var archivedClassName: String { get }
}

/// A class the archive codec can write and instantiate: what each of
/// ``NSSecureUnarchiveFromDataTransformer/allowedTopLevelClasses`` must be.
public typealias ArchivableClass = any (NSObject & NSSecureCoding & StableArchiveName).Type
