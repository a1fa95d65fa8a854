import Foundation
import PostgresTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `bowties browse` driven in tmux, as a person uses it, on each engine: the same scenarios
/// on a SQLite file (``BrowseSQLiteTests``) and on a PostgreSQL store
/// (``BrowsePostgreSQLTests``).
extension TmuxPane {
  /// Finds a tie in `browse`: `/`, the text, Enter.
  func find(_ text: String) throws {
    try send("/")
    try send(text, literally: true)
    try send("Enter")
  }
}

struct BrowseScenarios {
  let bowties: BowtiesSandbox
  /// `--store`'s value: the test's file, or a database's URI.
  let store: String

  /// The sample store, created by a first command.
  func prepare() throws {
    let created = try bowties(["list"], store: store)
    try #require(created.status == 0, "\(created)")
  }

  /// A pane running `browse` on the store.
  func browse(
    columns: Int = 100, rows: Int = 30, environment: [String: String] = [:],
    redirect: String = ""
  ) throws -> TmuxPane {
    try TmuxPane(
      "\(TmuxPane.quote(BowtiesSandbox.binary.path)) browse --store \(TmuxPane.quote(store))\(redirect)",
      in: bowties.folder, columns: columns, rows: rows, environment: environment)
  }

  /// Waits for the screen to show `text`, and fails the test if it never does.
  @discardableResult
  func expect(_ pane: TmuxPane, _ text: String, timeout: TimeInterval = 10) throws -> String {
    let (screen, after) = try pane.waitFor(text, timeout: timeout)
    #expect(after != nil, "the screen never showed \(text.debugDescription):\n\(screen)")
    return screen
  }

