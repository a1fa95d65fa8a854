import Foundation
import Testing

/// The shell completions `make install` puts in place, run by bash as it runs them at a
/// TAB: the script the binary generates, sourced, then its function called with the
/// words typed so far.
@Suite("Shell completion")
struct CompletionTests {
  /// Sources the completion script (`$1`), splits the line (`$2`) into words as bash does
  /// for a line without quotes, the last word the one being completed (empty after a
  /// trailing space), calls the script's function and prints what it offers, one a line.
  static let complete = """
    source "$1"
    line="$2"
    read -ra COMP_WORDS <<< "$line"
    [[ "$line" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMP_LINE="$line"
    COMP_POINT=${#line}
    _bowties bowties "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf '%s\\n' "${COMPREPLY[@]}"
    """

  /// What bash offers at the end of `line`, `bowties` being the binary under test.
  func offers(_ line: String, in bowties: BowtiesSandbox) throws -> [String] {
    let script = bowties.folder.appendingPathComponent("bowties.bash")
    if !FileManager.default.fileExists(atPath: script.path) {
      let generated = try bowties("--generate-completion-script", "bash", withStore: false)
      try Data(generated.stdout.utf8).write(to: script)
    }
    let folder = BowtiesSandbox.binary.deletingLastPathComponent().path
    let result = try bowties.run(
      "/bin/bash", ["-c", Self.complete, "complete", script.path, line],
      environment: ["PATH": "\(folder):/usr/bin:/bin", "BOWTIES_STORE": bowties.store])
    #expect(result.status == 0 && result.stderr.isEmpty, "\(line): \(result)")
    return result.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
  }

  @Test("a TIE completes to the store's search keys that begin with what is typed")
  func tieKeys() throws {
    let bowties = BowtiesSandbox()
    try bowties("add", "--name", "Indigo Two", "--key", "I2")
    let keys = ["B", "G", "I", "I2", "O", "R", "V", "Y"]
    #expect(try offers("bowties wear ", in: bowties) == keys)
    #expect(try offers("bowties show I", in: bowties) == ["I", "I2"])
    #expect(try offers("bowties remove R ", in: bowties) == keys)
    #expect(try offers("bowties history ", in: bowties).contains("I2"))
    #expect(try offers("bowties show --store \(bowties.store) Y", in: bowties) == ["Y"])
  }

  @Test("at a TAB in an interactive bash, a TIE completes from a store named in quotes")
  func interactiveBash() throws {
    try #require(TmuxPane.isAvailable)
    let bowties = BowtiesSandbox()
    let store = bowties.folder.appendingPathComponent("my ties.sqlite").path
    #expect(try bowties(["add", "--name", "Indigo Two", "--key", "I2"], store: store).status == 0)
    _ = try offers("bowties list ", in: bowties)  // writes the script
    let folder = BowtiesSandbox.binary.deletingLastPathComponent().path
    let pane = try TmuxPane(
      "bash --norc --noprofile -i", in: bowties.folder,
      environment: ["PATH": "\(folder):/usr/bin:/bin", "PS1": "$ "])
    defer { pane.stop() }
    try pane.send("source bowties.bash; clear", "Enter")
    // As bash hands them over: 'my ties.sqlite' with its quotes, my\ ties.sqlite with its
    // backslash.
    for typed in ["'my ties.sqlite'", #""my ties.sqlite""#, #"my\ ties.sqlite"#] {
      try pane.send("bowties wear --store \(typed) I", literally: true)
      try pane.send("Tab", "Tab")
      let (screen, after) = try pane.waitFor { $0.contains("I2") }
      #expect(after != nil, "\(typed):\n\(screen)")
      try pane.send("C-c")
      try pane.send("clear", "Enter")
      try pane.waitFor { !$0.contains("I2") }
    }
  }

  @Test("a store not there yet, or a file without a schema, offers no keys, and creates none")
  func noStore() throws {
    let bowties = BowtiesSandbox()
    let missing = bowties.folder.appendingPathComponent("later/BowTies.sqlite").path
    #expect(try offers("bowties wear --store \(missing) ", in: bowties).isEmpty)
    #expect(try offers("bowties wear ", in: bowties).isEmpty)
    let left = try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path)
    #expect(left == ["bowties.bash"])
    #expect(FileManager.default.createFile(atPath: bowties.store, contents: nil))
    #expect(try offers("bowties wear ", in: bowties).isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)).isEmpty)
    let beside = try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path)
    #expect(beside.sorted() == ["BowTies.sqlite", "bowties.bash"])
    try bowties.sqlite("VACUUM")
    let header = try Data(contentsOf: URL(fileURLWithPath: bowties.store))
    #expect(try offers("bowties wear ", in: bowties).isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: bowties.store)) == header)
    let after = try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path)
    #expect(after.sorted() == ["BowTies.sqlite", "bowties.bash"])
  }

  @Test("files complete where a command takes a path: --store, seed, backup, --output, --photo")
  func paths() throws {
    let bowties = BowtiesSandbox()
    for name in ["SampleData.plist", "ties.sqlite", "red.png"] {
      try Data().write(to: bowties.folder.appendingPathComponent(name))
    }
    for (line, file) in [
      ("bowties seed Sam", "SampleData.plist"), ("bowties list --store ti", "ties.sqlite"),
      ("bowties backup ti", "ties.sqlite"), ("bowties restore ti", "ties.sqlite"),
      ("bowties export --output Sam", "SampleData.plist"),
      ("bowties report --output ti", "ties.sqlite"), ("bowties photo R --output re", "red.png"),
      ("bowties add --photo re", "red.png"), ("bowties edit R --photo re", "red.png"),
    ] {
      #expect(try offers(line, in: bowties) == [file], "\(line)")
    }
  }
}
