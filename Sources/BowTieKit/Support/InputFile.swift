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

  /// What `handle` gives, up to `count` bytes; messages call it `name`.
  package static func read(_ handle: FileHandle, named name: String, upTo count: Int)
    throws(BowTieError) -> Data
  {
    do {
      return try handle.read(upToCount: count) ?? Data()
    } catch {
      throw .inputUnreadable(path: name, reason: error.reason)
    }
  }

  /// A document whose first 64 KiB `acceptsStart` accepts, read to its end; else only
  /// those bytes, which are enough to say why it is refused. Something that begins as no
  /// document at all (`yes | bowties seed -`, `seed /dev/zero`, a tarball) is then refused
  /// at once, instead of after it has been read whole, or to the end of memory.
  ///
  /// - Throws: ``BowTieError/inputUnreadable(path:reason:)`` when a read fails, or when
  ///   the document is longer than `limit` bytes.
  package static func readDocument(
    _ handle: FileHandle, named name: String, limit: Int, acceptsStart: (Data) -> Bool
  ) throws(BowTieError) -> Data {
    let startSize = 64 << 10
    let tooLarge = BowTieError.inputUnreadable(
      path: name, reason: "it is larger than \(limit >> 20) MiB")
    var data: Data
    do {
      let origin = try? handle.offset()
      let start = try handle.read(upToCount: startSize) ?? Data()
      guard start.count == startSize, acceptsStart(start) else { return start }
      // A file says how long it is: one too long is refused before it is read.
      var info = stat()
      if let origin, fstat(handle.fileDescriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
        Int64(info.st_size) - Int64(origin) > Int64(limit)
      {
        throw tooLarge
      }
      if let origin, (try? handle.seek(toOffset: origin)) != nil {
        // A file: read again from where it began, in one piece rather than two to join.
        data = try handle.read(upToCount: limit + 1) ?? Data()
      } else {
        data = start
        while data.count <= limit, let more = try handle.read(upToCount: 1 << 20), !more.isEmpty {
          data.append(more)
        }
      }
    } catch let error as BowTieError {
      throw error
    } catch {
      throw .inputUnreadable(path: name, reason: error.reason)
    }
    guard data.count <= limit else { throw tooLarge }
    return data
  }
}
