import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The few file-system operations the store needs, with the modes and atomicity it promises.
enum FileSystem {
  /// Creates `directory` and any missing parents with mode 0700: a tie inventory is private.
  static func createDirectories(_ directory: URL) throws {
    var missing: [URL] = []
    var current = directory.standardizedFileURL
    while !FileManager.default.fileExists(atPath: current.path) {
      missing.append(current)
      let parent = current.deletingLastPathComponent()
      if parent.path == current.path { break }
      current = parent
    }
    for folder in missing.reversed() {
      if mkdir(folder.path, 0o700) != 0 && errno != EEXIST {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
      }
    }
  }

  /// Flushes a file, or a folder's entries, to the disk.
  static func synchronize(_ url: URL) throws {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw POSIXError.current }
    defer { close(descriptor) }
    if fsync(descriptor) != 0 { throw POSIXError.current }
  }

  /// The prefix of ``writeAtomically(_:to:mode:)``'s temporary files, before a UUID.
  private static let temporaryPrefix = ".tmp-"

  /// Whether `name` is one of ``writeAtomically(_:to:mode:)``'s temporary files.
  static func isTemporaryFileName(_ name: String) -> Bool {
    name.hasPrefix(temporaryPrefix)
      && UUID(text: String(name.dropFirst(temporaryPrefix.count))) != nil
  }

  /// Writes under a temporary name in the same folder, syncs, then renames into place,
  /// so a reader never sees half a file, even after a crash.
  static func writeAtomically(_ data: Data, to file: URL, mode: mode_t = 0o600) throws {
    let temporary = file.deletingLastPathComponent()
      .appendingPathComponent(temporaryPrefix + UUID().text)
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    var failure: Int32 = 0
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
    }
    if failure == 0 && fsync(descriptor) != 0 { failure = errno }
    close(descriptor)
    if failure == 0 && rename(temporary.path, file.path) != 0 { failure = errno }
    if failure != 0 {
      unlink(temporary.path)
      throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
    }
  }
}

extension Error {
  /// A short lowercase reason for messages: "permission denied", "no space left on device".
  var reason: String {
    if let posix = self as? POSIXError {
      return String(cString: strerror(posix.code.rawValue)).lowercased()
    }
    return (self as? LocalizedError)?.errorDescription ?? "\(self)"
  }
}

/// Writes files whole or not at all: a cron job never mails half a report.
public enum AtomicFile {
  /// Creates a folder and its missing parents (mode 0700, like the store's).
  public static func createFolder(_ url: URL) throws(BowTieError) {
    do {
      try FileSystem.createDirectories(url)
    } catch {
      throw .outputUnwritable(path: url.path, reason: error.reason)
    }
  }

  /// Writes `data` under a temporary name beside `url`, then renames it into place.
  public static func write(_ data: Data, to url: URL, mode: mode_t = 0o644) throws(BowTieError) {
    do {
      try FileSystem.writeAtomically(data, to: url, mode: mode)
    } catch {
      throw .outputUnwritable(path: url.path, reason: error.reason)
    }
  }
}