  /// Runs `change`, then waits for `pane` to show `text`, and fails the test unless it does
  /// within two seconds, as `browse` promises for changes made elsewhere.
  func expectShown(_ pane: TmuxPane, _ text: String, after change: () throws -> Void) throws {
    let started = Date()
    try change()
    let (screen, after) = try pane.waitFor(timeout: 5) { $0.contains(text) }
    let seconds = after.map { _ in Date().timeIntervalSince(started) }
    #expect(
      seconds != nil && seconds! < 2, "shown after \(String(describing: seconds)) s:\n\(screen)")
  }

  /// The pane's command ended with `status`, and gave the terminal back as it found it.
  func expectEnded(_ pane: TmuxPane, status: Int32) throws {
    #expect(pane.exitStatus() == status)
    let modes = pane.terminalModes()
    #expect(modes.before == modes.after, "stty -g before and after differ")
    try expect(pane, "pane-done")
  }

  func opensOnTheFirstTieAndQuits() throws {
    try prepare()
    let pane = try browse()
    defer { pane.stop() }
    // The footer comes last in a frame.
    let screen = try pane.waitFor { $0.contains("Red Bow Tie") && $0.contains("q quit") }.screen
    // The segments, R marked, in the app's order.
    #expect(screen.hasPrefix(" [R]  O   Y   G   B   I   V\n"), "\(screen)")
    #expect(screen.contains("  Times worn  10\n"), "\(screen)")
    #expect(screen.contains("Rating      4/5"))
    #expect(screen.contains("Favorite    yes"))
    #expect(screen.contains("q quit") && screen.contains("w wear") && screen.contains("/ find"))
    try pane.send("q")
    try expectEnded(pane, status: 0)
    // q prints nothing: the shell's lines follow each other on the main screen.
    let after = try pane.screen()
    #expect(after.contains("pane-ready\npane-done"), "\(after)")
  }

  func movesBetweenTies() throws {
    try prepare()
    let pane = try browse()
    defer { pane.stop() }
    try expect(pane, "Red Bow Tie")
    let steps: [(String, String, String)] = [
      ("Right", "Orange Bow Tie", "[O]"), ("Tab", "Yellow Bow Tie", "[Y]"),
      ("BTab", "Orange Bow Tie", "[O]"), ("Left", "Red Bow Tie", "[R]"),
      ("End", "Violet Bow Tie", "[V]"), ("Home", "Red Bow Tie", "[R]"),
      // At either end, a step further stays.
      ("Left", "Red Bow Tie", "[R]"),
    ]
    for (key, name, segment) in steps {
      try pane.send(key)
      let screen = try expect(pane, segment)
      #expect(screen.contains(name), "after \(key):\n\(screen)")
    }
    try pane.send("Escape")
    try expectEnded(pane, status: 0)
  }

  func findsATie() throws {
    try prepare()
    let pane = try browse()
    defer { pane.stop() }
    try expect(pane, "Red Bow Tie")
    try pane.send("/")
    try expect(pane, "Find a tie")
    try pane.send("gre", literally: true)
    try pane.send("Enter")
    try expect(pane, "Green Bow Tie")
    try expect(pane, "[G]")
    try pane.find("zz")
    // The words the commands use.
    try expect(pane, "no tie matches 'zz'")
    try pane.send("Escape")
    try pane.waitFor { !$0.contains("Find a tie") }
    // Enter on nothing typed asks for a tie, as the rating prompt asks for a rating.
    try pane.send("/")
    try expect(pane, "Find a tie")
    try pane.send("Enter")
    try expect(pane, "a tie is needed: a search key, a name or its beginning")
    try pane.send("Escape")
    try pane.waitFor { !$0.contains("Find a tie") }
    try pane.find("b")
    try expect(pane, "[B]")
    try pane.send("q")
    try expectEnded(pane, status: 0)
  }

  /// On a terminal narrower than the question, the question gives way to what is typed.
  func findsOnANarrowTerminal() throws {
    try prepare()
    let pane = try browse(columns: 40, rows: 20)
    defer { pane.stop() }
    try expect(pane, "Red Bow Tie")
    try pane.send("/")
    try pane.send("indigo", literally: true)
    let screen = try expect(pane, "an id): indigo")
    #expect(screen.contains("\n…"), "\(screen)")
    try pane.send("Enter")
    try expect(pane, "[I]")
    try pane.send("q")
    try expectEnded(pane, status: 0)
  }

  func wearsRatesFavorsAndUndoes() throws {
    try prepare()
    let pane = try browse()
    defer { pane.stop() }
    try expect(pane, "Times worn  10")
    try pane.send("w")
    try expect(pane, "Times worn  11")
    try expect(pane, "wore Red Bow Tie")

    try pane.send("r")
    try expect(pane, "Rating for Red Bow Tie (0 to 5, now 4)")
    try pane.send("7", literally: true)
    try pane.send("Enter")
    // The words of `bowties rate R 7`, and the question again with its field empty.
    var screen = try expect(pane, "rating 7 is outside 0…5")
    #expect(screen.contains("Rating for Red Bow Tie (0 to 5, now 4):\n"), "\(screen)")
    try pane.send("abc", literally: true)
    try pane.send("Enter")
    screen = try expect(pane, "'abc' is not a rating: use a number from 0 to 5")
    #expect(screen.contains("(0 to 5, now 4):\n"), "\(screen)")
    try pane.send("3.59", literally: true)
    try pane.send("BSpace")
    try expect(pane, "(0 to 5, now 4): 3.5")
    try pane.send("Enter")
    try expect(pane, "Rating      3.5/5")
    // Esc cancels a prompt, and changes nothing.
    try pane.send("r")
    try expect(pane, "now 3.5):")
    try pane.send("1", literally: true)
    try pane.send("Escape")
    try pane.waitFor { !$0.contains("Rating for") }
    #expect(try pane.screen().contains("Rating      3.5/5"))

    try pane.send("f")
    try expect(pane, "Favorite    no")
    try pane.send("u")
    try expect(pane, "Favorite    yes")
    try expect(pane, "undid favorite of Red Bow Tie")
    try pane.send("u")
    try expect(pane, "Rating      4/5")
    try pane.send("q")
    try expectEnded(pane, status: 0)

    // The wear went through the store as `wear` does: in the history, and in the undo
    // log under the user's name, where the undo command finds it.
    let history = try bowties(["history", "R"], store: store)
    #expect(history.stdout.split(separator: "\n").count == 2, "\(history)")
    let undone = try bowties(["undo"], store: store, environment: ["BOWTIES_USER": "tester"])
    #expect(undone.stdout.hasPrefix("undid wear of Red Bow Tie"), "\(undone)")
    let red = try bowties(["show", "R", "--json"], store: store).stdout
    #expect(red.contains("\"timesWorn\" : 10"), "\(red)")
  }

  func showsHelp() throws {
    try prepare()
    let pane = try browse()
    defer { pane.stop() }
    try expect(pane, "Red Bow Tie")
    try pane.send("?")
    let screen = try expect(pane, "undo your last change")
    #expect(screen.contains("find a tie"))
    try pane.send("x", literally: true)
    try expect(pane, "Times worn")
    try pane.send("q")
    try expectEnded(pane, status: 0)
  }

  func showsAnotherProcessChange() throws {
    try prepare()
    let pane = try browse()
    defer { pane.stop() }
    try expect(pane, "Times worn  10")
    try expectShown(pane, "Times worn  11") {
      let worn = try bowties(["wear", "R"], store: store)
      try #require(worn.status == 0, "\(worn)")
    }
    try pane.send("q")
    try expectEnded(pane, status: 0)
  }

  func closesARatingPromptWhoseTieIsRemoved() throws {
    try prepare()
    let pane = try browse()
    defer { pane.stop() }
    try expect(pane, "Red Bow Tie")
    try pane.send("r")
    try pane.send("1")
    try expect(pane, "Rating for Red Bow Tie (0 to 5, now 4): 1")
    try expectShown(pane, "Red Bow Tie was removed by another process: nothing rated") {
      let removed = try bowties(["remove", "R", "--yes"], store: store)
      try #require(removed.status == 0, "\(removed)")
    }
    // Enter no longer confirms a rating: on the main screen it does nothing.
    try pane.send("Enter")
    try pane.send("q")
    try expectEnded(pane, status: 0)
    let orange = try bowties(["show", "O", "--json"], store: store)
    #expect(orange.stdout.contains("\"rating\" : 3.5"), "\(orange)")
  }

  func redrawsWhenResized() throws {
    try prepare()
    let pane = try browse(columns: 100, rows: 30)
    defer { pane.stop() }
    var screen = try expect(pane, "Red Bow Tie")
    #expect(screen.contains("▀"), "the photo, in half-blocks:\n\(screen)")
    try pane.resize(columns: 60, rows: 20)
    screen = try pane.waitFor(timeout: 5) { !$0.contains("▀") && $0.contains("Red Bow Tie") }.screen
    for figure in [
      "Red Bow Tie", "Rating      4/5", "Times worn  10", "Last worn", "Favorite    yes",
    ] {
      #expect(screen.contains(figure), "at 60 × 20:\n\(screen)")
    }
    #expect(screen.split(separator: "\n", omittingEmptySubsequences: false).count <= 21)
    #expect(screen.contains("q quit"), "\(screen)")
    try pane.resize(columns: 100, rows: 30)
    try pane.waitFor(timeout: 5) { $0.contains("▀") }
    try pane.send("q")
    try expectEnded(pane, status: 0)
  }

  func endsOnSignals() throws {
    try prepare()
    for (signal, status) in [
      (SIGTERM, Int32(143)), (SIGHUP, 129), (SIGQUIT, 131), (SIGUSR1, 138), (SIGALRM, 142),
    ] {
      let pane = try browse()
      defer { pane.stop() }
      try expect(pane, "Red Bow Tie")
      let pid = try #require(try pane.bowtiesPID())
      kill(pid, signal)
      try expectEnded(pane, status: status)
      #expect(!(try pane.screen()).contains("bowties:"), "a signal's end prints nothing")
    }
    let pane = try browse()
    defer { pane.stop() }
    try expect(pane, "Red Bow Tie")
    try pane.send("C-c")
    try expectEnded(pane, status: 130)
  }

  /// Ctrl-Z and SIGTSTP stop it with the terminal given back, SIGSTOP too; `fg` draws it
  /// whole again, in an interactive shell with job control. Where the shell has none (the
  /// pane's `sh` script), Ctrl-Z says so and browse goes on.
  func suspendsToTheShell() throws {
    try prepare()
    let pane = try TmuxPane(
      "bash --norc --noprofile -i", in: bowties.folder,
      environment: ["PS1": "shell$ ", "HISTFILE": ""])
    defer { pane.stop() }
    try expect(pane, "shell$")
    let modesDuring = pane.folder.appendingPathComponent("stty-during")
    try pane.send(
      "\(TmuxPane.quote(BowtiesSandbox.binary.path)) browse --store \(TmuxPane.quote(store))",
      literally: true)
    try pane.send("Enter")
    try expect(pane, "q quit")
    let pid = try #require(try pane.bowtiesPID())

    // Ctrl-Z: the shell's screen and modes back, the job stopped; fg: the frame whole.
    try pane.send("C-z")
    var screen = try waitUntilStopped(pid, pane)
    #expect(!screen.contains("q quit"), "the alternate screen left:\n\(screen)")
    try pane.send("stty -g > \(TmuxPane.quote(modesDuring.path)); fg", literally: true)
    try pane.send("Enter")
    screen = try pane.waitFor { $0.contains("Red Bow Tie") && $0.contains("q quit") }.screen
    #expect(!screen.contains("Stopped"), "not drawn whole:\n\(screen)")
    let during = try String(contentsOf: modesDuring, encoding: .utf8)
    #expect(during == pane.terminalModes().before, "the modes while stopped")
    try pane.send("Right")
    try expect(pane, "Orange Bow Tie")

    // SIGTSTP from another process, then SIGSTOP, which no program can catch: each time
    // fg draws the frame whole again, in raw mode (a key still moves).
    for (signal, next) in [(SIGTSTP, "Yellow Bow Tie"), (SIGSTOP, "Green Bow Tie")] {
      kill(pid, signal)
      try waitUntilStopped(pid, pane)
      try pane.send("fg", literally: true)
      try pane.send("Enter")
      screen = try pane.waitFor { $0.contains("q quit") && !$0.contains("Stopped") }.screen
      #expect(screen.contains(" Bow Tie"), "after fg:\n\(screen)")
      try pane.send("Right")
      try expect(pane, next)
    }
    try pane.send("q")
    try expect(pane, "shell$")
    try pane.send("exit", literally: true)
    try pane.send("Enter")
    try expectEnded(pane, status: 0)

    // No job control: nothing stops, and the status line says why.
    let script = try browse()
    defer { script.stop() }
    try expect(script, "q quit")
    try script.send("C-z")
    try expect(script, "no job control")
    try script.send("Right")
    try expect(script, "Orange Bow Tie")
    try script.send("q")
    try expectEnded(script, status: 0)
  }

  /// Waits for `pid` to be stopped, with the shell's "Stopped" on the screen.
  @discardableResult
  private func waitUntilStopped(_ pid: pid_t, _ pane: TmuxPane) throws -> String {
    let (screen, after) = try pane.waitFor { screen in
      let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
      let state = stat.split(separator: ")").last?.split(separator: " ").first
      return state == "T" && screen.contains("Stopped")
    }
    #expect(after != nil, "not stopped, or the shell did not say so:\n\(screen)")
    return screen
  }

  func refusesWithoutATerminal() throws {
    try prepare()
    let piped = try bowties(["browse"], store: store)
    #expect(piped.status == 64)
    #expect(piped.stdout.isEmpty)
    #expect(piped.stderr.split(separator: "\n").count == 1, "\(piped.stderr)")
    #expect(piped.stderr.contains("show") && piped.stderr.contains("list"), "\(piped.stderr)")
    // Help needs no terminal, and a mistyped option is said as such.
    let help = try bowties(["browse", "--help"], store: store)
    #expect(help.status == 0 && help.stderr.isEmpty, "\(help)")
    #expect(help.stdout.contains("USAGE: bowties browse"), "\(help)")
    let unknown = try bowties(["browse", "--bogus"], store: store)
    #expect(
      unknown.status == 64 && unknown.stderr.contains("Unknown option '--bogus'"), "\(unknown)")
    for (environment, redirect, words) in [
      ([:], " < /dev/null", "terminal"), (["TERM": "dumb"], "", "TERM=dumb"),
      (["TERM": ""], "", "TERM"),
    ] {
      let pane = try browse(environment: environment, redirect: redirect)
      defer { pane.stop() }
      #expect(pane.exitStatus() == 64)
      let screen = try expect(pane, "pane-done")
      let lines = screen.split(separator: "\n").filter { $0.hasPrefix("bowties:") }
      #expect(lines.count == 1 && lines[0].contains(words), "\(screen)")
      #expect(screen.contains("show") && screen.contains("list"))
    }
  }

  func endsWhenTheStoreGoesAway(removing: () throws -> Void, saying words: String) throws {
    try prepare()
    let pane = try browse()
    defer { pane.stop() }
    try expect(pane, "Red Bow Tie")
    try removing()
    #expect(pane.exitStatus() == 74)
    let modes = pane.terminalModes()
    #expect(modes.before == modes.after)
    // Printed after the terminal was given back: on the main screen, which stays.
    let screen = try expect(pane, "pane-done")
    let lines = screen.split(separator: "\n").filter { $0.hasPrefix("bowties:") }
    #expect(lines.count == 1 && lines[0].contains(words), "\(screen)")
  }

  func honoursNoColor() throws {
    try prepare()
    let colored = try browse()
    defer { colored.stop() }
    try expect(colored, "Red Bow Tie")
    // tmux without COLORTERM: the palette's nearest to the red tie's #EF3024.
    #expect(
      try colored.screen(escapes: true).contains("48;5;196m  \u{1B}[49m #EF3024"), "the swatch")
    try colored.send("q")
    try expectEnded(colored, status: 0)

    let plain = try browse(environment: ["NO_COLOR": "1"])

    defer { plain.stop() }
    try expect(plain, "Red Bow Tie")
    let screen = try plain.screen(escapes: true)
    for color in ["38;2;", "48;2;", "38;5;", "48;5;"] {
      #expect(!screen.contains(color), "NO_COLOR, yet \(color):\n\(screen)")
    }
    #expect(!screen.contains("▀"))
    #expect(try plain.screen().contains("#EF3024"))
    try plain.send("q")
    try expectEnded(plain, status: 0)
  }
}

