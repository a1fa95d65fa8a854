import BowTieModel
import Foundation

#if canImport(Darwin)
  import Darwin
#else
  import Glibc
#endif

/// Version 4 UUIDs drawn from a buffer of system randomness that is refilled 4 KiB at a
/// time.
///
/// On Linux, `UUID()` opens, reads and closes `/dev/urandom` for every value: three
/// system calls per tie, most of a large seed's system time.
/// `arc4random_buf` (glibc 2.36 and Darwin) takes the same kernel randomness with one
/// `getrandom` per refill.
struct RandomUUIDs {
  private static let refill = 4096
  private var buffer = [UInt8](repeating: 0, count: RandomUUIDs.refill)
  private var position = RandomUUIDs.refill

  init() {}

  mutating func next() -> UUID {
    if position == buffer.count {
      buffer.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
      position = 0
    }
    var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &value) { out in
      buffer.withUnsafeBytes { source in
        out.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<position + 16]))
      }
    }
    position += 16
    // RFC 9562, section 5.4: version 4 in the high nibble of octet 6, variant 10 in the
    // top bits of octet 8.
    value.6 = (value.6 & 0x0F) | 0x40
    value.8 = (value.8 & 0x3F) | 0x80
    return UUID(uuid: value)
  }
}
