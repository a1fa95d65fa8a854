import Foundation
import Testing
import TextOutput

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Descriptor output stream")
struct DescriptorOutputStreamTests {
  @Test("a write that fails is kept, and what follows is dropped, not written")
  func fullDisk() throws {
    let descriptor = open("/dev/full", O_WRONLY | O_CLOEXEC)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var stream = DescriptorOutputStream(descriptor: descriptor)
    stream.write("a line\n")
    #expect(stream.failure == 0)
    stream.flush()
    #expect(stream.failure == ENOSPC)
    stream.write(String(repeating: "x", count: 1 << 17))
    #expect(stream.failure == ENOSPC)
  }

  @Test("every byte reaches the file, in pieces or written through")
  func everyByte() throws {
    let path = NSTemporaryDirectory() + "stream-\(UUID().uuidString)"
    defer { unlink(path) }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    try #require(descriptor >= 0)
    var stream = DescriptorOutputStream(descriptor: descriptor)
    var expected = ""
    for index in 0..<20_000 {
      let line = "line \(index) é\n"
      stream.write(line)
      expected += line
      if index == 10_000 { stream.writesThrough = true }
    }
    stream.flush()
    close(descriptor)
    #expect(stream.failure == 0)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
  }
}