@Suite(
  "browse on a SQLite store, in tmux",
  .enabled(if: TmuxPane.isAvailable, "tmux is not installed (scripts/install-packages test)"))
struct BrowseSQLiteTests {
  let bowties = BowtiesSandbox()
  var scenarios: BrowseScenarios { BrowseScenarios(bowties: bowties, store: bowties.store) }

  @Test("opens on R with its figures and the keys, and q quits 0 printing nothing")
  func opens() throws { try scenarios.opensOnTheFirstTieAndQuits() }

  @Test("a pane's tmux server holds no file the tests had open when it started")
  func serverHoldsNoFile() throws {
    // Opened as Foundation opens files, without close-on-exec.
    let path = bowties.folder.appendingPathComponent("held").path
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    let pane = try TmuxPane("true", in: bowties.folder)
    defer { pane.stop() }
    try handle.close()
    let server = try pane.tmux("display-message", "-p", "#{pid}")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let descriptors = "/proc/\(server)/fd"
    let held = try FileManager.default.contentsOfDirectory(atPath: descriptors).compactMap {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\($0)")
    }
    #expect(!held.isEmpty && !held.contains(path), "\(server): \(held)")
  }

  @Test("Left, Right, Tab, Shift-Tab, Home and End move between ties")
  func moves() throws { try scenarios.movesBetweenTies() }

