import Foundation
import Testing

/// The README shows what the binary prints. Its tour is every ```` ```console ```` block,
/// in order: each `$ bowties …` line runs, on one store made fresh for the run, and what it
/// printed (stderr, then stdout) must be the lines under it; `$ echo $?` prints the status
/// of the command before. Its exit-status block is what `bowties --help` prints from
/// `EXIT STATUS:` to the next blank line. `BOWTIES_UPDATE_GOLDEN=1` rewrites both blocks
/// from the binary instead of comparing, after an intended change of output.
@Suite(.serialized)
struct ReadmeTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let readme = repository.appendingPathComponent("README.md")
  static let examples = repository.appendingPathComponent("docs/examples")

  /// Where the tour's home folder is said to be: the test's own folder has a new name each
  /// run, and messages that name a path show it as this.
  static let shownHome = "/home/you"

  /// A reader's environment, fixed so that the output does not depend on the machine:
  /// no terminal (stdin is /dev/null, stdout and stderr are pipes), no color.
  static func environment(home: String) -> [String: String] {
    [
      "HOME": home, "TZ": "UTC", "LANG": "en_US.UTF-8", "COLUMNS": "80", "BOWTIES_USER": "you",
      "PATH": "/usr/bin:/bin",
    ]
  }

  static var updating: Bool { ProcessInfo.processInfo.environment["BOWTIES_UPDATE_GOLDEN"] == "1" }

  @Test("the README's tour is what the binary prints, run in order on one new store")
  func tour() throws {
    var lines = try Self.readLines()
    let commands = Self.tourCommands(in: lines)
    // A README without a tour would pass: it has one, and a long one.
    #expect(commands.count >= 15, "found \(commands.count) commands in README.md's console blocks")

    let bowties = BowtiesSandbox()
    for name in try FileManager.default.contentsOfDirectory(atPath: Self.examples.path)
    where !name.hasSuffix(".py") {
      try FileManager.default.copyItem(
        at: Self.examples.appendingPathComponent(name),
        to: bowties.folder.appendingPathComponent(name))
    }
    let home = bowties.folder.path

    var lastStatus: Int32 = 0
    var printed: [[String]] = []
    for command in commands {
      let words: [String]
      do {
        words = try ShellWords.split(command.text)
      } catch {
        Issue.record("README.md:\(command.line + 1): \(error)")
        printed.append(command.output)
        continue
      }
      if words == ["echo", "$?"] {
        printed.append(["\(lastStatus)"])
        continue
      }
      guard words.first == "bowties" else {
        Issue.record(
          "README.md:\(command.line + 1): the tour runs only `bowties …` and `echo $?`, not `\(command.text)`"
        )
        printed.append(command.output)
        continue
      }
      let result = try bowties.run(
        BowtiesSandbox.binary.path, Array(words.dropFirst()),
        environment: Self.environment(home: home))
      lastStatus = result.status
      let shown = (Self.lines(result.stderr) + Self.lines(result.stdout)).map {
        $0.replacingOccurrences(of: home, with: Self.shownHome)
      }
      printed.append(shown)
    }

    if Self.updating {
      // From the last block up, so that the line numbers above stay right.
      for (command, output) in zip(commands, printed).reversed() {
        lines.replaceSubrange(command.outputRange, with: output)
      }
      try Self.write(lines)
      return
    }
    for (command, output) in zip(commands, printed) where output != command.output {
      Issue.record(
        """
        README.md:\(command.line + 1): `\(command.text)` printed
        \(output.joined(separator: "\n"))
        where the README shows
        \(command.output.joined(separator: "\n"))
        (BOWTIES_UPDATE_GOLDEN=1 swift test --filter ReadmeTests rewrites the README's blocks)
        """)
    }
  }

  @Test("the README's exit-status block is what bowties --help prints")
  func exitStatus() throws {
    var lines = try Self.readLines()
    let bowties = BowtiesSandbox()
    let help = try bowties.run(
      BowtiesSandbox.binary.path, ["--help"],
      environment: Self.environment(home: bowties.folder.path))
    #expect(help.status == 0)
    let helpLines = Self.lines(help.stdout)
    guard let start = helpLines.firstIndex(where: { Self.isExitStatusHeading($0) }) else {
      Issue.record(
        """
        bowties --help prints no line "EXIT STATUS:", so the README's exit-status block \
        cannot be checked against it; the help should print the exit-code table as \
        "EXIT STATUS:" followed by "  CODE  meaning" lines
        """)
      return
    }
    let end =
      helpLines[start...].firstIndex(where: { $0.allSatisfy(\.isWhitespace) }) ?? helpLines.endIndex
    let table = Array(helpLines[start..<end])

    guard let block = Self.exitStatusBlock(in: lines) else {
      Issue.record(
        "README.md has no fenced block starting with the line \"EXIT STATUS:\" for the exit codes")
      return
    }
    if Self.updating {
      lines.replaceSubrange(block, with: table)
      try Self.write(lines)
      return
    }
    #expect(
      Array(lines[block]) == table,
      "README.md's exit-status block differs from bowties --help (BOWTIES_UPDATE_GOLDEN=1 rewrites it)"
    )
  }

  // MARK: - The README's blocks

  /// A newcomer's first minutes: the first fenced block under `## Start` holds two
  /// commands, one a line (a comment after each allowed), which .ci/run reads: the first
  /// builds and shows the red tie, the second runs every test.
  @Test("the README's Start block is the two start scripts")
  func start() throws {
    let lines = try Self.readLines()
    let heading = try #require(lines.firstIndex(of: "## Start"), "README.md has no ## Start")
    let open = try #require(lines[heading...].firstIndex { $0.hasPrefix("```") })
    let close = try #require(lines[(open + 1)...].firstIndex { $0.hasPrefix("```") })
    #expect(
      !lines[(heading + 1)..<open].contains { $0.hasPrefix("#") },
      "the block is under ## Start, before any other heading")
    let commands = try lines[(open + 1)..<close].filter { !$0.isEmpty }.map(ShellWords.split)
    #expect(commands == [["scripts/start"], ["scripts/test"]])
    for script in commands.joined() {
      #expect(
        FileManager.default.isExecutableFile(
          atPath: Self.repository.appendingPathComponent(script).path), "\(script)")
    }
  }

  struct Command {
    /// The command line, after `$ `.
    var text: String
    /// The index of its line in the README.
    var line: Int
    /// The lines under it up to the next command or the end of the block.
    var outputRange: Range<Int>
    var output: [String]
  }

  static func readLines() throws -> [String] {
    let text = try String(contentsOf: readme, encoding: .utf8)
    return text.components(separatedBy: "\n")
  }

  static func write(_ lines: [String]) throws {
    try lines.joined(separator: "\n").write(to: readme, atomically: true, encoding: .utf8)
  }

  /// The `$ ` lines of every ```` ```console ```` block and what is under each.
  static func tourCommands(in lines: [String]) -> [Command] {
    var commands: [Command] = []
    var index = 0
    while index < lines.count {
      guard lines[index].hasPrefix("```console") else {
        index += 1
        continue
      }
      index += 1
      while index < lines.count, !lines[index].hasPrefix("```") {
        guard lines[index].hasPrefix("$ ") else {
          index += 1
          continue
        }
        let line = index
        index += 1
        let outputStart = index
        while index < lines.count, !lines[index].hasPrefix("```"), !lines[index].hasPrefix("$ ") {
          index += 1
        }
        commands.append(
          Command(
            text: String(lines[line].dropFirst(2)), line: line, outputRange: outputStart..<index,
            output: Array(lines[outputStart..<index])))
      }
      index += 1
    }
    return commands
  }

  static func isExitStatusHeading(_ line: String) -> Bool {
    line.trimmingCharacters(in: .whitespaces) == "EXIT STATUS:"
  }

  /// The lines of the fenced block whose first line is `EXIT STATUS:`, the heading included.
  static func exitStatusBlock(in lines: [String]) -> Range<Int>? {
    for index in lines.indices.dropLast() where lines[index].hasPrefix("```") {
      guard isExitStatusHeading(lines[index + 1]) else { continue }
      let end = lines[(index + 1)...].firstIndex(where: { $0.hasPrefix("```") }) ?? lines.endIndex
      return (index + 1)..<end
    }
    return nil
  }

  /// A program's output as lines, without the newline that ends the last.
  static func lines(_ output: String) -> [String] {
    var lines = output.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    return lines
  }
}

