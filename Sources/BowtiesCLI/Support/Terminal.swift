import BowTieKit
import BowTieModel
import Foundation
import ImageCodecs
import TerminalImage
import TextOutput

#if canImport(Glibc)
  import Glibc
#endif

/// What the process is connected to, and the conventions that follow from it: data on
/// stdout, messages on stderr, color only for a terminal that wants it, prompts only
/// when a person can answer.
enum Terminal {
  static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
  static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
  static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

  /// Color on stdout: a terminal, `NO_COLOR` unset or empty, and not `TERM=dumb`.
  static var usesColor: Bool {
    if let noColor = ProcessEnvironment.value("NO_COLOR"), !noColor.isEmpty { return false }
    if ProcessEnvironment.value("TERM") == "dumb" { return false }
    return standardOutputIsTerminal
  }

  /// The user's locale from `LC_ALL`, `LC_TIME` or `LANG`, as POSIX tools choose it.
  /// Foundation on Linux reports `en_001` whatever these say, so we read them ourselves;
  /// `C`, `POSIX` or nothing mean the POSIX locale ("Oct 14, 2026").
  static var locale: Locale {
    Locale(identifier: localeIdentifier ?? "en_US_POSIX")
  }

  /// The locale's identifier from the environment, or nil for the POSIX locale. Read
  /// once: `list` asks for every tie's date.
  static let localeIdentifier: String? = localeIdentifier(category: "LC_TIME")

  /// The locale for money: `LC_ALL`, `LC_MONETARY` or `LANG`. It chooses how a price's
  /// number is written and the currency of a price typed without one.
  static var monetaryLocale: Locale {
    Locale(identifier: monetaryLocaleIdentifier ?? "en_US_POSIX")
  }

  /// `LC_MONETARY`'s locale identifier, or nil for the POSIX locale.
  static let monetaryLocaleIdentifier: String? = localeIdentifier(category: "LC_MONETARY")

  /// The currency of a price typed without one: the monetary locale's, or US dollars
  /// where it names none (``BowTieKit/Currency/defaultCode(localeIdentifier:)``).
  static var defaultCurrency: String {
    Currency.defaultCode(localeIdentifier: monetaryLocaleIdentifier)
  }

  /// The identifier POSIX chooses for `category`: `LC_ALL`, then the category's own
  /// variable, then `LANG`, the first that is set and not empty; nil for C and POSIX, and
  /// for a language ICU does not know (`xx_YY`), whose dates ICU writes in no language
  /// ("2026 M10 14"), where the C library falls back to the POSIX locale.
  static func localeIdentifier(category: String) -> String? {
    let setting = ["LC_ALL", category, "LANG"].lazy.compactMap(ProcessEnvironment.value)
      .first { !$0.isEmpty }
    // "de_DE.UTF-8@euro" → "de_DE"
    let identifier = setting?.split(separator: ".").first?.split(separator: "@").first
      .map(String.init)
    guard let identifier, identifier != "C", identifier != "POSIX",
      Locale(identifier: identifier).language.languageCode?.isISOLanguage == true
    else { return nil }
    return identifier
  }

  // Messages quote data (names from the store, entries of a seed file, arguments), so
  // their control characters are made visible: none reaches the terminal as a command.
  static func error(_ message: String) {
    writeError("bowties: \(message.withVisibleControlCharacters)\n")
  }
  static func warning(_ message: String) {
    writeError("bowties: warning: \(message.withVisibleControlCharacters)\n")
  }
  static func note(_ message: String) {
    writeError("bowties: \(message.withVisibleControlCharacters)\n")
  }

  /// Writes to stderr as it comes. A failure is dropped: there is nowhere left to say it,
  /// and a message must not end a command that stdout's failure would not have ended
  /// (FileHandle's `write`, which traps on one, is not used).
  static func writeError(_ text: String) {
    var text = text
    _ = text.withUTF8 { bytes in
      DescriptorOutputStream.writeAll(UnsafeRawBufferPointer(bytes), to: STDERR_FILENO)
    }
  }

  /// Asks on stderr and reads one line from stdin; nil at end of input.
  static func ask(_ question: String) -> String? {
    writeError(question.withVisibleControlCharacters)
    return readLine(strippingNewline: true)
  }

  /// Asks a yes-or-no `question` (`[y/N]`): true for y or yes. Without a terminal on stdin
  /// nobody is asked: a usage error (64) says `refusal`, which names the flag that answers.
  static func confirm(_ question: String, refusal: String) throws(BowTieError) -> Bool {
    guard standardInputIsTerminal else { throw .usage(refusal) }
    let answer = ask(question + " [y/N] ")?.lowercased()
    return answer == "y" || answer == "yes"
  }

  /// The colors of a swatch on stdout: those the photo is drawn in, truecolor only where
  /// the terminal says it has it (`COLORTERM`; ``TerminalGraphics/colorDepth(environment:outputIsTerminal:override:)``).
  /// A terminal without it shows a 24-bit color as another color, or as text.
  static let colorDepth: ColorDepth = {
    let environment = ProcessInfo.processInfo.environment
    return TerminalGraphics.colorDepth(
      environment: environment, outputIsTerminal: standardOutputIsTerminal,
      override: imageOverride(in: environment)?.override)
  }()

  /// What `BOWTIES_IMAGE_PROTOCOL` asks for, in any case: nil when it is unset or empty,
  /// and `override` nil when it names no way of drawing (the caller that draws warns).
  static func imageOverride(in environment: [String: String]) -> (
    name: String, override: TerminalGraphics.Override?
  )? {
    guard let name = environment["BOWTIES_IMAGE_PROTOCOL"], !name.isEmpty else { return nil }
    return (name, TerminalGraphics.Override(rawValue: name.lowercased()))
  }

  /// A swatch two cells wide: `color` itself in truecolor, else the palette's nearest.
  static func swatch(_ color: RGB, depth: ColorDepth = colorDepth) -> String {
    switch depth {
    case .truecolor: "\u{1B}[48;2;\(color.red);\(color.green);\(color.blue)m  \u{1B}[0m"
    case .palette256: "\u{1B}[48;5;\(Palette256.nearest(color))m  \u{1B}[0m"
    }
  }

  static func bold(_ text: String) -> String { "\u{1B}[1m\(text)\u{1B}[0m" }

  /// How many cells `text` takes: its characters, less the color codes (`ESC [ … m`).
  static func visibleWidth(_ text: String) -> Int {
    var width = 0
    var inEscape = false
    for character in text {
      if inEscape {
        if character.isLetter { inEscape = false }
      } else if character == "\u{1B}" {
        inEscape = true
      } else {
        width += 1
      }
    }
    return width
  }
}
