import CTerminfo
import Synchronization

/// What a terminal type can do, and how it is told to: the terminfo capabilities a
/// full-screen program needs, read through ncurses' terminfo library (libtinfo).
///
/// The terminfo database comes first, so a terminal's own entry wins; where there is none
/// (a lone static binary on a machine without `ncurses-base`), the entries of
/// ``builtInTerms``, taken from Debian's database by `scripts/gen-terminfo-fallback.py`.
public struct TerminalCapabilities: Sendable, Equatable {
  /// The `TERM` this describes.
  public let term: String
  /// Where the capabilities came from.
  public let source: Source
  /// The capabilities by terminfo name, as bytes to send (`smcup`) or that keys send
  /// (`kcub1`).
  public let strings: [String: String]
  /// `colors`, when the entry says.
  public let colors: Int?

  public enum Source: Sendable, Equatable {
    /// The terminfo database, through libtinfo.
    case database
    /// The table built into the program.
    case builtIn
  }

  /// The terminal types known without a database.
  public static var builtInTerms: [String] { builtInEntries.keys.sorted() }

  /// The capabilities a full-screen view cannot do without: moving the cursor, clearing
  /// the screen and a line.
  static let required = ["cup", "clear", "el"]

  /// The capabilities read, beyond ``required``: the alternate screen, the keypad's
  /// application mode, the cursor hidden and shown, attributes, and the keys.
  static let wanted = [
    "smcup", "rmcup", "smkx", "rmkx", "civis", "cnorm", "sgr0", "bold", "rev", "kcub1", "kcuf1",
    "kcuu1", "kcud1", "khome", "kend", "kcbt", "kbs", "kdch1",
  ]

  public init(term: String, source: Source, strings: [String: String], colors: Int?) {
    self.term = term
    self.source = source
    self.strings = strings
    self.colors = colors
  }

  /// The capabilities of `term`: from the terminfo database when it has the entry, else
  /// built in when bowties knows it.
  ///
  /// - Throws: ``TerminalError/unknownTerminal(_:)`` when neither has it, and
  ///   ``TerminalError/tooLimited(_:missing:)`` when the entry cannot move the cursor.
  public static func load(term: String) throws(TerminalError) -> TerminalCapabilities {
    let capabilities: TerminalCapabilities
    if let found = fromDatabase(term: term) {
      capabilities = found
    } else if let found = builtIn(term: term) {
      capabilities = found
    } else {
      throw .unknownTerminal(term)
    }
    let missing = required.filter { capabilities.strings[$0] == nil }
    if !missing.isEmpty { throw .tooLimited(term, missing: missing) }
    return capabilities
  }

  /// The entry of `term` in the terminfo database, or nil when there is none (or no
  /// database).
  public static func fromDatabase(term: String) -> TerminalCapabilities? {
    guard !term.isEmpty else { return nil }
    let found: (strings: [String: String], colors: Int32)? = libtinfo.withLock { _ in
      guard bowties_terminfo_load(term) == 1 else { return nil }
      defer { bowties_terminfo_unload() }
      var strings: [String: String] = [:]
      for name in required + wanted {
        if let value = bowties_terminfo_string(name) {
          strings[name] = withoutPadding(String(cString: value))
        }
      }
      return (strings, bowties_terminfo_number("colors"))
    }
    guard let found else { return nil }
    return TerminalCapabilities(
      term: term, source: .database, strings: found.strings,
      colors: found.colors >= 0 ? Int(found.colors) : nil)
  }

  /// libtinfo keeps the loaded entry and the expanded capability in globals of its own, so
  /// one thread at a time uses it: two at once (tests run in parallel) crashed inside it.
  private static let libtinfo = Mutex(())

  /// The built-in entry of `term`, or nil for a type bowties does not know.
  public static func builtIn(term: String) -> TerminalCapabilities? {
    guard let entry = builtInEntries[term] else { return nil }
    return TerminalCapabilities(
      term: term, source: .builtIn, strings: entry.strings, colors: entry.numbers["colors"])
  }

  /// `capability` without its padding, `$<5>` or `$<2*/>`: a delay for `tputs` to make
  /// with pad characters on a slow serial line, which bowties, writing the strings
  /// itself, would print as text (vt100's entry pads `cup`, `clear` and `el`). A terminal
  /// emulator needs no delay.
  static func withoutPadding(_ capability: String) -> String {
    guard capability.contains("$<") else { return capability }
    var text = Substring(capability)
    var result = ""
    while let start = text.range(of: "$<") {
      result += text[..<start.lowerBound]
      let rest = text[start.upperBound...]
      let body = rest.prefix { $0.isASCII && ($0.isNumber || ".*/".contains($0)) }
      if !body.isEmpty, body.first!.isNumber, rest.dropFirst(body.count).first == ">" {
        text = rest.dropFirst(body.count + 1)
      } else {
        result += "$<"
        text = rest
      }
    }
    return result + text
  }

  /// The capability `name`, or "" when the terminal has none: sending nothing is how a
  /// terminal without an alternate screen, say, does without one.
  public subscript(name: String) -> String { strings[name] ?? "" }

  /// Moves the cursor to `row` and `column`, counted from 0 (`cup`, expanded by libtinfo).
  public func moveCursor(row: Int, column: Int) -> String {
    guard let cup = strings["cup"] else { return "" }
    return Self.libtinfo.withLock { _ in
      cup.withCString { capability in
        bowties_terminfo_expand(capability, Int32(clamping: row), Int32(clamping: column))
          .map { Self.withoutPadding(String(cString: $0)) } ?? ""
      }
    }
  }
}

/// Why a full-screen view cannot run on this terminal.
public enum TerminalError: Error, Equatable, Sendable {
  /// `TERM` names a type neither the terminfo database nor the built-in table knows.
  case unknownTerminal(String)
  /// The type's entry lacks a capability a full-screen view needs.
  case tooLimited(String, missing: [String])
  /// The terminal refused to be set up (`tcgetattr`, `tcsetattr`).
  case setupFailed(String)

  public var message: String {
    switch self {
    case .unknownTerminal(let term):
      "TERM=\(term) is not in the terminfo database, and bowties knows only "
        + "\(TerminalCapabilities.builtInTerms.joined(separator: ", ")) without it"
    case .tooLimited(let term, let missing):
      "TERM=\(term) cannot \(missing == ["el"] ? "clear a line" : "move the cursor") "
        + "(its terminfo entry has no \(missing.joined(separator: ", ")))"
    case .setupFailed(let reason):
      "the terminal cannot be set up: \(reason)"
    }
  }
}
