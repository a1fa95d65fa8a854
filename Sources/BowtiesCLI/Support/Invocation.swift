import BowTieKit
import BowTieModel

/// The command line as the process was given it, read once, before ArgumentParser: the one
/// place besides it that looks at argv. It checks the words are text, and finds the store
/// early enough to hand a PostgreSQL store over to `bowties-postgresql`
/// (``PostgreSQLProgram``) before anything has been parsed or printed.
struct Invocation {
  /// The words after the program's name.
  let arguments: [String]

  /// The position (from 1, as after the program's name) of the first word that is not
  /// valid UTF-8, which `arguments` holds repaired with U+FFFD.
  let notUTF8: Int?

  /// The words as the process was given them, checked as C strings: `CommandLine.arguments`
  /// would repair bytes that are not UTF-8 without saying so, and `--store` would then name
  /// another file, a TIE another tie.
  static func current() -> Invocation {
    var arguments: [String] = []
    var notUTF8: Int?
    for index in 1..<Int(CommandLine.argc) {
      guard let word = CommandLine.unsafeArgv[index] else { continue }
      if let text = String(validatingCString: word) {
        arguments.append(text)
      } else {
        notUTF8 = notUTF8 ?? index
        arguments.append(String(cString: word))
      }
    }
    return Invocation(splittingEmptyValues(arguments), notUTF8: notUTF8)
  }

  /// The words with `--date=` given as `--date ''`, which is what it says: an empty value.
  /// ArgumentParser otherwise takes the next word as the value of an option it parses
  /// unconditionally (`--date= --store S` read `--store` as the date). Not after `--`, and
  /// not in a shell's request for completions, whose words are the line being typed.
  static func splittingEmptyValues(_ words: [String]) -> [String] {
    guard words.first != "---completion", words.contains(where: { $0.hasSuffix("=") }) else {
      return words
    }
    var result: [String] = []
    var afterTerminator = false
    for word in words {
      let name = word.dropFirst(2).dropLast()
      if !afterTerminator, word.hasPrefix("--"), word.hasSuffix("="), !name.isEmpty,
        name.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") })
      {
        result += [String(word.dropLast()), ""]
      } else {
        result.append(word)
      }
      if word == "--" { afterTerminator = true }
    }
    return result
  }

  init(_ arguments: [String], notUTF8: Int? = nil) {
    self.arguments = arguments
    self.notUTF8 = notUTF8
  }

  /// Refuses a command line with a word that is not valid UTF-8.
  func checkUTF8() throws(BowTieError) {
    if let notUTF8 { throw .usage("argument \(notUTF8) is not valid UTF-8 text") }
  }

  /// `--store`'s value as ArgumentParser will take it: the last `--store VALUE` or
  /// `--store=VALUE` before a `--`. For a shell asking for completions (`---completion`),
  /// that of the line being typed, so that a PostgreSQL store's are asked of
  /// `bowties-postgresql`.
  var explicitStore: String? {
    // `---completion SUBCOMMANDS -- ARGUMENT INDEX CURSOR PROGRAM WORDS…`, as ArgumentParser
    // writes it into the completion scripts.
    if arguments.first == "---completion", let marker = arguments.firstIndex(of: "--") {
      return Self.storeInCompletion(arguments.dropFirst(marker + 4))
    }
    return Self.explicitStore(in: arguments)
  }

  /// `--store`'s value in a line a shell is completing, `words` from the program's name on,
  /// as the shell has them: with their quotes (`'my ties.sqlite'`), which are taken off.
  static func storeInCompletion(_ words: some Sequence<String>) -> String? {
    explicitStore(in: words.dropFirst().map(unquoted))
  }

  /// `word` as a POSIX shell reads it: in single quotes as it is, in double quotes with
  /// `\` before `"`, `\`, `$` and `` ` `` taken off, elsewhere with any `\` taken off.
  static func unquoted(_ word: String) -> String {
    var text = ""
    var quote: Character?
    var escaped = false
    for character in word {
      if escaped {
        if quote == "\"", !"\"\\$`".contains(character) { text.append("\\") }
        text.append(character)
        escaped = false
      } else if character == "\\", quote != "'" {
        escaped = true
      } else if character == "'" || character == "\"", quote == nil || quote == character {
        quote = quote == nil ? character : nil
      } else {
        text.append(character)
      }
    }
    return text
  }

  /// `--store`'s value in `words`, the words after a command's name (``explicitStore``).
  static func explicitStore(in words: some Sequence<String>) -> String? {
    var store: String?
    var words = Array(words)[...]
    while let word = words.popFirst(), word != "--" {
      if word == "--store", let value = words.first {
        store = value
        words = words.dropFirst()
      } else if word.hasPrefix("--store=") {
        store = String(word.dropFirst("--store=".count))
      }
    }
    return store
  }

  /// Where the store is, by ``StoreLocation``'s own rule, as `--store` will resolve it; nil
  /// where it cannot be resolved, which the command then reports.
  ///
  /// A word that only looks like `--store` (the value of another option) may name a server
  /// here and not for the command: the line is then handed over to a program that parses
  /// and runs it exactly as this one would.
  func storeAddress(environment: [String: String]? = nil) -> (any StoreAddress)? {
    try? StoreLocation.address(explicitPath: explicitStore, environment: environment)
  }
}
