import Foundation
import PostgresTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every command that prints to stdout, run with stdout on a full disk (`/dev/full`) and on
/// a pipe whose reader has gone (as `| head -1` leaves it): the first exits 73 with one line
/// on stderr, the second ends quietly, killed by SIGPIPE as `cat` is (a shell shows 141).
@Suite("Standard output that cannot be written")
struct StandardOutputTests {
  /// A command line, and what has to exist before it runs.
  struct Command: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    /// Ties the store needs (added first): `remove` removes one.
    var needsSpareTie = false
    /// A backup at `backup.sqlite` in the test's folder, for `restore`.
    var needsBackup = false

    var testDescription: String { arguments.joined(separator: " ") }
  }

  /// Each command that writes stdout, in each of its ways to write it. `{folder}` is the
  /// test's folder.
  static let commands: [Command] =
    [
      ["seed"], ["seed", "--json"], ["seed", "--dry-run"], ["seed", "--dry-run", "--json"],
      ["show", "R"], ["show", "R", "--json"], ["show", "R", "--image", "always"],
      ["list"], ["list", "--json"], ["list", "--favorites"],
      ["wear", "R"], ["wear", "R", "--json"],
      ["rate", "R", "4"], ["rate", "R", "4", "--json"],
      ["favorite", "R"], ["favorite", "R", "--json"],
      ["history"], ["history", "--json"], ["history", "R"],
      ["undo"], ["undo", "--json"],
      ["suggest"], ["suggest", "--json"],
      ["report"], ["report", "--format", "json"], ["report", "--format", "html"],
      ["report", "--format", "json", "--all"],
      ["add", "--name", "Spare Bow Tie"], ["add", "--name", "Spare Bow Tie", "--json"],
      ["edit", "R", "--name", "Red Bow Tie"], ["edit", "R", "--name", "Red Bow Tie", "--json"],
      ["photo", "R", "--output", "-"], ["photo", "R", "--output", "{folder}/photos/", "--force"],
      ["export"], ["export", "--format", "json"], ["export", "--format", "csv"],
      ["export", "--format", "plist", "--binary"],
      ["export", "--output", "{folder}/export/", "--force"],
      ["doctor"], ["doctor", "--json"],
      ["backup", "{folder}/copy.sqlite", "--force"],
      ["backup", "{folder}/copy.sqlite", "--force", "--json"],
      ["--help"], ["--version"], ["list", "--help"], ["help", "report"],
    ].map { Command(arguments: $0) } + [
      Command(arguments: ["remove", "S", "--yes"], needsSpareTie: true),
      Command(arguments: ["remove", "S", "--yes", "--json"], needsSpareTie: true),
      Command(arguments: ["restore", "{folder}/backup.sqlite", "--yes"], needsBackup: true),
      Command(
        arguments: ["restore", "{folder}/backup.sqlite", "--yes", "--json"], needsBackup: true),
    ]

  /// Where the command's stdout goes.
  enum Destination {
    /// `/dev/full`: every write fails with ENOSPC.
    case fullDisk
    /// A pipe whose reading end is closed: every write fails with EPIPE, or kills.
    case closedPipe
  }

  @Test("a full disk: exit 73 and one line on stderr", arguments: commands)
  func fullDisk(_ command: Command) throws {
    let bowties = try prepared(for: command)
    let result = try run(command, in: bowties, stdout: .fullDisk)
    #expect(result.status == 73 && result.reason == .exit, "\(result)")
    #expect(result.stderr == "bowties: cannot write standard output: no space left on device\n")
  }

  @Test("a closed pipe: ended by SIGPIPE as cat is, quietly, the store closed", arguments: commands)
  func closedPipe(_ command: Command) throws {
    let bowties = try prepared(for: command)
    let result = try run(command, in: bowties, stdout: .closedPipe)
    let cat = try run(["/bin/cat", "/etc/passwd"], in: bowties, stdout: .closedPipe)
    #expect(cat.reason == .uncaughtSignal && cat.status == SIGPIPE)
    #expect(result.reason == cat.reason && result.status == cat.status, "\(result)")
    #expect(result.stderr == "")
    // The store was closed before the end, as after any failure: SQLite's log is gone.
    #expect(!FileManager.default.fileExists(atPath: bowties.store + "-wal"))
  }

  /// What a shell shows: `bowties list | head -n 1` ends as `yes | head -n 1` does (as `cat`
  /// would, with more lines than a pipe holds), 141 in PIPESTATUS.
  @Test("under a shell, a closed pipe's status is cat's: 141")
  func shellStatus() throws {
    let bowties = BowtiesSandbox()
    try bowties("seed")
    // A hundred thousand ties' lines overflow any pipe buffer, so the write that meets the
    // closed pipe comes before the end whenever head closes it.
    try addNeverWornTies(100_000, to: bowties)
    let script = """
      "$@" --store "$STORE" | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}"
      yes | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}"
      """
    for arguments in [["list"], ["list", "--json"], ["export", "--format", "json"]] {
      let result = try bowties.run(
        "/usr/bin/env",
        ["--default-signal=PIPE", "/bin/bash", "-c", script, "bash", BowtiesSandbox.binary.path]
          + arguments,
        environment: ["STORE": bowties.store])
      let statuses = result.stdout.split(separator: "\n")
      #expect(statuses.count == 2 && statuses[0] == statuses[1], "\(arguments): \(result)")
      #expect(statuses.first == "141")
      #expect(result.stderr == "")
    }
  }

  /// A long document stops being made at its first failed write, not at its end: `export |
  /// head` ends when head does. Seen without a clock: the store's last tie in every list
  /// the document holds has a date that cannot be read, which fails the command (74) only
  /// if it goes on to read that row.
  @Test(
    "a long export or report stops at its first failed write, before a damaged last row",
    arguments: [
      ["export", "--format", "csv"], ["export", "--format", "json"],
      ["export", "--format", "plist"], ["export", "--format", "plist", "--binary"],
      ["report", "--all"], ["report", "--all", "--format", "json"],
      ["report", "--all", "--format", "csv"], ["report", "--all", "--format", "html"],
      ["report", "--all", "--format", "markdown"],
    ])
  func stopsAtTheFirstFailedWrite(_ arguments: [String]) throws {
    let bowties = BowtiesSandbox()
    try bowties("seed")
    // Five thousand never-worn ties, more than a 64 KiB piece of any format, the one
    // sorted last ('tie 999') with its unreadable date.
    try addNeverWornTies(5_000, to: bowties)
    try bowties.sqlite("UPDATE bowTie SET lastWorn = 'not a date' WHERE name = 'Tie 999'")
    let command = [BowtiesSandbox.binary.path] + arguments + ["--store", bowties.store]
    let whole = try bowties(arguments)
    try #require(whole.status == 74, "the damaged row is read when the output takes it all")
    let closed = try run(command, in: bowties, stdout: .closedPipe)
    #expect(closed.reason == .uncaughtSignal && closed.status == SIGPIPE, "\(closed)")
    #expect(closed.stderr == "")
    let full = try run(command, in: bowties, stdout: .fullDisk)
    #expect(full.status == 73, "\(full)")
    #expect(full.stderr == "bowties: cannot write standard output: no space left on device\n")
    // Written through to a device named by --output, and stopped the same way.
    let device = try bowties(arguments + ["--output", "/dev/full"])
    #expect(device.status == 73, "\(device)")
    #expect(device.stderr == "bowties: cannot write /dev/full: no space left on device\n")
  }

  /// Started without descriptor 1 or 2 (`>&-`), a process's next descriptor takes the
  /// number: on PostgreSQL, one of NIO's, since no SQLite file reserves it first. Written
  /// to, it would take the line, or fail for its own reason.
  @Test(
    "a closed stdout, stderr or stdin is reported as closed, on PostgreSQL too",
    .enabled(
      if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason))
  )
  func closedDescriptors() throws {
    let server = try #require(PostgresTestServer.shared)
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    for store in [bowties.store, database.uri] {
      #expect(try bowties(["wear", "R"], store: store).status == 0)
      // Each line under sh, with the descriptors it names closed.
      func run(_ line: String) throws -> BowtiesSandbox.Result {
        try bowties.run(
          "/bin/sh", ["-c", "\"$0\" " + line, BowtiesSandbox.binary.path, store])
      }
      let list = try run(#"list --store "$1" >&-"#)
      #expect(list.status == 73, "\(store)")
      #expect(list.stderr == "bowties: cannot write standard output: bad file descriptor\n")
      let seed = try run(#"seed - --store "$1" <&-"#)
      #expect(seed.status == 66, "\(store)")
      #expect(seed.stderr == "bowties: cannot read standard input: bad file descriptor\n")
      // Its messages lost, a command still does its work and exits with its status.
      #expect(try run(#"wear R --store "$1" 2>&-"#).status == 0)
      #expect(try run(#"wear NOPE --store "$1" 2>&- >&-"#).status == 1)
      #expect(
        try bowties(["show", "R", "--json"], store: store).stdout.contains(#""timesWorn" : 12"#))
    }
  }

  // MARK: - Running

  struct Outcome: CustomStringConvertible {
    var status: Int32
    var reason: Process.TerminationReason
    var stderr: String

    var description: String {
      "status \(status) (\(reason.rawValue)), stderr \(stderr.debugDescription)"
    }
  }

  /// Adds `count` never-worn ties, "Tie 0" (key K0) on, by SQL: quicker than a seed.
  private func addNeverWornTies(_ count: Int, to bowties: BowtiesSandbox) throws {
    try bowties.sqlite(
      """
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(count - 1))
      INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating, timesWorn,
        isFavorite, wearsBeforeHistory)
      SELECT printf('%08X-0000-4000-8000-%012X', i, i), 'Tie ' || i, 'tie ' || i, 'K' || i,
        'k' || i, 3, 0, 0, 0 FROM n;
      """)
  }

  /// A store with the sample ties, and what `command` needs.
  private func prepared(for command: Command) throws -> BowtiesSandbox {
    let bowties = BowtiesSandbox()
    try bowties("seed")
    try bowties("wear", "R")
    if command.needsSpareTie { try bowties("add", "--name", "Spare", "--key", "S") }
    if command.needsBackup {
      try bowties("backup", bowties.folder.appendingPathComponent("backup.sqlite").path)
    }
    return bowties
  }

  private func run(_ command: Command, in bowties: BowtiesSandbox, stdout: Destination) throws
    -> Outcome
  {
    let arguments = command.arguments.map {
      $0.replacingOccurrences(of: "{folder}", with: bowties.folder.path)
    }
    let withStore = arguments.first.map { !$0.hasPrefix("-") && $0 != "help" } ?? false
    return try run(
      [BowtiesSandbox.binary.path] + arguments + (withStore ? ["--store", bowties.store] : []),
      in: bowties, stdout: stdout)
  }

  /// Runs `arguments` with stdout at `destination`, stdin empty and stderr collected.
  private func run(
    _ arguments: [String], in bowties: BowtiesSandbox, stdout destination: Destination
  )
    throws -> Outcome
  {
    let process = Process()
    // SIGPIPE as a shell started from a terminal has it, whatever this test process does
    // with it (the PostgreSQL tests' NIO ignores it, and a child inherits that).
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["--default-signal=PIPE"] + arguments
    process.currentDirectoryURL = bowties.folder
    process.environment = [
      "PATH": "/usr/bin:/bin", "HOME": bowties.folder.path, "LANG": "C", "TZ": "UTC",
      "BOWTIES_IMAGE_PROTOCOL": "halfblocks",
    ]
    switch destination {
    case .fullDisk:
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    case .closedPipe:
      // The reading end is closed before the child starts, so it inherits none: no reader
      // exists, whatever the timing.
      var ends: [Int32] = [0, 0]
      #expect(pipe(&ends) == 0)
      close(ends[0])
      process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }
    let errors = Pipe()
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let collected = ErrorCollector(errors.fileHandleForReading)
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, reason: process.terminationReason,
      stderr: String(decoding: collected.wait(), as: UTF8.self))
  }
}
