import BowTieModel
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An advisory `flock(2)` lock on a file, released by ``unlock()`` or when the process dies.
struct FileLock {
  private let descriptor: Int32

  init(exclusiveAt file: URL) throws {
    try FileSystem.createDirectories(file.deletingLastPathComponent())
    descriptor = Glibc.open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw POSIXError.current }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        let error = POSIXError.current
        close(descriptor)
        throw error
      }
    }
  }

  func unlock() {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
