import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where bytes go: a file descriptor's stream, or a buffer in memory.
public protocol ByteOutput {
  mutating func write(bytes: UnsafeRawBufferPointer)
}

extension [UInt8]: ByteOutput {
  public mutating func write(bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}

extension Data: ByteOutput {
  public mutating func write(bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}

/// Text written to a file descriptor in pieces of 64 KiB, so a long document is never
/// held whole. A failed write is kept in ``failure`` and drops what follows, so that the
/// writer can check it when it suits it (after each row, and at the end), as
/// `TextOutputStream` cannot throw. Nothing here traps or hides a failure: every `write(2)`
/// is checked.
public struct DescriptorOutputStream: TextOutputStream, ByteOutput {
  public let descriptor: Int32
  /// The `errno` of the first failed write, or 0.
  public private(set) var failure: Int32 = 0
  /// Whether each write goes out at once rather than a piece at a time: for a terminal,
  /// where a person reads the lines as they come, between the warnings on stderr.
  public var writesThrough = false
  private var buffer: [UInt8] = []

  public init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(Self.pieceSize)
  }

  private static let pieceSize = 1 << 16

  public mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
  }

  public mutating func write(bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
    if writesThrough || buffer.count >= Self.pieceSize { flush() }
  }

  public mutating func write(bytes: UnsafeRawBufferPointer) {
    buffer.append(contentsOf: bytes)
    if writesThrough || buffer.count >= Self.pieceSize { flush() }
  }

  /// Writes out what is buffered.
  public mutating func flush() {
    defer { buffer.removeAll(keepingCapacity: true) }
    guard failure == 0 else { return }
    failure = buffer.withUnsafeBytes { Self.writeAll($0, to: descriptor) }
  }

  /// Runs `body` on this stream, then writes out what it left buffered. Once a write has
  /// failed, what `body` throws is dropped: a writer that stopped at the failed write
  /// (`stopIfWriteFailed()` in BowTieKit) is reported by that write, in ``failure``.
  public mutating func writing<Failure: Error>(_ body: (inout Self) throws(Failure) -> Void)
    throws(Failure)
  {
    do {
      try body(&self)
      flush()
    } catch  where failure == 0 {
      throw error
    } catch {}
  }

  /// Writes all of `bytes` to `descriptor`, however many `write(2)`s it takes; returns 0,
  /// or the `errno` of the write that failed.
  @discardableResult
  public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return 0
  }
}
