import Foundation
import Testing

/// What a user meets when things go wrong: damaged stores, locked stores, many processes.
@Suite("Failures")
struct FailureTests {
  @Test("fifty wear processes started at once add exactly fifty")
  func concurrentWears() throws {
    let bowties = BowtiesSandbox()
    let processes = bowties.processes(50, "wear", "I")
    // The store does not exist yet: the processes also race to create it.
    for process in processes { try process.run() }
    for process in processes { process.waitUntilExit() }
    #expect(processes.allSatisfy { $0.terminationStatus == 0 })
    #expect(try bowties.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'I'") == "50\n")
    #expect(try bowties.sqlite("SELECT count(*) FROM wearEvent") == "\(50 + 6)\n", "and 6 seeded")
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie") == "7\n")
  }

  @Test("twelve wears at once on an empty file, ten times: one fills it with the samples")
  func concurrentWearsOnEmptyFile() throws {
    // Each round a race. Under load, 2 rounds in 40 of eight such processes once failed:
    // the journal-mode change refused at once, and a schema GRDB had read before the fill.
    for _ in 0..<10 {
      let bowties = BowtiesSandbox()
      #expect(FileManager.default.createFile(atPath: bowties.store, contents: nil))
      let processes = bowties.processes(12, "wear", "I")
      let pipes = processes.map { process in
        let pipe = Pipe()
        process.standardError = pipe
        return pipe
      }
      for process in processes { try process.run() }
      let messages = try pipes.map { pipe in
        String(decoding: try pipe.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
      }
      for process in processes { process.waitUntilExit() }
      #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "\(messages)")
      #expect(
        messages.filter { !$0.isEmpty }
          == ["bowties: created the store \(bowties.store) with 7 ties\n"])
      #expect(try bowties.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'I'") == "12\n")
      #expect(
        try bowties.sqlite("SELECT count(*) FROM wearEvent") == "\(12 + 6)\n", "and 6 seeded")
      #expect(try bowties.sqlite("SELECT count(*) FROM bowTie") == "7\n")
    }
  }

  @Test("seeds of different ties started at once on a missing store: every tie is stored")
  func concurrentSeedsCreatingTheStore() throws {
    // Each round a race: the seed whose new store lost the race to be put in place seeds
    // the one that won, as it would any store.
    for _ in 0..<5 {
      let bowties = BowtiesSandbox()
      let processes = try ["A", "B", "C"].map { name in
        let plist = bowties.folder.appendingPathComponent("\(name).plist")
        let ties = (0..<5).map { index in
          [
            "name": "Race \(name)\(index)", "searchKey": "\(name)\(index)", "rating": 3,
            "timesWorn": 0, "isFavorite": false, "url": "https://example.com",
            "tintColor": ["red": 1, "green": 2, "blue": 3],
          ] as [String: Any]
        }
        try PropertyListSerialization.data(fromPropertyList: ties, format: .xml, options: 0)
          .write(to: plist)
        let process = bowties.processes(1, "seed", plist.path, "--no-photos")[0]
        process.standardOutput = Pipe()
        return process
      }
      for process in processes { try process.run() }
      let outputs = processes.map { process in
        let pipe = process.standardOutput as? Pipe
        return String(
          decoding: (try? pipe?.fileHandleForReading.readToEnd()) ?? Data(), as: UTF8.self)
      }
      for process in processes { process.waitUntilExit() }
      #expect(processes.allSatisfy { $0.terminationStatus == 0 })
      #expect(outputs == Array(repeating: "added 5, replaced 0, skipped 0\n", count: 3))
      #expect(try bowties.sqlite("SELECT count(*) FROM bowTie") == "15\n")
    }
  }

  @Test("an empty file another program holds a write lock on: bowties waits for it, then fills it")
  func emptyFileUnderAnotherWriter() throws {
    let bowties = BowtiesSandbox()
    #expect(FileManager.default.createFile(atPath: bowties.store, contents: nil))
    let lock = try bowties.writeLock()
    // Turning the file to WAL mode is refused at once while the lock is held, without
    // SQLite's busy handler: bowties waits as that handler would.
    let list = bowties.processes(1, "list")[0]
    let errors = Pipe()
    list.standardError = errors
    try list.run()
    Thread.sleep(forTimeInterval: 0.5)
    #expect(list.isRunning, "still waiting while the lock is held")
    try lock.release()
    let message = String(
      decoding: try errors.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
    list.waitUntilExit()
    #expect(list.terminationStatus == 0, "\(message)")
    #expect(message == "bowties: created the store \(bowties.store) with 7 ties\n")
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie") == "7\n")
  }

  @Test("a store held by another writer past the timeout exits 75 and changes nothing")
  func busy() throws {
    let bowties = BowtiesSandbox()
    try bowties("show", "R")
    let lock = try bowties.writeLock()
    let result = try bowties("wear", "R", environment: ["BOWTIES_BUSY_TIMEOUT": "0.3"])
    try lock.release()
    #expect(result.status == 75)
    #expect(result.stderr.contains("is busy"))
    #expect(try bowties.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'R'") == "10\n")
  }

  @Test("a truncated store: every command exits 74 with one line, the file untouched")
  func truncatedStores() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let url = URL(fileURLWithPath: bowties.store)
    let whole = try Data(contentsOf: url)
    // Inside the header, the first page alone, and half the file.
    for length in [50, 4096, whole.count / 2] {
      let cut = whole.prefix(length)
      try cut.write(to: url)
      for command in [["show", "R"], ["list"], ["wear", "R"], ["rate", "O", "1"]] {
        let result = try bowties(command)
        #expect(result.status == 74, "\(length) \(command): \(result)")
        #expect(result.stderr.contains("damaged"), "\(length) \(command): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
      }
      #expect(try Data(contentsOf: url) == cut, "\(length)")
    }
  }

  @Test("a file of random bytes, a directory, a device or pipe, a newer schema: exit 74, untouched")
  func unusableStores() throws {
    let bowties = BowtiesSandbox()
    var noise = Data(count: 4096)
    for index in noise.indices { noise[index] = UInt8(truncatingIfNeeded: index * 7919 + 13) }
    try noise.write(to: URL(fileURLWithPath: bowties.store))
    let random = try bowties("list")
    #expect(random.status == 74)
    #expect(random.stderr.contains("not a bowties store or it is damaged"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == noise)

    let folder = BowtiesSandbox()
    try FileManager.default.createDirectory(atPath: folder.store, withIntermediateDirectories: true)
    let directory = try folder("show", "R")
    #expect(directory.status == 74 && directory.stderr.contains("it is a directory"))

    // Not SQLite's "disk I/O error": what the path is, to every command, doctor too.
    let pipe = BowtiesSandbox()
    try #require(mkfifo(pipe.store, 0o600) == 0)
    for (store, kind) in [("/dev/null", "a device"), (pipe.store, "a named pipe")] {
      for command in [["list"], ["doctor"]] {
        let refused = try pipe(command, store: store)
        #expect(
          refused.status == 74
            && refused.stderr == "bowties: cannot use the store \(store): it is \(kind), "
              + "not a store file\n",
          "\(command): \(refused)")
      }
    }

    let newer = BowtiesSandbox()
    try newer("list")
    try newer.sqlite("INSERT INTO grdb_migrations VALUES ('v2: from tomorrow')")
    let refused = try newer("wear", "R")
    #expect(refused.status == 74)
    #expect(refused.stderr.contains("written by a newer bowties"))
    #expect(try newer.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'R'") == "10\n")
  }

  @Test(
    "a link to a store or a backup is followed by every command; a dangling one is named, and creates nothing"
  )
  func linkedStores() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    #expect(try bowties("backup", "backup.sqlite").status == 0)
    let fileManager = FileManager.default
    let folder = bowties.folder.path
    try fileManager.createSymbolicLink(
      atPath: "\(folder)/store-link.sqlite", withDestinationPath: bowties.store)
    try fileManager.createSymbolicLink(
      atPath: "\(folder)/latest.sqlite", withDestinationPath: "\(folder)/backup.sqlite")
    let linked = "\(folder)/store-link.sqlite"
    for command in [["list"], ["doctor"], ["wear", "R"]] {
      let result = try bowties(command, store: linked)
      #expect(result.status == 0, "\(command): \(result)")
    }
    try bowties("wear", "O")
    let restored = try bowties("restore", "latest.sqlite", "--yes")
    #expect(restored.status == 0, "\(restored)")
    #expect(try bowties("doctor").stdout.hasSuffix("healthy\n"))

    // A link to a store that is not there (a disk not mounted over its folder): nothing
    // is made where it points.
    try fileManager.createDirectory(atPath: "\(folder)/mnt", withIntermediateDirectories: false)
    let gone = "\(folder)/mnt/BowTies.sqlite"
    try fileManager.createSymbolicLink(atPath: "\(folder)/gone.sqlite", withDestinationPath: gone)
    let dangling = try bowties(["list"], store: "\(folder)/gone.sqlite")
    #expect(dangling.status == 74, "\(dangling)")
    #expect(
      dangling.stderr
        == "bowties: cannot use the store \(folder)/gone.sqlite: it is a link to \(gone), which is not there; bowties makes no new store through a link\n"
    )
    // A dry run says what the seed itself would: the same refusal.
    let plan = try bowties(["seed", "--dry-run"], store: "\(folder)/gone.sqlite")
    #expect(plan.status == 74 && plan.stderr == dangling.stderr, "\(plan)")
    #expect(try fileManager.contentsOfDirectory(atPath: "\(folder)/mnt").isEmpty)
  }

  @Test("a store reached through a link in another folder keeps its photos beside its file")
  func linkedStorePhotos() throws {
    let bowties = BowtiesSandbox()
    let fileManager = FileManager.default
    let folder = bowties.folder.path
    for name in ["real", "other", "backups", "links"] {
      try fileManager.createDirectory(
        atPath: "\(folder)/\(name)", withIntermediateDirectories: false)
    }
    let real = "\(folder)/real/s.sqlite"
    let linked = "\(folder)/other/link.sqlite"
    #expect(try bowties(["list"], store: real).status == 0)
    try fileManager.createSymbolicLink(atPath: linked, withDestinationPath: "../real/s.sqlite")
    let photo = "\(folder)/big.png"
    try BowtiesSandbox.noisePNG(seed: 7).write(to: URL(fileURLWithPath: photo))
    let edited = try bowties(["edit", "R", "--photo", photo], store: linked)
    #expect(edited.status == 0, "\(edited)")
    #expect(!fileManager.fileExists(atPath: "\(folder)/other/.link_SUPPORT"))
    // Opened by its own name, the store has the photo; through the link too.
    for store in [real, linked] {
      let doctor = try bowties(["doctor"], store: store)
      #expect(doctor.status == 0 && doctor.stdout.hasSuffix("healthy\n"), "\(store): \(doctor)")
    }
    // A backup reached through a link in another folder restores with its photo.
    #expect(try bowties(["backup", "\(folder)/backups/b.sqlite"], store: real).status == 0)
    try fileManager.createSymbolicLink(
      atPath: "\(folder)/links/latest.sqlite", withDestinationPath: "\(folder)/backups/b.sqlite")
    #expect(try bowties(["edit", "R", "--no-photo"], store: real).status == 0)
    let restored = try bowties(["restore", "\(folder)/links/latest.sqlite", "--yes"], store: real)
    #expect(restored.status == 0, "\(restored)")
    let photoOut = try bowties(["photo", "R", "--output", "\(folder)/out.png"], store: real)
    #expect(photoOut.status == 0, "\(photoOut)")
    #expect(
      fileManager.contents(atPath: "\(folder)/out.png") == fileManager.contents(atPath: photo))
  }

  @Test(
    "another program's SQLite database, or the app's Core Data store: exit 74, no table added")
  func foreignDatabases() throws {
    // A rollback-journal file is left byte for byte: not even switched to WAL.
    let other = BowtiesSandbox()
    try other.sqlite("CREATE TABLE places (url TEXT); INSERT INTO places VALUES ('x')")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: other.store))
    for command in [["list"], ["show", "R"], ["wear", "R"], ["add", "--name", "New"]] {
      let refused = try other(command, store: other.store)
      #expect(refused.status == 74, "\(command): \(refused)")
      #expect(
        refused.stderr
          == "bowties: cannot use the store \(other.store): it is not a bowties store: "
          + "a SQLite database whose tables are places\n")
      #expect(try Data(contentsOf: URL(fileURLWithPath: other.store)) == bytes, "\(command)")
    }
    // doctor names it the same way, and --repair leaves it as it is.
    for arguments in [["doctor"], ["doctor", "--repair"]] {
      let doctor = try other(arguments, store: other.store)
      #expect(doctor.status == 65, "\(doctor)")
      #expect(
        doctor.stdout.contains(
          "problem   schema  it is not a bowties store: a SQLite database whose tables are places\n"
        ), "\(doctor)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: other.store)) == bytes)
    let left = try FileManager.default.contentsOfDirectory(atPath: other.folder.path)
    #expect(left == ["BowTies.sqlite"], "\(left)")

    // The app's store is in WAL mode: its rows are still only the app's.
    let app = BowtiesSandbox()
    try CoreDataImport.copyFixtures(into: app)
    let store = app.folder.appendingPathComponent(CoreDataImport.appFolder)
      .appendingPathComponent("BowTies.sqlite").path
    let refused = try app(["show", "R"], store: store)
    #expect(refused.status == 74)
    #expect(refused.stderr.contains("it is a Core Data store, not a bowties store"))
    let doctor = try app(["doctor"], store: store)
    #expect(doctor.status == 65, "\(doctor)")
    #expect(
      doctor.stdout.contains(
        "it is a Core Data store, not a bowties store (bowties seed FILE imports its ties)"),
      "\(doctor)")
    let tables = try app.run("/usr/bin/sqlite3", [store, ".tables"])
    #expect(!tables.stdout.contains("bowTie") && tables.stdout.contains("ZBOWTIE"), "\(tables)")
    #expect(try app("seed", store).status == 0, "the file still imports")
  }

  @Test("a read-only folder, or a file where a folder should be: exit 74, nothing created")
  func unwritableLocations() throws {
    let bowties = BowtiesSandbox()
    chmod(bowties.folder.path, 0o755)
    let locked = bowties.folder.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    chmod(locked.path, 0o555)
    let store = locked.appendingPathComponent("s.sqlite").path
    // Root writes anywhere, so as root the command runs as nobody.
    let asUser = getuid() == 0 ? BowtiesSandbox.asUser(BowtiesSandbox.nobody) : []
    let command = asUser + [BowtiesSandbox.binary.path, "list", "--store", store]
    let result = try bowties.run(command[0], Array(command.dropFirst()))
    #expect(result.status == 74, "\(result)")
    #expect(result.stderr.hasPrefix("bowties: cannot write the store \(store): permission denied"))
    #expect(!FileManager.default.fileExists(atPath: store))

    let file = bowties.folder.appendingPathComponent("plain-file")
    try Data("x".utf8).write(to: file)
    let underFile = try bowties(
      "list", "--store", file.appendingPathComponent("s.sqlite").path, withStore: false)
    #expect(underFile.status == 74)
    #expect(underFile.stderr.contains("not a directory"))
  }

  @Test("a hostile color archive shows, lists and exports, marked unreadable")
  func hostileColor() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    try bowties.sqlite("UPDATE bowTie SET tintColor = randomblob(300) WHERE searchKey = 'O'")
    let show = try bowties("show", "O")
    #expect(show.status == 0)
    #expect(show.stdout.contains("Color       unreadable"))
    #expect(show.stderr.hasPrefix("bowties: warning: Orange Bow Tie: its color cannot be read"))
    let json = try bowties("list", "--json")
    #expect(json.status == 0)
    let orange = try bowties.listJSON()[1]
    #expect(orange["tintColor"] is NSNull && orange["tintColorUnreadable"] as? Bool == true)
    #expect(try bowties("wear", "O").status == 0)
    #expect(
      try bowties.sqlite("SELECT length(tintColor) FROM bowTie WHERE searchKey = 'O'") == "300\n")
  }
}

