import Foundation
import Testing

/// What a user meets when things go wrong: damaged stores, locked stores, many processes.
@Suite("Failures")
struct FailureTests {
  @Test("fifty wear processes started at once add exactly fifty")
  func concurrentWears() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    let processes = (0..<50).map { _ in
      let process = Process()
      process.executableURL = Bowtie.binary
      process.arguments = ["wear", "I", "--store", bowtie.store]
      process.environment = ["BOWTIES_BUSY_TIMEOUT": "60", "HOME": bowtie.folder.path]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      return process
    }
    // The store does not exist yet: the processes also race to create it.
    for process in processes { try process.run() }
    for process in processes { process.waitUntilExit() }
    #expect(processes.allSatisfy { $0.terminationStatus == 0 })
    #expect(try bowtie.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'I'") == "50\n")
    #expect(try bowtie.sqlite("SELECT count(*) FROM wearEvent") == "\(50 + 6)\n", "and 6 seeded")
    #expect(try bowtie.sqlite("SELECT count(*) FROM bowTie") == "7\n")
  }

  @Test("a store held by another writer past the timeout exits 75 and changes nothing")
  func busy() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("show", "R")
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    holder.arguments = [bowtie.store]
    let input = Pipe()
    let output = Pipe()
    holder.standardInput = input
    holder.standardOutput = output
    try holder.run()
    input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nSELECT 'locked';\n".utf8))
    _ = output.fileHandleForReading.availableData  // waits until the lock is held
    let result = try bowtie("wear", "R", environment: ["BOWTIES_BUSY_TIMEOUT": "0.3"])
    input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
    try input.fileHandleForWriting.close()
    holder.waitUntilExit()
    #expect(result.status == 75)
    #expect(result.stderr.contains("is busy"))
    #expect(try bowtie.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'R'") == "10\n")
  }

  @Test("a truncated store: every command exits 74 with one line, the file untouched")
  func truncatedStores() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("list")
    let url = URL(fileURLWithPath: bowtie.store)
    let whole = try Data(contentsOf: url)
    // Inside the header, the first page alone, and half the file.
    for length in [50, 4096, whole.count / 2] {
      let cut = whole.prefix(length)
      try cut.write(to: url)
      for command in [["show", "R"], ["list"], ["wear", "R"], ["rate", "O", "1"]] {
        let result = try bowtie.run(Bowtie.binary.path, command + ["--store", bowtie.store])
        #expect(result.status == 74, "\(length) \(command): \(result)")
        #expect(result.stderr.contains("damaged"), "\(length) \(command): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
      }
      #expect(try Data(contentsOf: url) == cut, "\(length)")
    }
  }

  @Test("a file of random bytes, a directory, a newer schema: exit 74, store untouched")
  func unusableStores() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    var noise = Data(count: 4096)
    for index in noise.indices { noise[index] = UInt8(truncatingIfNeeded: index * 7919 + 13) }
    try noise.write(to: URL(fileURLWithPath: bowtie.store))
    let random = try bowtie("list")
    #expect(random.status == 74)
    #expect(random.stderr.contains("not a bowties store or it is damaged"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowtie.store)) == noise)

    let folder = Bowtie()
    defer { folder.remove() }
    try FileManager.default.createDirectory(atPath: folder.store, withIntermediateDirectories: true)
    let directory = try folder("show", "R")
    #expect(directory.status == 74 && directory.stderr.contains("it is a directory"))

    let newer = Bowtie()
    defer { newer.remove() }
    try newer("list")
    try newer.sqlite("INSERT INTO grdb_migrations VALUES ('v2: from tomorrow')")
    let refused = try newer("wear", "R")
    #expect(refused.status == 74)
    #expect(refused.stderr.contains("written by a newer bowties"))
    #expect(try newer.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'R'") == "10\n")
  }

  @Test("a read-only folder, or a file where a folder should be: exit 74, nothing created")
  func unwritableLocations() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    chmod(bowtie.folder.path, 0o755)
    let locked = bowtie.folder.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    chmod(locked.path, 0o555)
    let store = locked.appendingPathComponent("s.sqlite").path
    // Root writes anywhere, so as root the command runs as nobody.
    let asUser =
      getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    let command = asUser + [Bowtie.binary.path, "list", "--store", store]
    let result = try bowtie.run(command[0], Array(command.dropFirst()))
    #expect(result.status == 74, "\(result)")
    #expect(result.stderr.hasPrefix("bowties: cannot write the store \(store): permission denied"))
    #expect(!FileManager.default.fileExists(atPath: store))

    let file = bowtie.folder.appendingPathComponent("plain-file")
    try Data("x".utf8).write(to: file)
    let underFile = try bowtie(
      "list", "--store", file.appendingPathComponent("s.sqlite").path, withStore: false)
    #expect(underFile.status == 74)
    #expect(underFile.stderr.contains("not a directory"))
  }

  @Test("a hostile color archive shows, lists and exports, marked unreadable")
  func hostileColor() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("list")
    try bowtie.sqlite("UPDATE bowTie SET tintColor = randomblob(300) WHERE searchKey = 'O'")
    let show = try bowtie("show", "O")
    #expect(show.status == 0)
    #expect(show.stdout.contains("Color       unreadable"))
    #expect(show.stderr.hasPrefix("bowties: warning: Orange Bow Tie: its color cannot be read"))
    let json = try bowtie("list", "--json")
    #expect(json.status == 0)
    let orange = try bowtie.listJSON()[1]
    #expect(orange["tintColor"] is NSNull && orange["tintColorUnreadable"] as? Bool == true)
    #expect(try bowtie("wear", "O").status == 0)
    #expect(
      try bowtie.sqlite("SELECT length(tintColor) FROM bowTie WHERE searchKey = 'O'") == "300\n")
  }
}

