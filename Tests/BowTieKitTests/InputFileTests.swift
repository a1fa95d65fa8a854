import Foundation
import Testing

@testable import BowTieKit
@testable import BowTieModel

/// A seed is read whole, but only once its first bytes could begin a document: something
/// endless or foreign is refused from its start.
@Suite("Input files read as documents")
struct InputFileTests {
  /// Reads what `program` writes into a pipe, as `seed -` reads standard input. A child
  /// process writes, so that the pipe closed early kills it, not the tests.
  private func readPipe(
    _ program: String, _ arguments: [String], limit: Int, accepting: (Data) -> Bool
  ) throws -> Result<Data, BowTieError> {
    let pipe = Pipe()
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: program)
    writer.arguments = arguments
    writer.standardOutput = pipe
    try writer.run()
    try pipe.fileHandleForWriting.close()
    let result = Result { () throws(BowTieError) in
      try InputFile.readDocument(
        pipe.fileHandleForReading, named: "standard input", limit: limit, acceptsStart: accepting)
    }
    try pipe.fileHandleForReading.close()
    writer.waitUntilExit()
    return result
  }

  @Test("a start that begins no document is all that is read of a long stream")
  func refusedStart() throws {
    // 16 MiB rather than endless, so that reading it whole fails this test, not the machine.
    let result = try readPipe("/usr/bin/head", ["-c", "16777216", "/dev/zero"], limit: 1 << 30) {
      _ in false
    }
    #expect(try result.get() == Data(count: 64 << 10))
  }

  @Test("an accepted document is read to its end, from a pipe and from a file where it begins")
  func acceptedDocument() throws {
    let document = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    let folder = TemporaryFolder()
    let whole = folder.url.appendingPathComponent("whole.plist")
    try document.write(to: whole)
    let piped = try readPipe("/bin/cat", [whole.path], limit: 1 << 20) {
      $0 == document.prefix(64 << 10)
    }
    #expect(try piped.get() == document)

    let file = folder.url.appendingPathComponent("ties.plist")
    try (Data("skipped".utf8) + document).write(to: file)
    let handle = try #require(FileHandle(forReadingAtPath: file.path))
    defer { try? handle.close() }
    try handle.seek(toOffset: 7)
    let read = try InputFile.readDocument(
      handle, named: "ties.plist", limit: 1 << 20, acceptsStart: { _ in true })
    #expect(read == document)
    // Shorter than the start: read whole, whatever its first bytes.
    let short = try readPipe("/usr/bin/printf", ["<plist/>"], limit: 1 << 20) { _ in false }
    #expect(try short.get() == Data("<plist/>".utf8))
  }

  @Test("a document longer than the limit is refused, from a pipe and from a file")
  func longerThanTheLimit() throws {
    let piped = try readPipe("/usr/bin/yes", ["<"], limit: 1 << 20) { _ in true }
    #expect(
      throws: BowTieError.inputUnreadable(path: "standard input", reason: "it is larger than 1 MiB")
    ) {
      try piped.get()
    }
    let folder = TemporaryFolder()
    let file = folder.url.appendingPathComponent("ties.plist")
    try Data(count: (1 << 20) + 1).write(to: file)
    let handle = try #require(FileHandle(forReadingAtPath: file.path))
    defer { try? handle.close() }
    #expect(
      throws: BowTieError.inputUnreadable(path: "ties.plist", reason: "it is larger than 1 MiB")
    ) {
      try InputFile.readDocument(handle, named: "ties.plist", limit: 1 << 20) { _ in true }
    }
  }
}

@Test("a Foundation file error reads as its errno's reason, not as the whole NSError")
func foundationErrorReason() {
  #expect {
    _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent-bowties/photo"))
  } throws: { error in
    error.reason == "no such file or directory"
  }
}
