import BowTieModel
import Foundation

/// A file, a pipe or standard input that the user named, read with Foundation's throwing
/// calls: the non-throwing `readDataToEndOfFile()` traps on a read error, such as a closed
/// standard input or one redirected from a folder. Read through a handle rather than
/// `Data(contentsOf:)`, which refuses a pipe (`seed <(gunzip -c ties.plist.gz)` names
/// /dev/fd/63).
package enum InputFile {
  /// Opens the file at `path` for reading; messages call it `name`.
  package static func open(_ path: String, named name: String) throws(BowTieError) -> FileHandle {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw .inputUnreadable(path: name, reason: "permission denied or unreadable")
    }
    return handle
  }

  /// What `handle` gives, to its end or up to `count` bytes; messages call it `name`.
  package static func read(_ handle: FileHandle, named name: String, upTo count: Int? = nil)
    throws(BowTieError) -> Data
  {
    do {
      return try (count.map { try handle.read(upToCount: $0) } ?? handle.readToEnd()) ?? Data()
    } catch {
      throw .inputUnreadable(path: name, reason: error.reason)
    }
  }
}
