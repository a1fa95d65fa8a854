import Foundation
import ImageCodecs
import TerminalImage
import Testing

/// A temporary folder with a store in it, where the `bowties` binary runs as a user would
/// run it: by default the debug build beside the test bundle; `BOWTIES_BINARY` points the
/// same tests at the build that ships. The folder goes when the sandbox is released, as
/// `TemporaryFolder`'s does, so that no test has to remember to remove it.
final class BowtiesSandbox: Sendable {
  struct Result: Equatable, Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static let binary: URL = {
    if let path = ProcessInfo.processInfo.environment["BOWTIES_BINARY"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("bowties")
  }()

  let folder: URL
  var store: String { folder.appendingPathComponent("BowTies.sqlite").path }

  /// nobody's user id: tests that run as root run programs as nobody where root's power
  /// to write anything would hide a refusal.
  static let nobody: UInt32 = 65534

  /// What runs a program as the user `uid`, its group too: `setpriv`'s command line.
  static func asUser(_ uid: UInt32) -> [String] {
    ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
  }

  init() {
    folder = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("bowties-e2e-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  /// Runs `bowties ARGS --store STORE` with a clean environment (no color, C locale).
  @discardableResult
  func callAsFunction(
    _ arguments: String..., stdin: Data? = nil, environment: [String: String] = [:],
    withStore: Bool = true, executable: URL = BowtiesSandbox.binary
  ) throws -> Result {
    try run(
      executable.path, arguments + (withStore ? ["--store", store] : []), stdin: stdin,
      environment: environment)
  }

  /// Runs `bowties ARGS --store STORE` with arguments put together as an array, on the
  /// test's store or another one: a PostgreSQL URI, a backup.
  func callAsFunction(
    _ arguments: [String], store: String? = nil, environment: [String: String] = [:]
  ) throws -> Result {
    try run(
      BowtiesSandbox.binary.path, arguments + ["--store", store ?? self.store],
      environment: environment)
  }

  /// Runs `bowties ARGS --store STORE` on a pseudo-terminal that script(1) gives it, with
  /// `stdin` typed into it: what the command writes there, stderr included, comes back as
  /// stdout, lines ending in CR LF.
  @discardableResult
  func onTerminal(
    _ arguments: String..., stdin: Data? = nil, environment: [String: String] = [:]
  ) throws -> Result {
    // One shell word each, quoted as sh reads single quotes.
    let words = ([BowtiesSandbox.binary.path] + arguments + ["--store", store]).map {
      "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
    return try run(
      "/usr/bin/script", ["-qec", words.joined(separator: " "), "/dev/null"], stdin: stdin,
      environment: environment)
  }

  /// `count` runs of `bowties ARGS --store STORE`, not started yet, their output thrown
  /// away: for tests that start many at once, each waiting up to a minute for the store.
  func processes(_ count: Int, _ arguments: String...) -> [Process] {
    (0..<count).map { _ in
      let process = Process()
      process.executableURL = BowtiesSandbox.binary
      process.arguments = arguments + ["--store", store]
      process.environment = ["BOWTIES_BUSY_TIMEOUT": "60", "HOME": folder.path]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      return process
    }
  }

  /// Runs any program in the test's folder and collects its output.
  func run(
    _ program: String, _ arguments: [String], stdin: Data? = nil,
    environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    var env = [
      "PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C", "TZ": "UTC",
      "BOWTIES_BUSY_TIMEOUT": "20",
    ]
    env.merge(environment) { $1 }
    process.environment = env
    let output = Pipe()
    let errors = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try process.run()
    if let stdin {
      input.fileHandleForWriting.write(stdin)
      try input.fileHandleForWriting.close()
    }
    // Read both pipes before waiting, so a chatty child never blocks on a full pipe.
    let errorData = ErrorCollector(errors.fileHandleForReading)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData.wait(), as: UTF8.self))
  }

  /// A copy of the `bowties` under test at `path` in the sandbox: a copy, since a program
  /// finds its neighbours from where it really is. `cp` writes it, in a process of its own:
  /// a file this test process held open for writing could be inherited by a program another
  /// test starts at that moment, and running the copy would then fail with "Text file busy".
  func placeCopy(at path: String) throws -> URL {
    let copy = folder.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
    let copied = try run("/bin/cp", [Self.binary.path, copy.path])
    guard copied.status == 0 else { throw CopyFailure(result: copied) }
    return copy
  }

  struct CopyFailure: Error {
    var result: Result
  }

  /// Runs sqlite3 on the test's store; an SQL error fails the test's step, so that a set-up
  /// that did not happen cannot pass for one that did.
  @discardableResult
  func sqlite(_ sql: String) throws -> String {
    let result = try run("/usr/bin/sqlite3", [store, sql])
    guard result.status == 0 else { throw SQLiteFailure(sql: sql, result: result) }
    return result.stdout
  }

  struct SQLiteFailure: Error {
    var sql: String
    var result: Result
  }

  /// `sqlite3` holding a write lock (`BEGIN IMMEDIATE`) on the test's store until
  /// `release()`: another program at work on the same file. Returns once the lock is held.
  func writeLock() throws -> SQLiteWriteLock { try SQLiteWriteLock(on: store) }

  /// A real PNG of noise, 260 × 260 pixels: about 270 KB, so above the 128 KiB cutoff for
  /// external storage, and different for each seed.
  static func noisePNG(seed: UInt64) -> Data {
    var state = seed &+ 0x9E37_79B9_7F4A_7C15
    let bytes = (0..<(260 * 260 * 4)).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 33) | 0x01
    }
    // The encoder fails only when out of memory.
    guard let png = try? PNG.encode(RGBAImage(width: 260, height: 260, bytes: bytes)) else {
      fatalError("cannot encode a test photo")
    }
    return png
  }

