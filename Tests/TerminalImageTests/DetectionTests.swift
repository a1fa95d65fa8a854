import ImageCodecs
import Testing

@testable import TerminalImage

/// Which protocol and colors a given environment gets: the rules in docs/usage.md,
/// "Photos in the terminal", one by one.
@Suite("Detection")
struct DetectionTests {
  func detect(
    _ environment: [String: String], terminal: Bool = true,
    override: TerminalGraphics.Override? = nil, attributes: [Int]? = nil
  ) -> TerminalGraphics {
    TerminalGraphics.detect(
      environment: environment, outputIsTerminal: terminal, override: override,
      deviceAttributes: { attributes })
  }

  @Test("a pipe gets truecolor half-blocks, whatever the terminal would be")
  func pipe() {
    #expect(
      detect(["TERM": "xterm-kitty"], terminal: false)
        == .init(imageProtocol: .halfBlocks, depth: .truecolor))
    #expect(
      detect(["TERM": "xterm-256color"], terminal: false, attributes: [63, 4]).imageProtocol
        == .halfBlocks)
  }

  @Test("kitty, Ghostty, iTerm2 and WezTerm by their variables, in truecolor")
  func named() {
    #expect(detect(["TERM": "xterm-kitty"]) == .init(imageProtocol: .kitty, depth: .truecolor))
    #expect(detect(["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"]).imageProtocol == .kitty)
    #expect(detect(["TERM": "xterm-ghostty"]).imageProtocol == .kitty)
    #expect(
      detect(["TERM_PROGRAM": "iTerm.app", "TERM": "xterm-256color"])
        == .init(imageProtocol: .iTerm2, depth: .truecolor))
    #expect(detect(["LC_TERMINAL": "iTerm2"]).imageProtocol == .iTerm2)
    #expect(detect(["TERM_PROGRAM": "WezTerm"]).imageProtocol == .iTerm2)
    #expect(detect(["KITTY_WINDOW_ID": ""]).imageProtocol == .halfBlocks)
  }

  @Test("inside tmux or screen, half-blocks even in kitty or with sixel announced")
  func multiplexers() {
    #expect(detect(["TERM": "tmux-256color", "KITTY_WINDOW_ID": "3"]).imageProtocol == .halfBlocks)
    #expect(
      detect(["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"]).imageProtocol
        == .halfBlocks)
    #expect(
      detect(["TERM": "screen.xterm-256color"], attributes: [63, 4]).imageProtocol == .halfBlocks)
    #expect(
      detect(["TERM": "xterm", "STY": "1.pts-0.host"], attributes: [63, 4]).imageProtocol
        == .halfBlocks)
    #expect(detect(["TERM": "tmux-256color", "TMUX": "x"]).depth == .palette256)
    #expect(
      detect(["TERM": "tmux-256color", "TMUX": "x", "COLORTERM": "truecolor"]).depth == .truecolor)
  }

  @Test("sixel only when the device attributes list feature 4")
  func sixel() {
    #expect(detect(["TERM": "xterm"], attributes: [63, 1, 2, 4, 6, 9]).imageProtocol == .sixel)
    #expect(detect(["TERM": "xterm"], attributes: [62, 1, 2, 6, 22]).imageProtocol == .halfBlocks)
    #expect(detect(["TERM": "xterm"], attributes: [4]).imageProtocol == .halfBlocks)
    #expect(detect(["TERM": "xterm"], attributes: nil).imageProtocol == .halfBlocks)
    // The Linux console and dumb terminals are not asked.
    var asked = false
    _ = TerminalGraphics.detect(
      environment: ["TERM": "linux"], outputIsTerminal: true,
      deviceAttributes: {
        asked = true
        return [63, 4]
      })
    #expect(!asked)
  }

  @Test("a swatch's colors follow the photo's: the palette unless the terminal says truecolor")
  func swatchDepth() {
    func depth(_ environment: [String: String], override: TerminalGraphics.Override? = nil)
      -> ColorDepth
    {
      TerminalGraphics.colorDepth(
        environment: environment, outputIsTerminal: true, override: override)
    }
    #expect(depth(["TERM": "xterm-256color"]) == .palette256)
    #expect(depth(["TERM": "xterm-256color", "COLORTERM": "truecolor"]) == .truecolor)
    #expect(depth(["TERM": "xterm-kitty"]) == .truecolor)
    #expect(depth(["COLORTERM": "truecolor"], override: .halfBlocks256) == .palette256)
  }

  @Test("truecolor from COLORTERM or -direct; else the 256-color palette")
  func depth() {
    #expect(detect(["TERM": "xterm-256color", "COLORTERM": "truecolor"]).depth == .truecolor)
    #expect(detect(["TERM": "xterm-256color", "COLORTERM": "24bit"]).depth == .truecolor)
    #expect(detect(["TERM": "xterm-direct"]).depth == .truecolor)
    #expect(detect(["TERM": "xterm-256color"]).depth == .palette256)
    #expect(detect(["TERM": "xterm-256color", "COLORTERM": "yes"]).depth == .palette256)
    #expect(detect(["TERM": "linux"]).depth == .palette256)
  }

  @Test("an override wins, even into a pipe; halfblocks-256 forces the palette")
  func overrides() {
    #expect(detect(["TERM": "xterm"], override: .kitty).imageProtocol == .kitty)
    #expect(detect([:], terminal: false, override: .sixel).imageProtocol == .sixel)
    #expect(
      detect(["TERM": "xterm-kitty"], override: .halfBlocks)
        == .init(imageProtocol: .halfBlocks, depth: .truecolor))
    #expect(
      detect(["COLORTERM": "truecolor"], terminal: false, override: .halfBlocks256)
        == .init(imageProtocol: .halfBlocks, depth: .palette256))
    #expect(TerminalGraphics.Override(rawValue: "iterm2") == .iTerm2)
    #expect(TerminalGraphics.Override(rawValue: "png") == nil)
  }

  @Test("device attribute replies are parsed, with or without noise before them")
  func deviceAttributes() {
    func parse(_ text: String) -> [Int]? {
      TerminalGraphics.parseDeviceAttributes(Array(text.utf8))
    }
    #expect(parse("\u{1B}[?63;1;2;4;6;9;15;22c") == [63, 1, 2, 4, 6, 9, 15, 22])
    #expect(parse("abc\u{1B}[?62;22c") == [62, 22])
    #expect(parse("\u{1B}[?1;2c") == [1, 2])
    #expect(parse("\u{1B}[?63;1") == nil, "not finished yet")
    #expect(parse("\u{1B}[?6x;4c") == nil)
    #expect(parse("hello") == nil)
    #expect(TerminalGraphics.announcesSixel([63, 1, 4]))
    #expect(!TerminalGraphics.announcesSixel([4, 1]))
  }

  @Test("the background comes from COLORFGBG's last field, else dark")
  func background() {
    #expect(TerminalBackground.from(environment: [:]) == RGB(0, 0, 0))
    #expect(TerminalBackground.from(environment: ["COLORFGBG": "15;0"]) == RGB(0, 0, 0))
    #expect(TerminalBackground.from(environment: ["COLORFGBG": "0;15"]) == RGB(255, 255, 255))
    #expect(
      TerminalBackground.from(environment: ["COLORFGBG": "0;default;7"]) == RGB(229, 229, 229))
    #expect(TerminalBackground.from(environment: ["COLORFGBG": "0;default"]) == RGB(0, 0, 0))
    #expect(TerminalBackground.from(environment: ["COLORFGBG": "0;99"]) == RGB(0, 0, 0))
  }
}
