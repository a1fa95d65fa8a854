import BowTieModel
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A store file this process reads without SQLite's locks, and the file as it was when it
/// was opened.
///
/// SQLite reads a store in WAL mode through an index file beside it (`-shm`) that the
/// first reader creates, and that a read-only connection cannot remove when it closes. A
/// process that may not write the store either may not create that file (another user's
/// folder: every read refused) or leaves it behind, owned by itself, where the store's
/// owner can then no longer write (``SQLiteStoreFile/databaseLocation(for:readonly:)``).
/// So when no log is beside the store, such a process opens it as immutable: no index, no
/// locks. Every committed change is then in the file, and nothing else may change it
/// without the reader noticing: after each read the file is looked at again, and if a
/// writer has since rewritten it (a checkpoint), what was read is not trusted.
struct UnlockedRead: Sendable {
  let path: String
  private let state: StoreFileState

  /// The file at `path` as it is now; nil when it cannot be looked at.
  init?(path: String) {
    guard let state = StoreFileState(path: path) else { return nil }
    self.path = path
    self.state = state
  }

  /// Throws ``BowTieError/storeChangedWhileRead(path:)`` when the file is no longer as it
  /// was when it was opened: another process wrote it, or replaced it.
  func check() throws(BowTieError) {
    try check(StoreFileState(path: path))
  }

  /// ``check()`` with the file's state already looked at.
  func check(_ now: StoreFileState?) throws(BowTieError) {
    guard now == state else { throw .storeChangedWhileRead(path: path) }
  }

  /// ``check(_:)``, for a reader that stays open (`browse`): what it read is also out of
  /// date once a log is beside the file. A process that keeps the store open commits into
  /// the log, and the file changes only when the log is folded back, maybe not before that
  /// process ends.
  func checkStillCurrent(_ now: StoreFileState?) throws(BowTieError) {
    try check(now)
    if access(path + "-wal", F_OK) == 0 { throw .storeChangedWhileRead(path: path) }
  }

}

/// What `stat` says of a store file: which file it is (its device and inode, which a
/// replacement changes) and the fields any write to it changes.
struct StoreFileState: Equatable, Sendable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modified: [Int]
  var changed: [Int]

  /// The file at `path` as it is now; nil when it cannot be looked at.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    modified = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
    changed = [info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
  }

  /// Whether `other` is the same file, written or not.
  func isSameFile(as other: StoreFileState) -> Bool {
    device == other.device && inode == other.inode
  }
}
