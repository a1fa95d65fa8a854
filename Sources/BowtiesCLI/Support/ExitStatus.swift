import ArgumentParser
import BowTieKit
import Foundation

/// The one place where failures become exit codes, and where each code's meaning is
/// written: `--help` (and so the man page and the README) shows ``meanings``.
enum ExitStatus {
  static let success: Int32 = 0
  static let noSuchTie: Int32 = 1
  static let usage: Int32 = 64  // EX_USAGE
  static let invalidData: Int32 = 65  // EX_DATAERR
  static let inputUnreadable: Int32 = 66  // EX_NOINPUT
  static let software: Int32 = 70  // EX_SOFTWARE
  static let cannotCreate: Int32 = 73  // EX_CANTCREAT
  static let storeUnusable: Int32 = 74  // EX_IOERR
  static let storeBusy: Int32 = 75  // EX_TEMPFAIL
  static let notYours: Int32 = 77  // EX_NOPERM
  /// What a shell reports for a process `SIGPIPE` killed: `cat`'s status in `cat | head -1`.
  static let closedPipe: Int32 = 128 + SIGPIPE

  /// Every code bowties exits with, and what it means. Each line of ``helpSection`` fits
  /// in 72 columns, so neither help nor the man page (indented 5) wraps one at 80.
  static let meanings: [(code: Int32, meaning: String)] = [
    (success, "success"),
    (noSuchTie, "no such tie, or TIE matches several ties"),
    (usage, "usage error: an unknown command or option, a missing argument"),
    (invalidData, "invalid value, seed file or backup; problems doctor found"),
    (inputUnreadable, "an input file missing or unreadable; a photo that does not decode"),
    (software, "internal error"),
    (cannotCreate, "an output file cannot be written, or exists already (see --force)"),
    (storeUnusable, "the store unreadable, unwritable, damaged or from a newer bowties"),
    (storeBusy, "the store busy past $BOWTIES_BUSY_TIMEOUT seconds (default 10)"),
    (notYours, "undo refused: another user changed the tie since"),
  ]

  /// ``meanings`` as a section of the root command's help: a heading, then one line a
  /// code, the codes right-aligned, ready to copy into a document as it is.
  static var helpSection: String {
    let width = meanings.map { String($0.code).count }.max() ?? 0
    let lines = meanings.map { code, meaning in
      let number = String(code)
      return "  " + String(repeating: " ", count: width - number.count) + number + "  " + meaning
    }
    return (["EXIT STATUS:"] + lines).joined(separator: "\n")
  }

  static func code(for error: BowTieError) -> Int32 {
    switch error {
    case .noSuchTie, .ambiguousTie: noSuchTie
    case .usage: usage
    case .invalidTie, .invalidSeedEntry, .invalidSeedFile, .invalidValue, .invalidBackup:
      invalidData
    case .inputUnreadable, .seedImageUnreadable, .seedImageMissing, .noPhoto: inputUnreadable
    case .transformerNotRegistered: software
    case .outputUnwritable: cannotCreate
    case .outputClosed: closedPipe
    case .storeUnreadable, .storeNotWritable, .storeFromNewerVersion, .photoUnavailable:
      storeUnusable
    case .storeBusy: storeBusy
    case .changedByOtherUser: notYours
    }
  }

  /// Runs a check from a command's `validate()`. ArgumentParser wraps errors thrown
  /// there, losing their exit code, so a ``BowTieError`` is reported here and turned
  /// into an `ExitCode`, which ArgumentParser passes through untouched.
  static func validating<T>(_ check: () throws(BowTieError) -> T) throws -> T {
    do {
      return try check()
    } catch {
      Terminal.error(error.localizedDescription)
      throw ExitCode(code(for: error))
    }
  }

  /// Prints one clear line on stderr and exits with the error's code: 64 for a usage
  /// error. Help and version requests print as ArgumentParser prints them, and exit 0.
  static func exit(with error: any Error) -> Never {
    if case .outputClosed? = error as? BowTieError { endAsClosedPipe() }
    if let error = error as? BowTieError {
      Terminal.error(error.localizedDescription)
      Foundation.exit(code(for: error))
    }
    let status = Bowties.exitCode(for: error)
    if status == .success {
      // Help and --version: the text ArgumentParser prints, through the one stream, so
      // that a full disk is reported here too.
      let text = Bowties.fullMessage(for: error, columns: nil)
      do {
        if !text.isEmpty { try StandardOutput.write { $0.write(text + "\n") } }
      } catch {
        exit(with: error)
      }
      Foundation.exit(success)
    }
    let message = Bowties.message(for: error)
    // Exits a validate() already reported: ArgumentParser's own way.
    guard !message.isEmpty else { Bowties.exit(withError: error) }
    // Anything else is one line, so a cron mail or a script's log says it plainly.
    let firstLine = message.split(separator: "\n").first.map(String.init) ?? message
    Terminal.error("\(firstLine) (see --help)")
    Foundation.exit(status.rawValue)
  }

  /// Ends the process as `SIGPIPE` ends `cat` when its reader goes: quietly, with the
  /// status a shell shows as 141. Its store is closed already; the signal, ignored until
  /// now so that the write could say so, is let through and raised.
  static func endAsClosedPipe() -> Never {
    signal(SIGPIPE, SIG_DFL)
    raise(SIGPIPE)
    // Only if SIGPIPE is blocked: the same status, as a plain exit.
    Foundation.exit(closedPipe)
  }
}