  @Test("/ finds a tie as a TIE argument does, and says why it found none")
  func finds() throws { try scenarios.findsATie() }

  @Test("on a terminal narrower than the find prompt, what is typed stays in sight")
  func findsNarrow() throws { try scenarios.findsOnANarrowTerminal() }

  @Test("w, r (refused values asked again), f and u change the store as the commands do")
  func changes() throws { try scenarios.wearsRatesFavorsAndUndoes() }

  @Test("? shows the keys")
  func help() throws { try scenarios.showsHelp() }

  @Test("another process's wear shows within 2 seconds, no key pressed")
  func live() throws { try scenarios.showsAnotherProcessChange() }

  @Test("a photo file gone from the store's folder is said as show says it")
  func missingPhoto() throws {
    try scenarios.prepare()
    let file = bowties.folder.appendingPathComponent("big.png")
    try testPNG(bytes: 150_008).write(to: file)
    let added = try bowties(
      "add", "--name", "Big", "--key", "BG", "--color", "red", "--photo", file.path)
    try #require(added.status == 0, "\(added)")
    let photos = bowties.folder.appendingPathComponent(".BowTies_SUPPORT/_EXTERNAL_DATA")
    for name in try FileManager.default.contentsOfDirectory(atPath: photos.path) {
      try FileManager.default.removeItem(at: photos.appendingPathComponent(name))
    }
    let pane = try scenarios.browse(columns: 200)
    defer { pane.stop() }
    try scenarios.expect(pane, "Red Bow Tie")
    try pane.find("BG")
    let screen = try scenarios.expect(pane, "Big: photo file ")
    #expect(screen.contains(" is missing"), "\(screen)")
    try pane.send("q")
    try scenarios.expectEnded(pane, status: 0)
  }

