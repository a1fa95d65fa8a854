import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `bowties browse` in a pane of a tmux server of the test's own, as a person at a terminal
/// runs it: keys sent with `send-keys`, the screen read with `capture-pane`.
///
/// The pane runs a small shell script: it records `stty -g`, runs the command with stderr on
/// the terminal, then writes its exit status and `stty -g` again to files, prints a marker,
/// and waits. What the command printed after giving the terminal back stays on the pane's
/// screen, where ``screen()`` reads it.
final class TmuxPane {
  /// The pane's own folder: its script, its socket, the files the script writes.
  let folder: URL
  private let socket: String
  static let tmux = "/usr/bin/tmux"

  static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: tmux) }

  private typealias AddCloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's
  /// Glibc module does not declare.
  private static let closeFrom: AddCloseFrom? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
    else { return nil }
    return unsafeBitCast(symbol, to: AddCloseFrom.self)
  }()

  /// Starts `command` (a shell line) in a detached pane of `columns` × `rows` cells, with
  /// `environment` exported (TERM among it) on top of a clean one.
  init(
    _ command: String, in folder: URL, columns: Int = 100, rows: Int = 30,
    environment: [String: String] = [:]
  ) throws {
    // A folder and a server per pane, so that panes of one test never meet.
    self.folder = folder.appendingPathComponent("pane-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
    socket = self.folder.appendingPathComponent("tmux.sock").path
    let own = Self.quote(self.folder.path)
    var variables = [
      "PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C", "TZ": "UTC",
      "TERM": "tmux-256color", "BOWTIES_BUSY_TIMEOUT": "20", "BOWTIES_USER": "tester",
    ]
    variables.merge(environment) { $1 }
    let exports = variables.sorted { $0.key < $1.key }.map { name, value in
      value.isEmpty ? "unset \(name)" : "export \(name)=\(Self.quote(value))"
    }
    let script = self.folder.appendingPathComponent("pane.sh")
    let lines =
      ["#!/bin/sh", "cd \(Self.quote(folder.path))"] + exports + [
        "stty -g > \(own)/stty-before",
        "echo pane-ready",
        command,
        // The modes first: a test reads them once the status is there.
        "status=$?",
        "stty -g > \(own)/stty-after",
        "echo $status > \(own)/status",
        "echo pane-done",
        // Long enough to read the screen; the server ends with it, should stop() not run.
        "exec sleep 120",
      ]
    try lines.joined(separator: "\n").write(to: script, atomically: true, encoding: .utf8)
    chmod(script.path, 0o755)
    // Read by sh rather than run: a process another test spawns at the moment the script is
    // written may hold it open, and running it would then fail (ETXTBSY). Tests start
    // servers side by side; a start that did not take is tried again.
    for _ in 0..<3 {
      try tmux([
        "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", String(columns), "-y",
        String(rows), "sh \(Self.quote(script.path))",
      ])
      if try tmux(["list-sessions", "-F", "#{session_name}"]).hasPrefix("t") { break }
      usleep(200_000)
    }
    try tmux(["set-option", "-g", "status", "off"])
  }

  /// Ends the pane's session, and with it the server and the pane's processes. (Not
  /// `kill-server`: tmux 3.3 waits for clients it still counts, and did not end here.)
  func stop() { _ = try? tmux(["kill-session", "-t", "t"]) }

  deinit { stop() }

  static func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// Runs a tmux client and returns what it printed.
  ///
  /// Spawned and waited for directly, its output through a file: a client that starts the
  /// server forks it, and the server keeps the client's descriptors, which Foundation's
  /// `Process` waits on (a pipe's end of file would come late or never).
  @discardableResult
  func tmux(_ arguments: String...) throws -> String {
    try tmux(arguments)
  }

  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
    let file = folder.appendingPathComponent("tmux-output-\(UUID().uuidString)").path
    defer { unlink(file) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // What a client says on stderr goes beside the pane, for a failing test's reader.
    let errors = folder.appendingPathComponent("tmux-errors").path
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    // A server keeps every descriptor its first client inherits, for the pane's life, and
    // Foundation opens files without close-on-exec: a file another test fills, then deletes
    // to free a small disk, would stay held, and that disk full.
    guard let closeFrom = Self.closeFrom, closeFrom(&actions, 3) == 0 else {
      throw POSIXError(.ENOSYS)
    }
    let argv = [Self.tmux, "-S", socket] + arguments
    let environment = ["PATH=/usr/bin:/bin", "TERM=xterm-256color", "HOME=\(folder.path)"]
    var cArguments = argv.map { strdup($0) } + [nil]
    var cEnvironment = environment.map { strdup($0) } + [nil]
    defer { (cArguments + cEnvironment).forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, Self.tmux, &actions, nil, &cArguments, &cEnvironment)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
  }

  /// Sends keys by tmux's names (`Left`, `BTab`, `Escape`, `C-c`) or, with `literally`,
  /// as text.
  func send(_ keys: String..., literally: Bool = false) throws {
    try tmux(["send-keys", "-t", "t"] + (literally ? ["-l"] : []) + keys)
  }

  /// What the pane shows, a line wrapped at the pane's edge joined again, without the
  /// spaces at the ends of lines; with `escapes`, as it is, with its colors and attributes.
  func screen(escapes: Bool = false) throws -> String {
    guard !escapes else { return try tmux("capture-pane", "-p", "-e", "-t", "t") }
    return try tmux("capture-pane", "-p", "-J", "-t", "t")
      .split(separator: "\n", omittingEmptySubsequences: false)
      .map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
      .joined(separator: "\n")
  }

  /// Waits up to `timeout` seconds for the screen to satisfy `condition`; returns the
  /// screen, and how long it took (nil when it never did).
  @discardableResult
  func waitFor(
    timeout: TimeInterval = 10, _ condition: (String) -> Bool
  ) throws -> (screen: String, after: TimeInterval?) {
    let start = Date()
    var screen = ""
    while Date().timeIntervalSince(start) < timeout {
      screen = try self.screen()
      if condition(screen) { return (screen, Date().timeIntervalSince(start)) }
      usleep(20_000)
    }
    return (screen, nil)
  }

  /// Waits for the screen to show `text`.
  @discardableResult
  func waitFor(_ text: String, timeout: TimeInterval = 10) throws -> (
    screen: String, after: TimeInterval?
  ) {
    try waitFor(timeout: timeout) { $0.contains(text) }
  }

  /// The command's exit status, once it has ended (waiting up to `timeout` seconds).
  func exitStatus(timeout: TimeInterval = 10) -> Int32? {
    let file = folder.appendingPathComponent("status")
    let start = Date()
    while Date().timeIntervalSince(start) < timeout {
      if let text = try? String(contentsOf: file, encoding: .utf8),
        let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
      {
        return status
      }
      usleep(20_000)
    }
    return nil
  }

  /// `stty -g` before the command and after it.
  func terminalModes() -> (before: String, after: String) {
    func read(_ name: String) -> String {
      (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "?"
    }
    return (read("stty-before"), read("stty-after"))
  }

  /// The pid of the bowties process under the pane's shell: the first, down the tree (the
  /// pane may run an interactive shell that runs it), whose command starts with "bowties"
  /// (`bowties-postgresql`, for a PostgreSQL store, takes over its process).
  func bowtiesPID() throws -> pid_t? {
    let shell = try tmux("display-message", "-p", "-t", "t", "#{pane_pid}")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    var pending = [shell]
    while let pid = pending.popLast() {
      let command = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
      if command?.hasPrefix("bowties") == true { return pid_t(pid) }
      let children = try? String(
        contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
      pending += children?.split(separator: " ").map(String.init) ?? []
    }
    return nil
  }

  /// Resizes the pane's window.
  func resize(columns: Int, rows: Int) throws {
    try tmux(["resize-window", "-t", "t", "-x", String(columns), "-y", String(rows)])
  }
}
