import ArgumentParser
import BowTieKit
import BowTieModel
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
    (storeBusy, "the store busy past $BOWTIES_BUSY_TIMEOUT s, or changed while read"),
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
    case .storeBusy, .storeChangedWhileRead: storeBusy
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

  /// The code `error` ends the process with, and the one line that says why: nil where
  /// ArgumentParser prints it its own way (help, `--version`, an exit a command reported).
  ///
  /// A value that ArgumentParser could not convert to its option's type is invalid data,
  /// 65, however ArgumentParser reports it: with the model's message when the option's
  /// parser gave one (it names the range), else with ArgumentParser's, which lists the
  /// values allowed. Any other line it refuses (an unknown option, a missing value) is a
  /// usage error, 64.
  static func outcome(of error: any Error) -> (code: Int32, message: String?) {
    if let error = error as? BowTieError { return (code(for: error), error.localizedDescription) }
    let conversion = ConversionFailure(error)
    if let reason = conversion?.reason { return (code(for: reason), reason.localizedDescription) }
    let status = Bowties.exitCode(for: error)
    let message = Bowties.message(for: error)
    // Help, --version and exits a validate() already reported: ArgumentParser's own way.
    guard status != .success, !message.isEmpty else { return (status.rawValue, nil) }
    // Anything else is one line, so a cron mail or a script's log says it plainly.
    let firstLine = message.split(separator: "\n").first.map(String.init) ?? message
    return (conversion == nil ? status.rawValue : invalidData, "\(firstLine) (see --help)")
  }

  /// Prints one clear line on stderr and exits with the error's code (``outcome(of:)``).
  /// Help and version requests print as ArgumentParser prints them, and exit 0.
  static func exit(with error: any Error) -> Never {
    if case .outputClosed? = error as? BowTieError { endAsClosedPipe() }
    let (status, message) = outcome(of: error)
    if let message {
      Terminal.error(message)
      Foundation.exit(status)
    }
    if status == success {
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
    // Exits a validate() already reported: ArgumentParser's own way.
    Bowties.exit(withError: error)
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

/// A value ArgumentParser could not convert to its option's type, found in the error it
/// threw, with the reason the type's parser gives for it, when the type is an
/// ``ArgumentValue`` (for an enumeration's case, ArgumentParser's message lists the cases).
///
/// ArgumentParser's error types are internal, and it keeps no reason for a failed
/// `init?(argument:)`. What kind of refusal an error is can be told only from its message,
/// or from its structure, which is what this reads, by reflection: a
/// `ParserError.unableToParseValue`, with the option as typed, the value and the key of
/// the property, inside the `CommandError` that `parseAsRoot` throws with the command. The
/// property's type, found in the command, parses the value again to say why it refused it.
/// The version of ArgumentParser is pinned, and `ParsingTests` fails if a new one reports
/// conversions another way.
struct ConversionFailure {
  /// What the parser of the value threw.
  var reason: BowTieError?

  init?(_ error: any Error) {
    let thrown = Mirror(reflecting: error)
    let parserError = thrown.descendant("parserError") ?? error
    let mirror = Mirror(reflecting: parserError)
    guard mirror.displayStyle == .enum, let refusal = mirror.children.first,
      refusal.label == "unableToParseValue"
    else { return nil }
    let parts = Mirror(reflecting: refusal.value)
    guard
      let command = thrown.descendant("commandStack")
        .flatMap({ ($0 as? [any ParsableCommand.Type])?.last }),
      let text = parts.descendant(".2") as? String,
      let name = parts.descendant("forKey", "name") as? String,
      let path = parts.descendant("forKey", "path") as? [String],
      let valueType = command.argumentValueType(at: path + [name])
    else {
      reason = nil
      return
    }
    do {
      _ = try valueType.parse(text, option: Self.option(parts.descendant(".1")))
      reason = nil
    } catch {
      reason = error
    }
  }

  /// The option as typed (`--months`) from ArgumentParser's `Name?`; nil for an argument.
  private static func option(_ name: Any?) -> String? {
    guard let name, let some = Mirror(reflecting: name).children.first?.value,
      let form = Mirror(reflecting: some).children.first
    else { return nil }
    switch (form.label, form.value) {
    case ("long", let long as String): return "--" + long
    case ("longWithSingleDash", let long as String): return "-" + long
    default: return Mirror(reflecting: form.value).children.first.map { "-\($0.value)" }
    }
  }
}