  @Test("w, r and f in a store without ties say there is none")
  func keysWithoutTies() throws {
    try scenarios.prepare()
    let removed = try bowties(
      ["remove", "R", "O", "Y", "G", "B", "I", "V", "--yes"], store: bowties.store)
    try #require(removed.status == 0, "\(removed)")
    let pane = try scenarios.browse()
    defer { pane.stop() }
    try scenarios.expect(pane, "No ties in the store")
    let said = "no tie to change: the store has none"
    for key in ["w", "r", "f"] {
      // Any other key clears the status line first.
      try pane.send("Home")
      _ = try pane.waitFor(timeout: 5) { !$0.contains(said) }
      try pane.send(key)
      try scenarios.expect(pane, said)
    }
    try pane.send("q")
    try scenarios.expectEnded(pane, status: 0)
  }

  @Test("the status line of a tie another process removed goes with it")
  func statusOfARemovedTie() throws {
    try scenarios.prepare()
    let pane = try scenarios.browse()
    defer { pane.stop() }
    try scenarios.expect(pane, "Red Bow Tie")
    try pane.send("f")
    try scenarios.expect(pane, "Red Bow Tie is no longer a favorite")
    let removed = try bowties(["remove", "R", "--yes"], store: bowties.store)
    try #require(removed.status == 0, "\(removed)")
    let screen = try scenarios.expect(pane, "Orange Bow Tie")
    #expect(!screen.contains("Red Bow Tie"), "\(screen)")
    try pane.send("q")
    try scenarios.expectEnded(pane, status: 0)
  }

