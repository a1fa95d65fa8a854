import BowTieKit
import BowTieModel
import Foundation
import TextOutput

#if canImport(Glibc)
  import Glibc
#endif

/// Standard output, the one way a command prints its data: every `write(2)` checked, so
/// that output that cannot be written (a full disk behind a redirection) is an error,
/// exit 73, and a reader that went away (`| head -1`) ends the command quietly.
///
/// Written in 64 KiB pieces, or a write at a time on a terminal, where a person reads the
/// lines as they come, between the warnings on stderr.
enum StandardOutput {
  /// Runs `body` with standard output as a stream, then writes out the rest.
  ///
  /// - Throws: what `body` throws, or what ``DescriptorOutputStream/checkStandardOutput()``
  ///   throws when a write failed.
  static func write(_ body: (inout DescriptorOutputStream) throws -> Void) throws {
    var output = DescriptorOutputStream(descriptor: STDOUT_FILENO)
    output.writesThrough = isatty(STDOUT_FILENO) == 1
    try output.writing(body)
    try output.checkStandardOutput()
  }

  /// A JSON array written as `elements` hands over its elements, each one out and checked
  /// before the next is read, so that memory does not grow with the array and a failed
  /// write ends it at once.
  static func writeJSONArray<Element: JSONObject>(
    _ elements: (_ element: (Element) throws -> Void) throws -> Void
  ) throws {
    try write { output in
      var array = JSONArrayWriter()
      try elements { element in
        try array.append(element)
        array.flush(to: &output)
        try output.checkStandardOutput()
      }
      array.finish()
      array.flush(to: &output)
      output.write("\n")
    }
  }

  /// Lines of text for people, their control characters made visible
  /// (``DescriptorOutputStream/printLine(_:)``).
  static func printLines(_ lines: String...) throws {
    try write { output in
      for line in lines { output.printLine(line) }
    }
  }

  /// Opens /dev/null on each of descriptors 0, 1 and 2 that the process was started
  /// without (`bowties list >&-`), the wrong way round: standard input for writing, the
  /// others for reading, as SQLite does for its own files. Else the next descriptor opened
  /// takes the number (NIO's event descriptors, a PostgreSQL connection, a photo being
  /// written), and a line meant for standard output or stderr goes there. A write to it
  /// now fails as on a closed descriptor (`EBADF`), and is reported as such.
  static func reserveStandardDescriptors() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO]
    where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_WRONLY : O_RDONLY)
      if opened > descriptor {
        dup2(opened, descriptor)
        close(opened)
      }
    }
  }

  /// Stops standard output's failures from killing the process, so that each is reported
  /// by the write that meets it: a closed pipe's `SIGPIPE` becomes `EPIPE`, which ends the
  /// command after the store is closed (``BowTieError/outputClosed``).
  static func reportClosedPipes() {
    signal(SIGPIPE, SIG_IGN)
  }
}

extension DescriptorOutputStream {
  /// A line of text for people, its control characters made visible: for lines that hold
  /// data and no color codes of ours. Given in pieces, the line is written a piece at a
  /// time, never put together: `history` writes one for each wear of a long history.
  mutating func printLine(_ pieces: String...) {
    for piece in pieces { write(piece.withVisibleControlCharacters) }
    write("\n")
  }

  /// Throws the failure of an earlier write to standard output: after each row of a long
  /// listing, so that a full disk or a closed pipe ends it at once.
  ///
  /// - Throws: ``BowTieError/outputClosed`` when nothing reads the output any more (`EPIPE`);
  ///   ``BowTieError/outputUnwritable(path:reason:)`` for any other failure.
  func checkStandardOutput() throws(BowTieError) {
    switch failure {
    case 0: return
    case EPIPE: throw .outputClosed
    default:
      throw .outputUnwritable(
        path: "standard output", reason: String(cString: strerror(failure)).lowercased())
    }
  }
}
