import BowTieModel
import Foundation
import TextOutput

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
        throw POSIXError.current
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

  /// The prefix of ``writeAtomically(_:to:mode:replacing:)``'s temporary files, before a UUID.
  private static let temporaryPrefix = ".tmp-"

  /// Whether `name` is one of ``writeAtomically(_:to:mode:replacing:)``'s temporary files.
  static func isTemporaryFileName(_ name: String) -> Bool {
    name.hasPrefix(temporaryPrefix)
      && UUID(text: String(name.dropFirst(temporaryPrefix.count))) != nil
  }

  /// Writes under a temporary name in the same folder, syncs, then renames into place,
  /// so a reader never sees half a file, even after a crash. Unless `replacing`, an
  /// existing `file` is left alone and `EEXIST` thrown.
  static func writeAtomically(
    _ data: Data, to file: URL, mode: mode_t = 0o600, replacing: Bool = true
  ) throws {
    try writeAtomically(to: file, mode: mode, replacing: replacing) { $0.write(bytes: data) }
  }

  /// Writes what `body` writes, under a temporary name in the same folder, then syncs and
  /// renames it into place. If `body` throws or a write fails, the temporary file goes and
  /// `file` stays as it was. Unless `replacing`, an existing `file` is left alone and
  /// `EEXIST` thrown, even when it appears while `body` writes.
  static func writeAtomically(
    to file: URL, mode: mode_t = 0o600, replacing: Bool = true,
    _ body: (inout DescriptorOutputStream) throws -> Void
  ) throws {
    let temporary = file.deletingLastPathComponent()
      .appendingPathComponent(temporaryPrefix + UUID().text)
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw POSIXError.current }
    var output = DescriptorOutputStream(descriptor: descriptor)
    do {
      try output.writing(body)
    } catch {
      close(descriptor)
      unlink(temporary.path)
      throw error
    }
    var failure = output.failure
    if failure == 0 && fsync(descriptor) != 0 { failure = errno }
    close(descriptor)
    if failure == 0 && replacing {
      if rename(temporary.path, file.path) != 0 { failure = errno }
    } else if failure == 0 {
      failure = linkNew(temporary, to: file)
    }
    if failure != 0 {
      unlink(temporary.path)
      throw POSIXError(errno: failure)
    }
  }
}

