import BowTieKit
import BowTieModel
import Foundation

/// A one-line progress bar on stderr, for a person watching a long seed. Shown only when
/// stderr is a terminal: a cron mail or a script's log never gets it.
final class ProgressBar {
  private let label: String
  private var lastDrawn = Date.distantPast
  private var drew = false

  /// Nil when stderr is not a terminal.
  init?(_ label: String) {
    guard Terminal.standardErrorIsTerminal, ProcessEnvironment.value("TERM") != "dumb"
    else { return nil }
    self.label = label
  }

  /// Redraws at most ten times a second; at the end, clears itself, so the messages that
  /// follow start on a clean line.
  func update(_ done: Int, of total: Int) {
    if done >= total {
      finish()
      return
    }
    let now = Date()
    guard now.timeIntervalSince(lastDrawn) >= 0.1, total > 0 else { return }
    lastDrawn = now
    let width = 30
    let filled = width * done / total
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    Terminal.writeError("\r\(label) \(bar) \(done)/\(total) \(100 * done / total)%")
    drew = true
  }

  /// Clears the line, so the summary that follows starts clean.
  func finish() {
    if drew { Terminal.writeError("\r\u{1B}[2K") }
    drew = false
  }
}
