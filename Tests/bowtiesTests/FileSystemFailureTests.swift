import Foundation
import Testing

/// A store the file system will not let bowties write: a read-only file, a read-only
/// file system, a full disk. Reads go on working where they can; writes fail with a
/// clear message and exit 74; the store is left as it was.
///
/// The file-system cases mount a small tmpfs over the test's folder, which needs root
/// (CI runs as root); elsewhere they are skipped.
@Suite("File-system failures", .serialized)
struct FileSystemFailureTests {
  @Test("a read-only store file: show and list work, writes exit 74, the file is unchanged")
  func readOnlyStoreFile() throws {
    let bowties = BowtiesSandbox()
    try bowties("show", "R")
    let before = try Data(contentsOf: URL(fileURLWithPath: bowties.store))
    // Root writes any file whatever its mode, so as root the commands run as nobody.
    let asUser =
      getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    if getuid() == 0 {
      try #require(
        try bowties.run("/usr/bin/chown", ["-R", "65534:65534", bowties.folder.path]).status == 0)
    }
    #expect(chmod(bowties.store, 0o444) == 0)
    func run(_ arguments: [String]) throws -> BowtiesSandbox.Result {
      let command = asUser + [BowtiesSandbox.binary.path] + arguments + ["--store", bowties.store]
      return try bowties.run(command[0], Array(command.dropFirst()))
    }

    let show = try run(["show", "R", "--image", "never"])
    #expect(show.status == 0 && show.stdout.contains("Red Bow Tie"), "\(show)")
    #expect(try run(["list", "--json"]).status == 0)
    for write in [
      ["wear", "R"], ["rate", "R", "2"], ["favorite", "O"], ["remove", "R", "--yes"],
    ] {
      let result = try run(write)
      #expect(result.status == 74, "\(write): \(result)")
      #expect(result.stderr.contains("cannot write the store"), "\(write): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == before)
  }

  @Test(
    "another user's store in a folder this user cannot write: 74, one line saying why",
    .enabled(if: geteuid() == 0))
  func storeInAFolderNotWritable() throws {
    let bowties = BowtiesSandbox()
    try bowties("show", "R")
    let before = try Data(contentsOf: URL(fileURLWithPath: bowties.store))
    // The store and its folder root's, readable by all; the commands run as nobody.
    #expect(chmod(bowties.store, 0o644) == 0 && chmod(bowties.folder.path, 0o755) == 0)
    let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]
    for command in [["show", "R"], ["list", "--json"], ["doctor"], ["wear", "R"]] {
      let result = try bowties.run(
        "/usr/bin/setpriv",
        asNobody + [BowtiesSandbox.binary.path] + command + ["--store", bowties.store])
      #expect(result.status == 74, "\(command): \(result)")
      #expect(result.stdout.isEmpty, "\(command): \(result.stdout)")
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.count == 1, "\(command): \(result.stderr)")
      #expect(
        result.stderr.contains("(BowTies.sqlite-shm), and this user may not create one"),
        "\(command): \(result.stderr)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == before)
    #expect(!FileManager.default.fileExists(atPath: bowties.store + "-shm"))
  }

  @Test(
    "a read-only file system: show, list and doctor work, writes exit 74",
    .enabled(if: ScratchMount.available))
  func readOnlyFileSystem() throws {
    try withMountedStore { bowties, mount, before in
      try mount.makeReadOnly()

      let show = try bowties("show", "R", "--image", "never")
      #expect(show.status == 0 && show.stdout.contains("Red Bow Tie"), "\(show)")
      #expect(try bowties("list", "--json").status == 0)
      let doctor = try bowties("doctor")
      #expect(doctor.status == 0 && doctor.stdout.contains("healthy"), "\(doctor)")
      let wear = try bowties("wear", "R")
      #expect(wear.status == 74 && wear.stderr.contains("cannot write the store"), "\(wear)")
      let seed = try bowties("seed", "--replace")
      #expect(seed.status == 74, "\(seed)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == before)
    }
  }

  @Test(
    "a full disk: a large seed exits 74 and leaves the store and folder as they were",
    .enabled(if: ScratchMount.available))
  func fullDisk() throws {
    try withMountedStore { bowties, _, before in
      let entries = (0..<20_000).map { index -> [String: Any] in
        [
          "name": "Tie \(index)", "searchKey": "K\(index)", "rating": 3,
          "tintColor": ["red": index % 256, "green": 20, "blue": 10],
          "url": "https://example.com/ties/\(index)",
        ]
      }
      // The seed file lives outside the small file system.
      let file = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("bowties-full-disk-\(UUID().uuidString).json")
      try JSONSerialization.data(withJSONObject: entries).write(to: file)
      defer { try? FileManager.default.removeItem(at: file) }
      let listing = try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path)
        .sorted()

      let seed = try bowties("seed", file.path)
      #expect(seed.status == 74, "\(seed)")
      #expect(seed.stderr.contains("disk is full"), "\(seed.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == before)
      #expect(try bowties.sqlite("PRAGMA integrity_check") == "ok\n")

      // A new store on the full disk: its half-built file is removed too.
      let other = bowties.folder.appendingPathComponent("Other.sqlite").path
      let create = try bowties("seed", file.path, "--store", other, withStore: false)
      #expect(create.status == 74, "\(create)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path).sorted() == listing
      )

      // The store still takes a write once there is room for it.
      let wear = try bowties("wear", "R")
      #expect(wear.status == 0, "\(wear)")
    }
  }

  /// Runs `body` on a store of the sample ties on a 2 MB tmpfs mounted over the test's
  /// folder, with the store's bytes as they were before `body` ran.
  private func withMountedStore(_ body: (BowtiesSandbox, ScratchMount, Data) throws -> Void) throws
  {
    let bowties = BowtiesSandbox()
    let mount = try ScratchMount(over: bowties.folder, size: "2m")
    defer { mount.unmount() }
    try bowties("show", "R")
    try body(bowties, mount, try Data(contentsOf: URL(fileURLWithPath: bowties.store)))
  }
}

/// A small tmpfs mounted over a folder, for file-system failures no user account can
/// cause: a full disk, a read-only mount.
struct ScratchMount {
  let folder: URL

  /// Whether this process may mount file systems (root, here and on CI).
  static let available: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/mount") else {
      return false
    }
    let probe = BowtiesSandbox()
    guard let mount = try? ScratchMount(over: probe.folder, size: "64k") else { return false }
    mount.unmount()
    return true
  }()

  init(over folder: URL, size: String) throws {
    self.folder = folder
    try Self.run(
      "/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", folder.path])
  }

  func makeReadOnly() throws {
    try Self.run("/usr/bin/mount", ["-o", "remount,ro", folder.path])
  }

  func unmount() {
    try? Self.run("/usr/bin/umount", [folder.path])
  }

  private static func run(_ program: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: program])
    }
  }
}
