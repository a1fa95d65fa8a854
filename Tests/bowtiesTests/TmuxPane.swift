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
  let folder: URL
  private let socket: String
  static let tmux = "/usr/bin/tmux"

  static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: tmux) }

  /// Starts `command` (a shell line) in a detached pane of `columns` × `rows` cells, with
  /// `environment` exported (TERM among it) on top of a clean one.
  init(
    _ command: String, in folder: URL, columns: Int = 100, rows: Int = 30,
    environment: [String: String] = [:]
  ) throws {
    self.folder = folder
    socket = folder.appendingPathComponent("tmux.sock").path
    var variables = [
      "PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C", "TZ": "UTC",
      "TERM": "tmux-256color", "BOWTIES_BUSY_TIMEOUT": "20", "BOWTIES_USER": "tester",
    ]
    variables.merge(environment) { $1 }
    let exports = variables.sorted { $0.key < $1.key }.map { name, value in
      value.isEmpty ? "unset \(name)" : "export \(name)=\(Self.quote(value))"
    }
    let script = folder.appendingPathComponent("pane.sh")
    try
      (["#!/bin/sh", "cd \(Self.quote(folder.path))"] + exports + [
        "stty -g > stty-before",
        "echo pane-ready",
        command,
        "echo $? > status",
        "stty -g > stty-after",
        "echo pane-done",
        "exec sleep 600",
      ]).joined(separator: "\n").write(to: script, atomically: true, encoding: .utf8)
    chmod(script.path, 0o755)
    try tmux(
      "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", String(columns), "-y", String(rows),
      script.path)
    try tmux("set-option", "-g", "status", "off")
  }

  deinit { _ = try? tmux("kill-server") }

  static func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  @discardableResult
  func tmux(_ arguments: String...) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.tmux)
    process.arguments = ["-S", socket] + arguments
    process.environment = ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "HOME": folder.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// Sends keys by tmux's names (`Left`, `BTab`, `Escape`, `C-c`) or, with `literally`,
  /// as text.
  func send(_ keys: String..., literally: Bool = false) throws {
    try tmux(["send-keys", "-t", "t"] + (literally ? ["-l"] : []) + keys)
  }

  private func tmux(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.tmux)
    process.arguments = ["-S", socket] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
  }

  /// What the pane shows; with `escapes`, with its colors and attributes.
  func screen(escapes: Bool = false) throws -> String {
    escapes
      ? try tmux("capture-pane", "-p", "-e", "-t", "t") : try tmux("capture-pane", "-p", "-t", "t")
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

  /// The pid of the command the pane's shell runs.
  func commandPID() throws -> pid_t? {
    let shell = try tmux("display-message", "-p", "-t", "t", "#{pane_pid}")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let children = try? String(
      contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
    return children?.split(separator: " ").first.flatMap { pid_t($0) }
  }

  /// Resizes the pane's window.
  func resize(columns: Int, rows: Int) throws {
    try tmux(["resize-window", "-t", "t", "-x", String(columns), "-y", String(rows)])
  }
}