extension FileSystem {
  /// "it is a link to T, which is not there", when `url` is a link whose target is
  /// missing: the path itself is there to see (`ls` lists it), so "no such file" would
  /// puzzle. Nil for anything else.
  static func linkToNothing(at url: URL) -> String? {
    var info = stat()
    guard stat(url.path, &info) != 0, errno == ENOENT,
      let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)
    else { return nil }
    return "it is a link to \(target), which is not there"
  }

  /// Gives `temporary` the name `file` unless something has it already, then drops the
  /// temporary name: `rename` would replace the other file, `link` fails with `EEXIST`.
  /// Returns 0 or the `errno` of the failure.
  private static func linkNew(_ temporary: URL, to file: URL) -> Int32 {
    if link(temporary.path, file.path) == 0 {
      unlink(temporary.path)
      return 0
    }
    let failure = errno
    // A file system without hard links (FAT, some network shares): check, then rename.
    guard failure == EPERM || failure == EOPNOTSUPP || failure == EMLINK else { return failure }
    var info = stat()
    if lstat(file.path, &info) == 0 { return EEXIST }
    return rename(temporary.path, file.path) == 0 ? 0 : errno
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
  /// Unless `replacing`, an existing file at `url` is refused, and left as it is.
  public static func write(
    _ data: Data, to url: URL, mode: mode_t = 0o644, replacing: Bool
  ) throws(BowTieError) {
    try write(to: url, mode: mode, replacing: replacing) { output throws(BowTieError) in
      output.write(bytes: data)
    }
  }

  /// Writes what `body` writes, a piece at a time, under a temporary name beside `url`,
  /// then renames it into place. A ``BowTieError`` from `body` is passed on as it is.
  /// Unless `replacing`, an existing file at `url` is refused before `body` runs, and
  /// one that appears while it runs is left as it is. A link is followed: the file it
  /// leads to is the one replaced, never the link. A terminal, a pipe or a character
  /// device (`/dev/stdout`, `/dev/null`) is written through, as a shell's `>` writes it,
  /// with no `--force`: a rename would put a file in its place.
  public static func write(
    to url: URL, mode: mode_t = 0o644, replacing: Bool,
    _ body: (inout DescriptorOutputStream) throws(BowTieError) -> Void
  ) throws(BowTieError) {
    var file = url
    switch try target(of: url) {
    case .nothing: break
    case .file(let resolved):
      if !replacing { throw existing(url) }
      file = resolved
    case .stream:
      return try writeThrough(to: url, body)
    }
    do {
      try FileSystem.writeAtomically(to: file, mode: mode, replacing: replacing) { output in
        try body(&output)
      }
    } catch let error as BowTieError {
      throw error
    } catch let error as POSIXError where error.code == .EEXIST {
      throw existing(url)
    } catch {
      throw .outputUnwritable(path: url.path, reason: error.reason)
    }
  }

  /// What an output path names, its links followed.
  private enum Target: Equatable {
    /// Nothing: a new file is made there.
    case nothing
    /// A file, at the path its links lead to: replaced whole, with `--force`.
    case file(URL)
    /// A terminal, a pipe or a character device: written through.
    case stream
  }

  /// What is at `url`, refusing what no output goes to (a folder, a block device, a
  /// socket) and a link to nothing, which is never replaced.
  private static func target(of url: URL) throws(BowTieError) -> Target {
    var info = stat()
    guard lstat(url.path, &info) == 0 else {
      if errno == ENOENT { return .nothing }
      throw .outputUnwritable(path: url.path, reason: POSIXError.current.reason)
    }
    var resolved = url
    if info.st_mode & S_IFMT == S_IFLNK {
      guard stat(url.path, &info) == 0 else {
        throw .outputUnwritable(
          path: url.path,
          reason: FileSystem.linkToNothing(at: url) ?? POSIXError.current.reason)
      }
      // Only a file is replaced, so only a file needs its path; a pipe behind
      // `/dev/stdout` has none.
      if info.st_mode & S_IFMT == S_IFREG {
        guard let path = realpath(url.path, nil) else {
          throw .outputUnwritable(path: url.path, reason: POSIXError.current.reason)
        }
        defer { free(path) }
        resolved = URL(fileURLWithPath: String(cString: path))
      }
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .file(resolved)
    case S_IFCHR, S_IFIFO: return .stream
    case S_IFDIR: throw .outputUnwritable(path: url.path, reason: "it is a folder")
    case S_IFBLK:
      throw .outputUnwritable(path: url.path, reason: "it is a disk (a block device)")
    default: throw .outputUnwritable(path: url.path, reason: "it is not a file")
    }
  }

  /// Writes what `body` writes straight to the terminal, pipe or device at `url`.
  private static func writeThrough(
    to url: URL, _ body: (inout DescriptorOutputStream) throws(BowTieError) -> Void
  ) throws(BowTieError) {
    let descriptor = open(url.path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else {
      throw .outputUnwritable(path: url.path, reason: POSIXError.current.reason)
    }
    defer { close(descriptor) }
    var output = DescriptorOutputStream(descriptor: descriptor)
    try output.writing(body)
    if output.failure != 0 {
      throw .outputUnwritable(path: url.path, reason: POSIXError(errno: output.failure).reason)
    }
  }

  /// Throws the error for an output file that exists, when one is at `url` (a link
  /// too, even one to nothing).
  public static func refuseExisting(_ url: URL) throws(BowTieError) {
    var info = stat()
    if lstat(url.path, &info) == 0 { throw existing(url) }
  }

  /// The refusal to replace an existing output file, the same for every command.
  public static func existing(_ url: URL) -> BowTieError {
    .outputUnwritable(path: url.path, reason: "it already exists; use --force to replace it")
  }
}

extension TextOutputStream {
  /// Throws once a write to a file descriptor's stream has failed, so that a long document
  /// stops at the row where its reader or its disk gave out rather than being made to its
  /// end: `export | head` ends as soon as `head` does. The error names no file; whoever
  /// owns the stream (`AtomicFile`, the command line's standard output) reports the
  /// failed write as its own. A stream in memory never fails.
  ///
  /// - Throws: ``BowTieError/outputClosed`` when nothing reads the output any more (`EPIPE`),
  ///   else ``BowTieError/outputUnwritable(path:reason:)``.
  public func stopIfWriteFailed() throws(BowTieError) {
    guard let stream = self as? DescriptorOutputStream, stream.failure != 0 else { return }
    if stream.failure == EPIPE { throw .outputClosed }
    throw .outputUnwritable(path: "output", reason: POSIXError(errno: stream.failure).reason)
  }
}