@Suite("Interrupted seeds")
struct InterruptedSeedTests {
  /// The hundred photos of the killed seeds, made once.
  static let seedPhotos = (0..<100).map { BowtiesSandbox.noisePNG(seed: UInt64($0)) }

  @Test(
    "a seed killed after its Nth photo file, or before any, leaves none of it and no orphan",
    arguments: [0, 1, 5, 20, 50, 90])
  func killedSeeds(afterPhotos photos: Int) throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let images = bowties.folder.appendingPathComponent("images")
    try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
    var entries = ""
    for index in 0..<100 {
      try Self.seedPhotos[index].write(to: images.appendingPathComponent("p\(index).png"))
      entries += """
        <dict><key>name</key><string>Photo Tie \(index)</string><key>searchKey</key>
        <string>P\(index)</string><key>rating</key><integer>3</integer>
        <key>imageName</key><string>p\(index)</string></dict>
        """
    }
    let plist = "<?xml version=\"1.0\"?><plist version=\"1.0\"><array>\(entries)</array></plist>"
    try Data(plist.utf8).write(to: bowties.folder.appendingPathComponent("photos.plist"))
    let support = bowties.folder.appendingPathComponent(".BowTies_SUPPORT")
    let external = support.appendingPathComponent("_EXTERNAL_DATA")
    let marker = support.appendingPathComponent("photo-writes-in-progress")
    try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
    // Photo files are renamed into place when whole: the kill follows the Nth, or, for 0,
    // the marker that comes first. Each photo takes milliseconds to write and sync, far
    // longer than the kill takes to land, so the seed is always stopped mid-transaction.
    let watch = try DirectoryWatch(photos == 0 ? support : external)
    let process = Process()
    process.executableURL = BowtiesSandbox.binary
    process.arguments = ["seed", "photos.plist", "--store", bowties.store]
    process.currentDirectoryURL = bowties.folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let seen = watch.waitForRenames(max(photos, 1), timeout: 60)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(seen >= max(photos, 1), "the seed finished or stalled first")
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(FileManager.default.fileExists(atPath: marker.path))
    let left = try FileManager.default.contentsOfDirectory(atPath: external.path)
    #expect(left.count >= photos, "\(left.count) photo files after \(photos)")

