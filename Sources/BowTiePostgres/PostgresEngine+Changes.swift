import BowTieKit
import Foundation
import PostgresNIO

#if canImport(Glibc)
  import Glibc
#endif

extension PostgresEngine: ChangeWatchingEngine {
  /// Listens for the notification that every change of a tie sends (the trigger of
  /// migration p3, ``PostgresSchema/changeChannel``), whichever client made it.
  public func watchChanges() throws(BowTieError) -> any StoreChangeWatch {
    try PostgresChangeWatch(session: session)
  }
}

/// The server's word that the store changed, `LISTEN`ed for on the store's own connection:
/// nothing is sent while nothing changes, and a change shows as soon as it is committed.
/// Each notification writes a byte down a pipe, which the caller waits on beside its
/// other input; so does the connection's closing, so that a server gone away is noticed
/// at once.
final class PostgresChangeWatch: StoreChangeWatch, @unchecked Sendable {
  private let session: PostgresSession
  private let pipe: (read: Int32, write: Int32)
  private let listening: PostgresListenContext

  var descriptor: Int32? { pipe.read }
  /// The pipe wakes the caller; a look now and then only checks the connection.
  var interval: Int32 { 1_000 }

  init(session: PostgresSession) throws(BowTieError) {
    self.session = session
    var fds: [Int32] = [-1, -1]
    guard Glibc.pipe(&fds) == 0 else {
      throw .storeUnreadable(
        path: session.settings.displayName,
        reason: "cannot watch for changes: \(String(cString: strerror(errno)))")
    }
    for fd in fds {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    let pipe = (read: fds[0], write: fds[1])
    self.pipe = pipe
    let wake: @Sendable () -> Void = {
      var byte: UInt8 = 1
      _ = Glibc.write(pipe.write, &byte, 1)
    }
    listening = session.connection.addListener(channel: PostgresSchema.changeChannel) { _, _ in
      wake()
    }
    session.connection.closeFuture.whenComplete { _ in wake() }
    // Statements run in order: once this one is answered, LISTEN is in force, and no
    // change committed after the caller's next read can go unnoticed.
    try session.run("SELECT 1")
  }

  deinit {
    listening.stop()
    close(pipe.read)
    close(pipe.write)
  }

  func changed() throws(BowTieError) -> Bool {
    var drained = false
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(pipe.read, &buffer, buffer.count) > 0 { drained = true }
    if session.connection.isClosed {
      throw .storeUnreadable(
        path: session.settings.displayName, reason: "the connection to the server was lost")
    }
    return drained
  }
}
