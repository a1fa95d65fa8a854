import BowTieKit
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Standard output for documents too long to hold whole: written in pieces as they come.
enum StandardOutput {
  /// Runs `body` with standard output as a text stream, then writes out the rest.
  ///
  /// - Throws: what `body` throws, or ``BowTieError/outputUnwritable(path:reason:)`` when
  ///   standard output cannot be written (a full disk behind a redirection).
  static func write(_ body: (inout DescriptorOutputStream) throws(BowTieError) -> Void)
    throws(BowTieError)
  {
    var output = DescriptorOutputStream(descriptor: STDOUT_FILENO)
    try body(&output)
    output.flush()
    if output.failure != 0 {
      throw .outputUnwritable(
        path: "standard output",
        reason: String(cString: strerror(output.failure)).lowercased())
    }
  }
}

/// A JSON array written to standard output as its elements come, a thousand at a time:
/// the bytes `JSONEncoder` writes for the whole array, without holding it.
struct JSONArrayOutput<Element: Encodable> {
  private let encoder = TieJSON.makeEncoder()
  private var batch: [Element] = []
  private var opened = false

  init() { batch.reserveCapacity(1_000) }

  mutating func append(_ element: Element) throws {
    batch.append(element)
    if batch.count == 1_000 { try writeBatch() }
  }

  /// Writes the last elements and closes the array.
  mutating func finish() throws {
    try writeBatch()
    // Without an element the bracket is still to open: "[\n\n]", as JSONEncoder prints [].
    FileHandle.standardOutput.write(Data(((opened ? "" : "[\n") + "\n]\n").utf8))
  }

  private mutating func writeBatch() throws {
    guard !batch.isEmpty else { return }
    // "[\n  {…},\n  {…}\n]": the elements, already indented as the whole array's are.
    let array = try encoder.encode(batch)
    FileHandle.standardOutput.write(
      Data((opened ? ",\n" : "[\n").utf8) + array.dropFirst(2).dropLast(2))
    opened = true
    batch.removeAll(keepingCapacity: true)
  }
}
