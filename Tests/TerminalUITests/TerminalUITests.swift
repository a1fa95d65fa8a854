import Foundation
import Testing

@testable import TerminalUI

/// The terminal's capabilities, as libtinfo reads them and as the program carries them.
@Suite("Terminal capabilities")
struct CapabilityTests {
  @Test(
    "the built-in entries are what the terminfo database says",
    arguments: ["xterm-256color", "screen", "tmux-256color", "linux"])
  func builtInMatchesDatabase(term: String) throws {
    let database = try #require(
      TerminalCapabilities.fromDatabase(term: term),
      "no \(term) in this machine's terminfo database (apt-get install ncurses-base)")
    let builtIn = try #require(TerminalCapabilities.builtIn(term: term))
    #expect(builtIn.strings == database.strings, "run scripts/gen-terminfo-fallback.py")
    #expect(builtIn.colors == database.colors)
  }

  @Test("an unknown type is refused with the types known without a database")
  func unknown() {
    #expect(throws: TerminalError.unknownTerminal("no-such-terminal")) {
      try TerminalCapabilities.load(term: "no-such-terminal")
    }
    #expect(
      TerminalError.unknownTerminal("x").message.contains(
        "linux, screen, tmux-256color, xterm-256color"))
  }

  @Test("padding for a slow line (vt100's $<5>) is left out, not sent as text")
  func padding() throws {
    let vt100 = try #require(
      TerminalCapabilities.fromDatabase(term: "vt100"),
      "no vt100 in this machine's terminfo database (apt-get install ncurses-base)")
    #expect(vt100.strings.values.allSatisfy { !$0.contains("$<") }, "\(vt100.strings)")
    #expect(vt100["clear"] == "\u{1B}[H\u{1B}[J")
    #expect(vt100.moveCursor(row: 2, column: 4) == "\u{1B}[3;5H")
    #expect(TerminalCapabilities.withoutPadding("a$<5>b$<2*/>c$<1.5*>d") == "abcd")
    // Not padding: kept as it is.
    #expect(TerminalCapabilities.withoutPadding("$<x>$<>$<5") == "$<x>$<>$<5")
  }

  @Test("a type that cannot move the cursor is refused")
  func tooLimited() throws {
    // dumb is in the database, with neither cup nor clear.
    #expect(throws: TerminalError.tooLimited("dumb", missing: ["cup", "clear", "el"])) {
      try TerminalCapabilities.load(term: "dumb")
    }
  }

  /// libtinfo's loaded entry and expansion buffer are globals: the test runner's parallel
  /// tests reached them at once and crashed inside libtinfo, until TerminalCapabilities
  /// took one lock around them.
  @Test("libtinfo from many threads at once: every answer as from one")
  func concurrentUse() async throws {
    let expected = try #require(TerminalCapabilities.fromDatabase(term: "xterm-256color"))
    let answers = await withTaskGroup(of: Bool.self) { group in
      for task in 0..<8 {
        group.addTask {
          (0..<2000).allSatisfy { round in
            let term = ["xterm-256color", "screen", "linux"][(task + round) % 3]
            guard let loaded = TerminalCapabilities.fromDatabase(term: term) else { return false }
            return (term != "xterm-256color" || loaded.strings == expected.strings)
              && expected.moveCursor(row: round % 50, column: task)
                == "\u{1B}[\(round % 50 + 1);\(task + 1)H"
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(answers == Array(repeating: true, count: 8))
  }

  @Test("cup is expanded by libtinfo, counted from 0 as terminfo counts")
  func moveCursor() throws {
    let xterm = try #require(TerminalCapabilities.builtIn(term: "xterm-256color"))
    #expect(xterm.moveCursor(row: 0, column: 0) == "\u{1B}[1;1H")
    #expect(xterm.moveCursor(row: 19, column: 59) == "\u{1B}[20;60H")
  }
}

/// Keys from the bytes terminals send.
@Suite("Key decoding")
struct KeyDecodingTests {
  func decode(_ text: String, term: String = "xterm-256color", flush: Bool = true) -> [Key] {
    var decoder = KeyDecoder(capabilities: TerminalCapabilities.builtIn(term: term)!)
    var keys = decoder.decode(Array(text.utf8))
    if flush { keys += decoder.flushPending() }
    return keys
  }

  @Test("arrows in both cursor-key modes, Home and End in each terminal's forms")
  func arrows() {
    #expect(decode("\u{1B}OD\u{1B}[D\u{1B}OC\u{1B}[C") == [.left, .left, .right, .right])
    #expect(decode("\u{1B}OH\u{1B}[H\u{1B}OF\u{1B}[F") == [.home, .home, .end, .end])
    #expect(decode("\u{1B}[1~\u{1B}[4~", term: "tmux-256color") == [.home, .end])
    #expect(decode("\u{1B}[Z\t") == [.backTab, .tab])
    // The Linux console's Shift-Tab is its own.
    #expect(decode("\u{1B}\t", term: "linux") == [.backTab])
  }

  @Test("Enter, Backspace both ways, Ctrl-C, text in UTF-8")
  func bytes() {
    #expect(decode("\r\n") == [.enter, .enter])
    #expect(decode("\u{7F}\u{08}") == [.backspace, .backspace])
    #expect(decode("\u{03}") == [.control("c")])
    #expect(
      decode("4.5é☃") == [
        .character("4"), .character("."), .character("5"), .character("é"), .character("☃"),
      ])
  }

  @Test("a lone ESC waits for more, and is Escape once nothing came")
  func escape() {
    var decoder = KeyDecoder(capabilities: TerminalCapabilities.builtIn(term: "xterm-256color")!)
    #expect(decoder.decode([0x1B]) == [])
    #expect(decoder.hasPending)
    #expect(decoder.flushPending() == [.escape])
    // A sequence cut between two reads is put together.
    #expect(decoder.decode([0x1B, UInt8(ascii: "[")]) == [])
    #expect(decoder.decode([UInt8(ascii: "C")]) == [.right])
    // ESC and a letter in one read: Alt and the letter, which nothing takes; nor Escape,
    // nor the letter.
    #expect(decode("\u{1B}q") == [.unknown])
    #expect(decode("\u{1B}wq") == [.unknown, .character("q")])
    // ESC read alone, then a letter: Escape, then the letter.
    var split = KeyDecoder(capabilities: TerminalCapabilities.builtIn(term: "xterm-256color")!)
    #expect(split.decode([0x1B]) == [])
    #expect(split.flushPending() == [.escape])
    #expect(split.decode([UInt8(ascii: "q")]) == [.character("q")])
    // ESC ESC: Escape, then what the second begins.
    #expect(decode("\u{1B}\u{1B}") == [.escape, .escape])
  }

  @Test("a sequence bowties does not know is read whole, not taken for keys")
  func unknownSequences() {
    #expect(decode("\u{1B}[15~q") == [.unknown, .character("q")])
    #expect(decode("\u{1B}[1;5Cq") == [.unknown, .character("q")])
    #expect(decode("\u{1B}OPq") == [.unknown, .character("q")])
  }

  @Test("a UTF-8 character split between two reads is put together; a bad byte is no key")
  func splitText() {
    var decoder = KeyDecoder(capabilities: TerminalCapabilities.builtIn(term: "xterm-256color")!)
    #expect(decoder.decode([0xC3]) == [])
    #expect(decoder.decode([0xA9]) == [.character("é")])
    #expect(decode("\u{FF}") == [.character("ÿ")])
    #expect(decoder.decode([0xFF, UInt8(ascii: "a")]) == [.unknown, .character("a")])
  }
}

/// Frames: rows drawn when they change, images placed apart, text cut to the screen.
@Suite("Frames")
struct FrameTests {
  let xterm = TerminalCapabilities.builtIn(term: "xterm-256color")!

  @Test("the first frame clears and draws every row; the next sends only what changed")
  func changedRows() {
    var renderer = FrameRenderer(capabilities: xterm)
    var frame = Frame(columns: 20, rows: 3)
    frame.set(0, "one")
    frame.set(1, "two")
    frame.set(2, "three")
    let first = renderer.render(frame)
    #expect(first.contains("\u{1B}[H\u{1B}[2J"))
    #expect(first.contains("one") && first.contains("two") && first.contains("three"))
    frame.set(1, "TWO")
    let second = renderer.render(frame)
    #expect(!second.contains("\u{1B}[2J"))
    #expect(second.contains("\u{1B}[2;1H") && second.contains("TWO"))
    #expect(!second.contains("one") && !second.contains("three"))
    #expect(renderer.render(frame) == xterm["civis"])
  }

  @Test("a size change, or invalidate(), draws the whole screen again")
  func whole() {
    var renderer = FrameRenderer(capabilities: xterm)
    var frame = Frame(columns: 20, rows: 3)
    frame.set(0, "one")
    _ = renderer.render(frame)
    renderer.invalidate()
    #expect(renderer.render(frame).contains("\u{1B}[2J"))
    var bigger = Frame(columns: 30, rows: 4)
    bigger.set(0, "one")
    #expect(renderer.render(bigger).contains("\u{1B}[2J"))
  }

  @Test("an image is sent once, and erased with its cells when it changes")
  func image() {
    var renderer = FrameRenderer(capabilities: xterm)
    var frame = Frame(columns: 40, rows: 6)
    frame.image = Frame.Image(row: 1, column: 1, columns: 10, rows: 3, payload: "<SIXEL-A>")
    frame.set(1, "Red Bow Tie", start: 13)
    #expect(renderer.render(frame).contains("<SIXEL-A>"))
    frame.set(2, "  Key  R", start: 13)
    let text = renderer.render(frame)
    #expect(!text.contains("<SIXEL-A>"))
    #expect(text.contains("\u{1B}[3;14H"))
    frame.image?.payload = "<SIXEL-B>"
    let changed = renderer.render(frame)
    #expect(changed.contains("\u{1B}[2;2H\u{1B}[K") && changed.contains("<SIXEL-B>"))
    #expect(changed.contains("Red Bow Tie"))
  }

  @Test("a frame's text is cut at the edge of the screen")
  func cells() {
    var renderer = FrameRenderer(capabilities: xterm)
    var frame = Frame(columns: 5, rows: 1)
    frame.set(0, "abcdefgh")
    let drawn = renderer.render(frame)
    #expect(drawn.contains("abcde") && !drawn.contains("abcdef"))
    // A full row is not erased after: the terminal waits to wrap at its last column.
    #expect(!drawn.contains("abcde\u{1B}(B\u{1B}[m\u{1B}[K"))
  }
}