  @Test("TERM=vt100, whose entry pads for slow lines: the screen as on any other terminal")
  func paddedTerminal() throws {
    try scenarios.prepare()
    let pane = try scenarios.browse(environment: ["TERM": "vt100"])
    defer { pane.stop() }
    let screen = try scenarios.expect(pane, "Red Bow Tie")
    #expect(screen.contains("[R]") && !screen.contains("$<"), "\(screen)")
    try pane.send("Right")
    #expect(!(try scenarios.expect(pane, "[O]")).contains("$<"))
    try pane.send("q")
    try scenarios.expectEnded(pane, status: 0)
  }

  @Test("a value longer than the screen's room ends in …, so it is seen to go on")
  func longValue() throws {
    try scenarios.prepare()
    let url = "https://example.com/" + String(repeating: "a", count: 200) + "/end"
    try #require(try bowties("edit", "R", "--url", url).status == 0)
    let pane = try scenarios.browse(columns: 80)
    defer { pane.stop() }
    let screen = try scenarios.expect(pane, "https://example.com/aaa")
    let line = try #require(screen.split(separator: "\n").first { $0.contains("example.com") })
    #expect(line.hasSuffix("aaa…"), "\(line)")
    #expect(line.count == 80, "\(line)")
    try pane.send("q")
    try scenarios.expectEnded(pane, status: 0)
  }