  /// A JSON seed of `count` ties, each with its own name, key and color, and a link
  /// padded by `linkPadding` characters: a store of the size a test needs.
  static func seedJSON(ties count: Int, linkPadding: Int = 0) throws -> Data {
    let entries = (0..<count).map { index -> [String: Any] in
      [
        "name": "Tie \(index)", "searchKey": "K\(index)", "rating": 3,
        "tintColor": ["red": index % 256, "green": 20, "blue": 10],
        "url": "https://example.com/ties/\(index)"
          + (linkPadding > 0 ? "/" + String(repeating: "x", count: linkPadding) : ""),
      ]
    }
    return try JSONSerialization.data(withJSONObject: entries)
  }

  /// Parses `list --json`.
  func listJSON() throws -> [[String: Any]] {
    let result = try self("list", "--json")
    let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return value as? [[String: Any]] ?? []
  }
}

/// Drains a pipe on another thread.
final class ErrorCollector: @unchecked Sendable {
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  func wait() -> Data {
    done.wait()
    return data
  }
}

/// A valid PNG of exactly `bytes` bytes (at least 82), different for each seed: a 1×1
/// image made up to size by a private ancillary chunk of random bytes, which decoders
/// skip. Photos are decoded on their way in, so a stand-in of a given size must be real.
func testPNG(bytes: Int, seed: UInt64 = 0x5EED) -> Data {
  let pixel = Data(
    base64Encoded:
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGM4IafxHwAEzgIOvZGGtQAAAABJRU5ErkJggg=="
  )!
  let filler = bytes - pixel.count - 12
  precondition(filler >= 0, "a PNG of \(bytes) bytes is too small for its chunks")
  var state = seed
  var body = Data("prVt".utf8)
  body.reserveCapacity(filler + 4)
  for _ in 0..<filler {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    body.append(UInt8(truncatingIfNeeded: state >> 33))
  }
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in body {
    crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
  }
  crc = ~crc
  var chunk = Data()
  for shift in [24, 16, 8, 0] { chunk.append(UInt8(truncatingIfNeeded: filler >> shift)) }
  chunk += body
  for shift in [24, 16, 8, 0] { chunk.append(UInt8(truncatingIfNeeded: crc >> shift)) }
  return pixel.prefix(pixel.count - 12) + chunk + pixel.suffix(12)
}

/// A valid JPEG of exactly `bytes` bytes (more than phone.jpg's), different for each seed:
/// the phone fixture made up to size by comment segments of random bytes, which decoders
/// skip, so it still shows as phone.jpg does. Photos are decoded on their way in, so a large
/// stand-in must be a real JPEG; comments keep one from being checked in.
func testJPEG(bytes: Int, seed: UInt64 = 0x5EED) throws -> Data {
  let phone = try Data(contentsOf: Fixtures.photo("phone.jpg"))
  // After the start of image and the application segments (JFIF, EXIF), before the image.
  var offset = 2
  while offset + 4 <= phone.count, phone[offset] == 0xFF, (0xE0...0xEF).contains(phone[offset + 1])
  {
    offset += 2 + Int(phone[offset + 2]) << 8 + Int(phone[offset + 3])
  }
  var filler = bytes - phone.count
  precondition(filler == 0 || filler >= 4, "a JPEG of \(bytes) bytes cannot be made from phone.jpg")
  var state = seed
  var comments = Data()
  while filler > 0 {
    // A segment is the marker, a two-byte length that counts itself, and at most 65,533
    // bytes; none is left shorter than its own four-byte head.
    var segment = min(filler, 4 + 65_533)
    if (1...3).contains(filler - segment) { segment -= 4 }
    let length = segment - 2
    comments += [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]
    for _ in 0..<(segment - 4) {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      comments.append(UInt8(truncatingIfNeeded: state >> 33))
    }
    filler -= segment
  }
  return phone.prefix(offset) + comments + phone.dropFirst(offset)
}

/// The command line's Swift sources, each as its path under `Sources/BowtiesCLI` and its
/// text: for the tests that hold what no file there may do.
func commandLineSources() throws -> [(file: String, text: String)] {
  let folder = ReadmeTests.repository.appendingPathComponent("Sources/BowtiesCLI")
  let files = try #require(FileManager.default.enumerator(atPath: folder.path))
    .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
  #expect(files.count > 20)
  return try files.map {
    ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8))
  }
}

/// The fixtures `scripts/make-photo-fixtures.py` writes.
enum Fixtures {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func photo(_ name: String) -> URL {
    folder.appendingPathComponent("Photos").appendingPathComponent(name)
  }

  static let bookProject = folder.appendingPathComponent("BookProject/BowTies")
}

/// PNG's chunk checksum (ISO 3309 CRC-32), a byte at a time.
private let crcTable: [UInt32] = (0..<256).map { index in
  var crc = UInt32(index)
  for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  return crc
}

/// A `sqlite3` process in a write transaction on a store, until `release()`.
final class SQLiteWriteLock {
  private let process = Process()
  private let input = Pipe()

  fileprivate init(on store: String) throws {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [store]
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nSELECT 'locked';\n".utf8))
    _ = output.fileHandleForReading.availableData  // waits until the lock is held
  }

  /// Rolls the transaction back and waits for `sqlite3` to exit.
  func release() throws {
    input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  /// A test that threw before `release()` leaves no `sqlite3` holding the lock.
  deinit {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
  }
}