    // The next command sweeps what the killed one left, and the seed left nothing else.
    #expect(try bowties("list").status == 0)
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie") == "7\n")
    #expect(try bowties.sqlite("PRAGMA integrity_check") == "ok\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: external.path).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: marker.path))
  }

}

/// Counts the files renamed into a folder (how `writeAtomically` puts each file in place),
/// through inotify, so that a test can act right after the Nth.
private final class DirectoryWatch {
  private let descriptor: Int32

  init(_ folder: URL) throws {
    descriptor = inotify_init1(Int32(IN_CLOEXEC))
    guard descriptor >= 0, inotify_add_watch(descriptor, folder.path, UInt32(IN_MOVED_TO)) >= 0
    else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  }

  deinit { close(descriptor) }

  /// Waits until `count` files have been renamed into the folder, or `timeout` seconds
  /// pass; returns how many were.
  func waitForRenames(_ count: Int, timeout: TimeInterval) -> Int {
    let deadline = Date().addingTimeInterval(timeout)
    var seen = 0
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while seen < count {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { break }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { continue }
      let length = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard length > 0 else { continue }
      // Each event is an inotify_event header followed by its padded name.
      var offset = 0
      while offset < length {
        let nameLength = buffer.withUnsafeBytes {
          $0.load(fromByteOffset: offset + 12, as: UInt32.self)
        }
        seen += 1
        offset += 16 + Int(nameLength)
      }
    }
    return seen
  }
}