  @Test("a rating prompt whose tie another process removes closes, and rates no other tie")
  func promptOfARemovedTie() throws { try scenarios.closesARatingPromptWhoseTieIsRemoved() }

  @Test("a resize redraws; at 60 × 20 the details stay, without the photo")
  func resize() throws { try scenarios.redrawsWhenResized() }

  @Test(
    "SIGTERM 143, SIGHUP 129, SIGQUIT 131, SIGUSR1 138, SIGALRM 142, Ctrl-C 130: the terminal as it was"
  )
  func signals() throws { try scenarios.endsOnSignals() }

  @Test("without a terminal, or with TERM dumb or unset: 64, one line naming show and list")
  func noTerminal() throws { try scenarios.refusesWithoutATerminal() }

  @Test("NO_COLOR: no color, no photo; the details and the hex code")
  func noColor() throws { try scenarios.honoursNoColor() }

  @Test("Ctrl-Z, SIGTSTP and SIGSTOP stop it with the terminal given back; fg redraws it")
  func suspends() throws { try scenarios.suspendsToTheShell() }

  @Test("the store file removed: 74, one line after the terminal is given back")
  func storeRemoved() throws {
    try scenarios.endsWhenTheStoreGoesAway(
      removing: { try FileManager.default.removeItem(atPath: bowties.store) },
      saying: "it was removed")
  }

  @Test(
    "a user who may not write the store browses it: the owner's writes show, browse goes on",
    .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"))
  )
  func readWithoutLocks() throws {
    try scenarios.prepare()
    // root's store, in root's folder, readable by all: nobody reads it without locks.
    #expect(chmod(bowties.store, 0o644) == 0 && chmod(bowties.folder.path, 0o755) == 0)
    let command =
      BowtiesSandbox.asUser(BowtiesSandbox.nobody)
      + [BowtiesSandbox.binary.path, "browse", "--store", bowties.store]
    let pane = try TmuxPane(
      command.map(TmuxPane.quote).joined(separator: " "), in: bowties.folder)
    defer { pane.stop() }
    try scenarios.expect(pane, "Times worn  10")
    // Each of the owner's commands rewrites the file under the reader, which reads it again.
    for shown in ["Times worn  11", "Times worn  12"] {
      try scenarios.expectShown(pane, shown) { try #require(try bowties("wear", "R").status == 0) }
    }
    // The owner's own browse keeps the store open: its change is in the log, which is not
    // folded back into the file while it runs, and shows too.
    let owners = try scenarios.browse()
    defer { owners.stop() }
    try scenarios.expect(owners, "Times worn  12")
    try scenarios.expectShown(pane, "Times worn  13") { try owners.send("w") }
    try owners.send("q")
    try scenarios.expectEnded(owners, status: 0)
    try scenarios.expectShown(pane, "Times worn  14") {
      try #require(try bowties("wear", "R").status == 0)
    }

    let rated = try bowties("rate", "O", "2")
    try #require(rated.status == 0, "\(rated)")
    try pane.send("Right")
    let screen = try scenarios.expect(pane, "Orange Bow Tie")
    #expect(screen.contains("Rating      2/5"), "\(screen)")
    // Its own writes are refused on the status line, as on a read-only store.
    try pane.send("w")
    try scenarios.expect(pane, "cannot write the store")
    try pane.send("q")
    try scenarios.expectEnded(pane, status: 0)
    // The owner still writes the store, and the log its commands keep while nobody reads
    // through it is folded back and removed.
    #expect(try bowties("wear", "O").status == 0)
    let beside = try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path)
    #expect(!beside.contains { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }, "\(beside)")
  }

