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
    // A backup of another store, with a photo above the cutoff.
    let other = BowtiesSandbox()
    let photo = other.folder.appendingPathComponent("big.png")
    try BowtiesSandbox.noisePNG(seed: 3).write(to: photo)
    try other("edit", "R", "--photo", photo.path)
    let backup = bowties.folder.appendingPathComponent("other-backup.sqlite").path
    #expect(try other("backup", backup).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: bowties.store))
    let photoFolder = bowties.folder.appendingPathComponent(".BowTies_SUPPORT").path
    let photosBefore = FileManager.default.subpaths(atPath: photoFolder)
    // Root writes any file whatever its mode, so as root the commands run as nobody.
    let user = getuid() == 0 ? BowtiesSandbox.nobody : nil
    if getuid() == 0 {
      try #require(
        try bowties.run("/usr/bin/chown", ["-R", "65534:65534", bowties.folder.path]).status == 0)
    }
    #expect(chmod(bowties.store, 0o444) == 0)
    func run(_ arguments: [String]) throws -> BowtiesSandbox.Result {
      try Self.run(bowties, as: user, arguments)
    }

    let show = try run(["show", "R", "--image", "never"])
    #expect(show.status == 0 && show.stdout.contains("Red Bow Tie"), "\(show)")
    #expect(try run(["list", "--json"]).status == 0)
    for write in [
      ["wear", "R"], ["rate", "R", "2"], ["favorite", "O"], ["remove", "R", "--yes"],
      ["restore", backup, "--yes"],
    ] {
      let result = try run(write)
      #expect(result.status == 74, "\(write): \(result)")
      #expect(result.stderr.contains("cannot write the store"), "\(write): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == before)
    // The refused restore left none of the backup's photos in the store's folder.
    #expect(FileManager.default.subpaths(atPath: photoFolder) == photosBefore)
  }

  @Test(
    "another user's store in a folder this user cannot write: reads work, leaving no file; writes 74",
    .enabled(if: geteuid() == 0))
  func storeInAFolderNotWritable() throws {
    let bowties = BowtiesSandbox()
    try bowties("show", "R")
    let before = try Data(contentsOf: URL(fileURLWithPath: bowties.store))
    let listing = try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path).sorted()
    // The store and its folder root's, readable by all; the commands run as nobody.
    #expect(chmod(bowties.store, 0o644) == 0 && chmod(bowties.folder.path, 0o755) == 0)
    for (command, expected) in [
      (["show", "R"], "Red Bow Tie"), (["list", "--json"], "\"searchKey\" : \"V\""),
      (["doctor"], "healthy"), (["report"], "Bow-tie report"),
    ] {
      let result = try Self.run(bowties, as: BowtiesSandbox.nobody, command)
      #expect(result.status == 0 && result.stdout.contains(expected), "\(command): \(result)")
    }
    let wear = try Self.run(bowties, as: BowtiesSandbox.nobody, ["wear", "R"])
    #expect(wear.status == 74 && wear.stderr.contains("cannot write the store"), "\(wear)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == before)
    let after = try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path).sorted()
    #expect(after == listing)
  }

  @Test(
    "a reader who may write the folder but not the store (show, backup) leaves no -wal or -shm",
    .enabled(if: geteuid() == 0))
  func readerLeavesNothingBehind() throws {
    // nobody reads, then daemon writes.
    let bowties = try Self.daemonsStoreInAnOpenFolder()
    let show = try Self.run(bowties, as: BowtiesSandbox.nobody, ["show", "R"])
    #expect(show.status == 0 && show.stdout.contains("Red Bow Tie"), "\(show)")
    let copy = bowties.folder.appendingPathComponent("copy.sqlite").path
    let backup = try Self.run(bowties, as: BowtiesSandbox.nobody, ["backup", copy])
    #expect(backup.status == 0 && backup.stdout.contains("backed up 7 ties"), "\(backup)")
    for log in ["-wal", "-shm"] {
      #expect(!FileManager.default.fileExists(atPath: bowties.store + log), "\(log) left")
    }
    let wear = try Self.run(bowties, as: 1, ["wear", "R"])
    #expect(wear.status == 0 && wear.stdout.contains("Times worn  11"), "\(wear)")
  }

  @Test(
    "the owner of a store another user's sqlite3 read, leaving -wal and -shm: 74, one line that names them, their owner and what to do",
    .enabled(if: geteuid() == 0))
  func foreignLogNamed() throws {
    let bowties = try Self.daemonsStoreInAnOpenFolder()
    let read = try Self.run(
      bowties, as: BowtiesSandbox.nobody, program: "/usr/bin/sqlite3",
      [bowties.store, "SELECT count(*) FROM bowTie"])
    #expect(read.stdout == "7\n", "\(read)")
    try #require(FileManager.default.fileExists(atPath: bowties.store + "-shm"))
    let before = try Data(contentsOf: URL(fileURLWithPath: bowties.store))

    let wear = try Self.run(bowties, as: 1, ["wear", "R"])
    let name = URL(fileURLWithPath: bowties.store).lastPathComponent
    #expect(wear.status == 74, "\(wear)")
    #expect(
      wear.stderr
        == "bowties: cannot write the store \(bowties.store): \(name)-wal and \(name)-shm beside "
        + "it belong to nobody (uid 65534), left by a program that read the store; they hold "
        + "nothing: remove them once no program has the store open\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == before)
    // Removed, as the message says: the owner writes again.
    for log in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: bowties.store + log) }
    let again = try Self.run(bowties, as: 1, ["wear", "R"])
    #expect(again.status == 0 && again.stdout.contains("Times worn  11"), "\(again)")

    // The store shared with nobody's group: nobody commits a change and dies before
    // folding it back. SQLite gives the log the store's mode, with nobody's group, which
    // the owner is not in: the log left holds the change, and removing it would lose it.
    #expect(chown(bowties.store, 1, BowtiesSandbox.nobody) == 0 && chmod(bowties.store, 0o664) == 0)
    let write = try Self.run(
      bowties, as: BowtiesSandbox.nobody, program: "/usr/bin/python3",
      [
        "-c",
        "import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
          + "c.execute(\"UPDATE bowTie SET name = 'Crimson Bow Tie' WHERE searchKey = 'R'\"); "
          + "c.commit(); os._exit(0)",
        bowties.store,
      ])
    #expect(write.status == 0, "\(write)")
    let blocked = try Self.run(bowties, as: 1, ["wear", "R"])
    #expect(blocked.status == 74, "\(blocked)")
    #expect(
      blocked.stderr.hasSuffix(
        "belong to nobody (uid 65534), and the log holds changes: that user must open the "
          + "store once, with no other program on it, to fold them into the store\n"),
      "\(blocked)")
    // As it says: that user opens it, and the owner sees the change and writes.
    let fold = try Self.run(
      bowties, as: BowtiesSandbox.nobody, program: "/usr/bin/sqlite3",
      [bowties.store, "SELECT count(*) FROM bowTie"])
    #expect(fold.stdout == "7\n", "\(fold)")
    let folded = try Self.run(bowties, as: 1, ["wear", "R"])
    #expect(folded.status == 0 && folded.stdout.contains("Crimson Bow Tie"), "\(folded)")
  }

  @Test(
    "a store written while a user who may not write it reads it: 75, one line",
    .enabled(if: geteuid() == 0))
  func writtenWhileReadWithoutLocks() throws {
    let bowties = BowtiesSandbox()
    // Enough ties that list --json fills a pipe nobody reads, and waits there, mid-read.
    let file = bowties.folder.appendingPathComponent("ties.json")
    try BowtiesSandbox.seedJSON(ties: 800).write(to: file)
    try #require(try bowties("seed", file.path).status == 0)
    #expect(chmod(bowties.store, 0o644) == 0 && chmod(bowties.folder.path, 0o755) == 0)

    let reader = Process()
    let command = Self.commandLine(bowties, as: BowtiesSandbox.nobody, ["list", "--json"])
    reader.executableURL = URL(fileURLWithPath: command[0])
    reader.arguments = Array(command.dropFirst())
    reader.environment = ["PATH": "/usr/bin:/bin", "LANG": "C", "TZ": "UTC"]
    let output = Pipe()
    let errors = Pipe()
    reader.standardOutput = output
    reader.standardError = errors
    try reader.run()
    defer { if reader.isRunning { reader.terminate() } }
    // Waiting on the full pipe, its read begun.
    // (The kernel's name for that wait: pipe_write, anon_pipe_write in newer kernels.)
    let wchan = "/proc/\(reader.processIdentifier)/wchan"
    func waiting() -> Bool {
      (try? String(contentsOfFile: wchan, encoding: .utf8))?.hasSuffix("pipe_write") == true
    }
    let start = Date()
    while !waiting(), Date().timeIntervalSince(start) < 10 { usleep(10_000) }
    #expect(waiting(), "list --json is not waiting on its full pipe")

    let wear = try bowties("wear", "K1")
    #expect(wear.status == 0, "\(wear)")
    let errorText = ErrorCollector(errors.fileHandleForReading)
    _ = output.fileHandleForReading.readDataToEndOfFile()
    reader.waitUntilExit()
    let stderr = String(decoding: errorText.wait(), as: UTF8.self)
    #expect(reader.terminationStatus == 75, "\(stderr)")
    #expect(stderr.contains("changed while it was read; try again"), "\(stderr)")
    #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
  }

  /// The command line that runs bowties on the sandbox's store as the user `uid` (its
  /// group too), through `setpriv`; as this process's user when `uid` is nil.
  private static func commandLine(
    _ bowties: BowtiesSandbox, as uid: UInt32?, _ arguments: [String]
  ) -> [String] {
    (uid.map(BowtiesSandbox.asUser) ?? []) + [BowtiesSandbox.binary.path] + arguments + [
      "--store", bowties.store,
    ]
  }

  /// Runs `program` (another program than bowties) as the user `uid`.
  private static func run(
    _ bowties: BowtiesSandbox, as uid: UInt32, program: String, _ arguments: [String]
  ) throws -> BowtiesSandbox.Result {
    let command = BowtiesSandbox.asUser(uid) + [program] + arguments
    return try bowties.run(command[0], Array(command.dropFirst()))
  }

  /// A sample store of daemon's (uid 1), readable by all, in a folder anyone may write.
  private static func daemonsStoreInAnOpenFolder() throws -> BowtiesSandbox {
    let bowties = BowtiesSandbox()
    try bowties("show", "R")
    #expect(chown(bowties.store, 1, 1) == 0 && chmod(bowties.store, 0o644) == 0)
    #expect(chmod(bowties.folder.path, 0o777) == 0)
    return bowties
  }

  /// Runs bowties on the sandbox's store as the user `uid` (``commandLine(_:as:_:)``).
  private static func run(
    _ bowties: BowtiesSandbox, as uid: UInt32?, _ arguments: [String]
  ) throws -> BowtiesSandbox.Result {
    let command = commandLine(bowties, as: uid, arguments)
    return try bowties.run(command[0], Array(command.dropFirst()))
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
      // The seed file lives outside the small file system.
      let file = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("bowties-full-disk-\(UUID().uuidString).json")
      try BowtiesSandbox.seedJSON(ties: 20_000).write(to: file)
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

  @Test(
    "a disk with no room left for the store's log: reads and writes exit 74 and say so",
    .enabled(if: ScratchMount.available))
  func noRoomForTheLog() throws {
    try withMountedStore { bowties, _, before in
      let filler = bowties.folder.appendingPathComponent("filler")
      #expect(FileManager.default.createFile(atPath: filler.path, contents: nil))
      let handle = try FileHandle(forWritingTo: filler)
      let block = Data(count: 4096)
      while (try? handle.write(contentsOf: block)) != nil {}
      try handle.close()

      // The backup would go outside the full file system.
      let copy = NSTemporaryDirectory() + "bowties-no-room-\(UUID().uuidString).sqlite"
      for command in [["list"], ["show", "R"], ["wear", "R"], ["doctor"], ["backup", copy]] {
        let result = try bowties(command)
        #expect(result.status == 74, "\(command): \(result)")
        #expect(
          result.stderr == "bowties: cannot use the store \(bowties.store): disk I/O error "
            + "(no space left on device)\n", "\(command): \(result)")
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == before)

      try FileManager.default.removeItem(at: filler)
      let wear = try bowties("wear", "R")
      #expect(wear.status == 0, "\(wear)")
    }
  }

  @Test(
    "a backup onto a full disk exits 73, says the disk is full, and leaves nothing there",
    .enabled(if: ScratchMount.available))
  func backupOntoAFullDisk() throws {
    let bowties = BowtiesSandbox()
    try bowties("show", "R")
    let target = BowtiesSandbox()
    let mount = try ScratchMount(over: target.folder, size: "64k")
    defer { mount.unmount() }

    let copy = target.folder.appendingPathComponent("Copy.sqlite").path
    let backup = try bowties("backup", copy)
    #expect(backup.status == 73, "\(backup)")
    #expect(backup.stderr == "bowties: cannot write \(copy): database or disk is full\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: target.folder.path) == [])
  }

  @Test(
    "a restore that does not fit on the disk exits 74, says so, and leaves the store as it was",
    .enabled(if: ScratchMount.available))
  func restoreOntoAFullDisk() throws {
    // A backup larger than the 2 MB the store's file system holds.
    let large = BowtiesSandbox()
    let file = large.folder.appendingPathComponent("ties.json")
    try BowtiesSandbox.seedJSON(ties: 3_000, linkPadding: 400).write(to: file)
    #expect(try large("seed", file.path).status == 0)
    let copy = large.folder.appendingPathComponent("Backup.sqlite").path
    #expect(try large("backup", copy).status == 0)

    try withMountedStore { bowties, _, before in
      let listing = try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path)
      let restore = try bowties("restore", copy, "--yes")
      #expect(restore.status == 74, "\(restore)")
      #expect(
        restore.stderr
          == "bowties: cannot write the store \(bowties.store): database or disk is full\n")
      #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == before)
      #expect(try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path) == listing)
      #expect(try bowties.sqlite("SELECT count(*) FROM bowTie") == "7\n")
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
