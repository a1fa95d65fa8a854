import Foundation

/// The strict `NSKeyedArchiver`-format codec: archives read and written without
/// Foundation's `NSKeyedUnarchiver` and `NSKeyedArchiver`.
///
/// On Linux, Foundation's unarchiver traps on malformed input and on class names it does
/// not know, lets `NSString` and `NSNumber` through whatever the caller allowed, and its
/// archiver writes nothing in a `-static-stdlib` binary. Here the whole archive is checked
/// before any object is made, every problem is a typed ``ArchiveError``, and classes are
/// named in archives by ``StableArchiveName/archivedClassName``. Foundation's unarchiver
/// reads what this writes, and this reads what Foundation writes.
public enum KeyedArchive {
  /// Decodes the root object of a binary keyed archive.
  ///
  /// - Returns: an instance of one of the table's top-level classes, never anything else.
  /// - Throws: the first problem found; malformed input never traps.
  public static func decodeRoot(
    from bytes: [UInt8], classes: ArchiveClassTable
  ) throws(ArchiveError) -> NSObject {
    try KeyedArchiveDecoder.decodeRoot(from: bytes, classes: classes)
  }

  /// Archives `root`, which must be an instance of one of the table's classes (and hold
  /// only instances of them, strings, numbers and bytes), as a binary property list.
  public static func archive(
    _ root: NSObject, classes: ArchiveClassTable
  ) throws(ArchiveError) -> [UInt8] {
    BinaryPropertyList.write(try KeyedArchiveEncoder.archive(root, classes: classes))
  }

  /// The property list ``archive(_:classes:)`` writes as bytes: what a
  /// ``BinaryPropertyListTemplate`` is made from.
  public static func archivedValue(
    _ root: NSObject, classes: ArchiveClassTable
  ) throws(ArchiveError) -> PropertyListValue {
    try KeyedArchiveEncoder.archive(root, classes: classes)
  }
}