@Suite("Interrupted seeds")
struct InterruptedSeedTests {
  @Test("a seed killed at any moment leaves all or none of it, and no orphan photo file")
  func killedSeeds() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("list")
    let images = bowtie.folder.appendingPathComponent("images")
    try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
    var entries = ""
    for index in 0..<100 {
      var photo = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
      photo.append(photoNoise(count: 200_000, seed: UInt64(index)))
      try photo.write(to: images.appendingPathComponent("p\(index).png"))
      entries += """
        <dict><key>name</key><string>Photo Tie \(index)</string><key>searchKey</key>
        <string>P\(index)</string><key>rating</key><integer>3</integer>
        <key>imageName</key><string>p\(index)</string></dict>
        """
    }
    let plist = "<?xml version=\"1.0\"?><plist version=\"1.0\"><array>\(entries)</array></plist>"
    try Data(plist.utf8).write(to: bowtie.folder.appendingPathComponent("photos.plist"))
    let support = bowtie.folder.appendingPathComponent(".BowTies_SUPPORT")
    let external = support.appendingPathComponent("_EXTERNAL_DATA")
    let marker = support.appendingPathComponent("photo-writes-in-progress")
    var interruptedMidWrite = 0
    for delay in [0.005, 0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.13, 0.17, 0.22, 0.3, 0.4] {
      try bowtie.sqlite("DELETE FROM bowTie WHERE searchKey LIKE 'P%'")
      try? FileManager.default.removeItem(at: external)
      let process = Process()
      process.executableURL = Bowtie.binary
      process.arguments = ["seed", "photos.plist", "--store", bowtie.store]
      process.currentDirectoryURL = bowtie.folder
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if FileManager.default.fileExists(atPath: marker.path) { interruptedMidWrite += 1 }
      // The next command sweeps what the killed one left.
      #expect(try bowtie("list").status == 0)
      let count = try bowtie.sqlite("SELECT count(*) FROM bowTie")
      #expect(count == "7\n" || count == "107\n", "after \(delay) s: \(count)")
      #expect(try bowtie.sqlite("PRAGMA integrity_check") == "ok\n")
      let referenced = Set(
        try bowtie.sqlite("SELECT photoFile FROM bowTie WHERE photoFile IS NOT NULL")
          .split(separator: "\n").map(String.init))
      let files = Set((try? FileManager.default.contentsOfDirectory(atPath: external.path)) ?? [])
      #expect(files.subtracting(referenced).isEmpty, "orphans after \(delay) s")
      #expect(referenced.subtracting(files).isEmpty, "missing files after \(delay) s")
      #expect(!FileManager.default.fileExists(atPath: marker.path))
    }
    // Without this the test could pass without ever killing a seed mid-write.
    #expect(interruptedMidWrite > 0)
  }

  private func photoNoise(count: Int, seed: UInt64) -> Data {
    var state = seed &+ 0x9E37_79B9_7F4A_7C15
    return Data(
      (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
      })
  }
}