  @Test(
    "no terminfo database: the built-in entry for tmux-256color; an unknown TERM refused",
    .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"))
  )
  func withoutTerminfo() throws {
    try scenarios.prepare()
    // A mount namespace where every terminfo folder is empty.
    func command(_ term: String) -> String {
      let hide = ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
        .map { "mount -t tmpfs none \($0)" }.joined(separator: " && ")
      return
        "unshare -m sh -c \(TmuxPane.quote("\(hide) && TERM=\(term) exec \(TmuxPane.quote(BowtiesSandbox.binary.path)) browse --store \(TmuxPane.quote(bowties.store))"))"
    }
    let pane = try TmuxPane(command("tmux-256color"), in: bowties.folder)
    defer { pane.stop() }
    let screen = try pane.waitFor("Red Bow Tie").screen
    #expect(screen.contains("[R]"), "\(screen)")
    try pane.send("Right")
    try pane.waitFor("[O]")
    try pane.send("q")
    #expect(pane.exitStatus() == 0)
    let modes = pane.terminalModes()
    #expect(modes.before == modes.after)

    let unknown = try TmuxPane(command("xterm-kitty"), in: bowties.folder)

    defer { unknown.stop() }
    #expect(unknown.exitStatus() == 64)
    let refusal = try unknown.waitFor("pane-done").screen
    #expect(refusal.contains("TERM=xterm-kitty is not in the terminfo database"), "\(refusal)")
  }
}

@Suite(
  "browse on a PostgreSQL store, in tmux",
  .enabled(if: TmuxPane.isAvailable, "tmux is not installed (scripts/install-packages test)"),
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct BrowsePostgreSQLTests {
  let bowties = BowtiesSandbox()
  let server = PostgresTestServer.shared!
  let database: (uri: String, role: String, password: String)

  init() throws {
    database = try server.makeDatabase()
  }

  var scenarios: BrowseScenarios { BrowseScenarios(bowties: bowties, store: database.uri) }

  @Test("opens on R with its figures and the keys, and q quits 0 printing nothing")
  func opens() throws { try scenarios.opensOnTheFirstTieAndQuits() }

  @Test("Left, Right, Tab, Shift-Tab, Home and End move between ties")
  func moves() throws { try scenarios.movesBetweenTies() }

  @Test("/ finds a tie as a TIE argument does, and says why it found none")
  func finds() throws { try scenarios.findsATie() }

  @Test("w, r (refused values asked again), f and u change the store as the commands do")
  func changes() throws { try scenarios.wearsRatesFavorsAndUndoes() }

  @Test("? shows the keys")
  func help() throws { try scenarios.showsHelp() }

  @Test("another machine's wear shows within 2 seconds, no key pressed")
  func live() throws { try scenarios.showsAnotherProcessChange() }

  @Test("a resize redraws; at 60 × 20 the details stay, without the photo")
  func resize() throws { try scenarios.redrawsWhenResized() }

  @Test(
    "SIGTERM 143, SIGHUP 129, SIGQUIT 131, SIGUSR1 138, SIGALRM 142, Ctrl-C 130: the terminal as it was"
  )
  func signals() throws { try scenarios.endsOnSignals() }

  @Test("without a terminal, or with TERM dumb or unset: 64, one line naming show and list")
  func noTerminal() throws { try scenarios.refusesWithoutATerminal() }

  @Test("the server ends the connection: 74, one line after the terminal is given back")
  func connectionCut() throws {
    let role = database.role
    try scenarios.endsWhenTheStoreGoesAway(
      removing: {
        try server.superuser(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(role)' "
            + "AND pid <> pg_backend_pid()")
      },
      saying: "connection to the server was lost")
  }
}