/// Splits a command line as a POSIX shell does for the tour's lines: words separated by
/// blanks, single and double quotes, a backslash before a character in double quotes or
/// outside quotes, and a comment from a `#` that starts a word. No expansions: `$?` is
/// kept as it is written.
enum ShellWords {
  struct Unterminated: Error, CustomStringConvertible {
    var description: String { "a quote is not closed" }
  }

  static func split(_ line: String) throws -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var characters = line.makeIterator()
    while let character = characters.next() {
      switch character {
      case " ", "\t":
        if inWord { words.append(word) }
        word = ""
        inWord = false
      case "#" where !inWord:
        return words
      case "'":
        inWord = true
        while true {
          guard let next = characters.next() else { throw Unterminated() }
          if next == "'" { break }
          word.append(next)
        }
      case "\"":
        inWord = true
        while true {
          guard let next = characters.next() else { throw Unterminated() }
          if next == "\"" { break }
          if next == "\\", let escaped = characters.next() {
            if !"$`\"\\".contains(escaped) { word.append("\\") }
            word.append(escaped)
          } else {
            word.append(next)
          }
        }
      case "\\":
        inWord = true
        if let escaped = characters.next() { word.append(escaped) }
      default:
        inWord = true
        word.append(character)
      }
    }
    if inWord { words.append(word) }
    return words
  }
}
