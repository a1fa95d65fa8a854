import ArgumentParser
import BowTieKit
import BowTieModel

/// Subcommand names as the user types them: a word that names none is refused here,
/// before ArgumentParser, which would take it for an unexpected argument (`bowties weer R`)
/// or answer `help weer` with the general help.
enum CommandNames {
  /// Refuses a command line whose subcommand, or the subcommand `help` is asked about,
  /// is not one of `names`, suggesting the nearest when it is close enough to be a typo.
  static func check(_ arguments: [String], names: [String]) throws(BowTieError) {
    var words = arguments[...]
    if words.first == "help" { words = words.dropFirst() }
    guard let word = words.first, !word.hasPrefix("-"), !names.contains(word) else { return }
    guard let suggestion = nearest(to: word, in: names) else {
      throw .usage("unknown command '\(word)'")
    }
    throw .usage("unknown command '\(word)'; did you mean '\(suggestion)'?")
  }

  /// A line that starts with an option, and names a command after it, written with the
  /// command first (`--store S show R` as `show R --store S`), quoted for a shell; nil for
  /// any other line.
  static func commandFirst(_ arguments: [String], names: some Sequence<String>)
    -> String?
  {
    guard let first = arguments.first, first.hasPrefix("-"), first != "--",
      let command = arguments.firstIndex(where: names.contains)
    else { return nil }
    let words = arguments[command...] + arguments[..<command]
    return words.map(shellWord).joined(separator: " ")
  }

  /// How to give a value that begins with "-", which ArgumentParser takes for an option:
  /// `add --name -ish` as `--name=-ish`, `show -ish` with `--` before it. `message` is
  /// ArgumentParser's refusal of the line; nil when it is not about a missing value, or no
  /// word of the line looks like such a value.
  static func dashValueHint(_ arguments: [String], message: String) -> String? {
    if message.hasPrefix("Missing value for '") {
      guard
        let index = arguments.indices.dropLast().first(where: {
          arguments[$0].hasPrefix("-") && !arguments[$0].contains("=")
            && looksLikeDashValue(arguments[$0 + 1])
            && message.hasPrefix("Missing value for '\(arguments[$0]) ")
        })
      else { return nil }
      let joined = shellWord(arguments[index] + "=" + arguments[index + 1])
      return "a value that begins with '-' is written with '=': \(joined)"
    }
    guard message.hasPrefix("Missing expected argument '"),
      let index = options(of: arguments).firstIndex(where: looksLikeDashValue)
    else { return nil }
    return argumentHint(arguments, at: index)
  }

  /// ArgumentParser's refusal of an unknown option (`Unknown option '-i'`) in bowties'
  /// words: for a single dash and letters, which may have been meant as a tie (`wear -i`),
  /// with where such an argument goes. Nil for any other message.
  static func unknownOption(_ arguments: [String], message: String) -> String? {
    let prefix = "Unknown option '"
    guard message.hasPrefix(prefix) else { return nil }
    let option = String(message.dropFirst(prefix.count).prefix { $0 != "'" })
    guard let index = options(of: arguments).firstIndex(of: option) else { return nil }
    if option.hasPrefix("--") { return "unknown option '\(option)'" }
    return "unknown option '\(option)'; " + argumentHint(arguments, at: index)
  }

  /// A word such as `-ish` that asked ArgumentParser for help, which it gives for an `h`
  /// anywhere in a group of short flags: the command would print its help and exit 0,
  /// doing nothing, when a script meant a tie's name. Nil for any other line, and for
  /// `-help`.
  static func helpInGroup(_ arguments: [String]) -> String? {
    guard
      let index = options(of: arguments).firstIndex(where: {
        looksLikeDashValue($0) && $0.contains("h") && $0 != "-help"
      })
    else { return nil }
    return "unknown option '\(arguments[index])'; " + argumentHint(arguments, at: index)
  }

  /// Where an argument that begins with "-" goes, with the line written so when nothing
  /// after it is an option.
  private static func argumentHint(_ arguments: [String], at index: Int) -> String {
    let advice = "an argument that begins with '-' goes after '--', which ends the options"
    guard arguments[index...].dropFirst().allSatisfy({ !$0.hasPrefix("-") }) else { return advice }
    let line = arguments[..<index] + ["--"] + arguments[index...]
    return advice + ": bowties " + line.map(shellWord).joined(separator: " ")
  }

  /// The words before `--`, after which nothing is an option.
  private static func options(of arguments: [String]) -> ArraySlice<String> {
    arguments.prefix { $0 != "--" }
  }

  /// A dash, then at least two characters: not one of bowties' options,
  /// which are long or a single letter, but a name or a number ArgumentParser would take
  /// for options.
  private static func looksLikeDashValue(_ word: String) -> Bool {
    word.hasPrefix("-") && !word.hasPrefix("--")
      && (word.count > 2 || PlainDecimal.isPlain(word.dropFirst()))
  }

  /// `word` as a POSIX shell reads it back: as it is when it holds nothing a shell
  /// interprets, else in single quotes.
  static func shellWord(_ word: String) -> String {
    let plain =
      !word.isEmpty
      && word.unicodeScalars.allSatisfy { scalar in
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
          || ("0"..."9").contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar)
      }
    if plain { return word }
    return "'"
      + word.split(separator: "'", omittingEmptySubsequences: false)
      .joined(separator: "'\\''") + "'"
  }

  /// The name fewest edits away from `word`, when that is few enough for a typo: one edit
  /// in a word of up to five letters, two in a longer one. The first in `names` wins a tie.
  static func nearest(to word: String, in names: [String]) -> String? {
    let typed = Array(word.lowercased())
    let allowed = typed.count <= 5 ? 1 : 2
    var best: (name: String, distance: Int)?
    for name in names {
      let distance = editDistance(typed, Array(name))
      if distance <= allowed, distance < best?.distance ?? .max { best = (name, distance) }
    }
    return best?.name
  }

  /// Insertions, deletions, substitutions and swaps of two neighbours needed to turn `a`
  /// into `b` (the optimal string alignment distance): "shwo" is one swap from "show".
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    // distances[i][j]: between the first i characters of a and the first j of b.
    var distances = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { distances[i][0] = i }
    for j in 0...b.count { distances[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var distance = min(
          distances[i - 1][j] + 1, distances[i][j - 1] + 1, distances[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          distance = min(distance, distances[i - 2][j - 2] + 1)
        }
        distances[i][j] = distance
      }
    }
    return distances[a.count][b.count]
  }
}
