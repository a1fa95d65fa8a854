import ImageCodecs

/// How an image reaches the screen.
public enum ImageProtocol: String, Sendable, CaseIterable {
  /// Colored "▀" characters: works on any terminal with 256 colors or more, and in a file.
  case halfBlocks = "halfblocks"
  /// The kitty graphics protocol (see ``KittyGraphics``).
  case kitty
  /// iTerm2's inline images (see ``ITermInlineImage``).
  case iTerm2 = "iterm2"
  /// Sixel graphics (see ``Sixel``).
  case sixel
}

/// What a terminal can draw, decided from its environment: deterministic, and
/// conservative, because a wrong guess prints a screenful of escape codes.
public struct TerminalGraphics: Equatable, Sendable {
  public var imageProtocol: ImageProtocol
  /// The colors half-blocks are drawn in.
  public var depth: ColorDepth

  public init(imageProtocol: ImageProtocol, depth: ColorDepth) {
    self.imageProtocol = imageProtocol
    self.depth = depth
  }

  /// An override such as `BOWTIES_IMAGE_PROTOCOL`: `halfblocks`, `halfblocks-256`,
  /// `kitty`, `iterm2` or `sixel`; nil for anything else.
  public enum Override: String, Sendable, CaseIterable {
    case halfBlocks = "halfblocks"
    case halfBlocks256 = "halfblocks-256"
    case kitty
    case iTerm2 = "iterm2"
    case sixel
  }

  /// The rules, in order:
  ///
  /// 1. An `override` wins (for a terminal that does not announce itself); `halfblocks`
  ///    keeps the color depth below, `halfblocks-256` forces the palette.
  /// 2. Output that is not a terminal (a pipe, a file) gets truecolor half-blocks.
  /// 3. Inside tmux or screen (`TMUX`, `STY`, or `TERM` starting with `tmux` or `screen`),
  ///    half-blocks: the multiplexer would need each image wrapped for passthrough, and
  ///    would not move or clear it with its panes.
  /// 4. kitty: `TERM=xterm-kitty`, `KITTY_WINDOW_ID` set, or `TERM=xterm-ghostty`
  ///    (Ghostty speaks kitty's protocol).
  /// 5. iTerm2's inline images: `TERM_PROGRAM=iTerm.app` or `LC_TERMINAL=iTerm2`, or
  ///    `TERM_PROGRAM=WezTerm`.
  /// 6. Sixel when the terminal says so: its primary device attributes (the reply to
  ///    `ESC [ c`, from `deviceAttributes`, which the caller asks only when it may talk
  ///    to the terminal) list feature 4.
  /// 7. Otherwise half-blocks.
  ///
  /// Half-blocks are truecolor when `COLORTERM` is `truecolor` or `24bit`, `TERM` ends in
  /// `-direct`, or the terminal is one known to have it (kitty, Ghostty, iTerm2, WezTerm);
  /// otherwise the 256-color palette, which every color terminal of the last twenty years
  /// maps, even the Linux console.
  public static func detect(
    environment: [String: String], outputIsTerminal: Bool, override: Override? = nil,
    deviceAttributes: () -> [Int]? = { nil }
  ) -> TerminalGraphics {
    let term = environment["TERM"] ?? ""
    func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }

    let isKitty = Self.isKitty(environment)
    let isITerm = Self.isITerm(environment)
    let depth = colorDepth(
      environment: environment, outputIsTerminal: outputIsTerminal, override: override)

    switch override {
    case .halfBlocks, .halfBlocks256:
      return TerminalGraphics(imageProtocol: .halfBlocks, depth: depth)
    case .kitty: return TerminalGraphics(imageProtocol: .kitty, depth: depth)
    case .iTerm2: return TerminalGraphics(imageProtocol: .iTerm2, depth: depth)
    case .sixel: return TerminalGraphics(imageProtocol: .sixel, depth: depth)
    case nil: break
    }
    guard outputIsTerminal else {
      return TerminalGraphics(imageProtocol: .halfBlocks, depth: depth)
    }
    let multiplexed =
      isSet("TMUX") || isSet("STY") || term.hasPrefix("tmux") || term.hasPrefix("screen")
    if multiplexed { return TerminalGraphics(imageProtocol: .halfBlocks, depth: depth) }
    if isKitty { return TerminalGraphics(imageProtocol: .kitty, depth: depth) }
    if isITerm { return TerminalGraphics(imageProtocol: .iTerm2, depth: depth) }
    if Self.mayHaveSixel(term: term), let attributes = deviceAttributes(),
      Self.announcesSixel(attributes)
    {
      return TerminalGraphics(imageProtocol: .sixel, depth: depth)
    }
    return TerminalGraphics(imageProtocol: .halfBlocks, depth: depth)
  }

  /// The colors to draw in, by the rules of ``detect(environment:outputIsTerminal:override:deviceAttributes:)``:
  /// truecolor only where the terminal says it has it, or for output that is not a
  /// terminal; `halfblocks-256` forces the palette.
  public static func colorDepth(
    environment: [String: String], outputIsTerminal: Bool, override: Override? = nil
  ) -> ColorDepth {
    if override == .halfBlocks256 { return .palette256 }
    let term = environment["TERM"] ?? ""
    let colorTerm = environment["COLORTERM"]?.lowercased()
    let truecolor =
      !outputIsTerminal || colorTerm == "truecolor" || colorTerm == "24bit"
      || term.hasSuffix("-direct") || isKitty(environment) || isITerm(environment)
      || environment["TERM_PROGRAM"] == "ghostty"
    return truecolor ? .truecolor : .palette256
  }

  private static func isKitty(_ environment: [String: String]) -> Bool {
    let term = environment["TERM"] ?? ""
    return term == "xterm-kitty" || !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty
      || term == "xterm-ghostty"
  }

  private static func isITerm(_ environment: [String: String]) -> Bool {
    let program = environment["TERM_PROGRAM"] ?? ""
    return program == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" || program == "WezTerm"
  }

  /// Whether asking the terminal is worth it: not for `dumb`, nor the Linux console,
  /// which never draw sixels.
  static func mayHaveSixel(term: String) -> Bool {
    !term.isEmpty && term != "dumb" && term != "linux"
  }

  /// Whether primary device attributes (`ESC [ ? 63;1;2;4;6 c` → `[63, 1, 2, 4, 6]`)
  /// announce sixel graphics: feature 4 after the first number, which is the device's
  /// class, not a feature.
  public static func announcesSixel(_ attributes: [Int]) -> Bool {
    attributes.dropFirst().contains(4)
  }

  /// Parses a primary device attributes reply, `ESC [ ? Ps ; … c`; nil when `reply`
  /// holds none.
  public static func parseDeviceAttributes(_ reply: [UInt8]) -> [Int]? {
    let introducer: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "?")]
    guard let start = reply.indices.first(where: { reply[$0...].starts(with: introducer) }) else {
      return nil
    }
    let body = reply[(start + 3)...]
    guard let end = body.firstIndex(of: UInt8(ascii: "c")) else { return nil }
    var numbers: [Int] = []
    for field in body[..<end].split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
    {
      guard !field.isEmpty, field.allSatisfy({ (0x30...0x39).contains($0) }), field.count < 9
      else { return nil }
      numbers.append(Int(String(decoding: field, as: UTF8.self)) ?? 0)
    }
    return numbers
  }
}

/// The color behind the image, for mixing partly transparent pixels.
///
/// A program cannot see the terminal's background color without asking it (OSC 11),
/// and asking means a round trip on every `show` and a reply that leaks into the shell
/// when a terminal answers late. So: `COLORFGBG` when the terminal sets it (rxvt, Konsole,
/// some xterm setups: "15;0", or "15;default;0"), its last field being the background's
/// ANSI color number, taken at xterm's default values; otherwise a dark background,
/// the default of nearly every terminal emulator. Only the soft edges of a photo use it:
/// fully transparent pixels always show the terminal's real background.
public enum TerminalBackground {
  /// Black: what is assumed when `COLORFGBG` says nothing.
  public static let dark = RGB(0, 0, 0)

  /// The background from `COLORFGBG`, else ``dark``.
  public static func from(environment: [String: String]) -> RGB {
    guard let value = environment["COLORFGBG"],
      let last = value.split(separator: ";").last, let index = Int(last),
      ansi16.indices.contains(index)
    else { return dark }
    return ansi16[index]
  }

  /// xterm's default values for ANSI colors 0–15.
  static let ansi16: [RGB] = [
    RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0),
    RGB(0, 0, 238), RGB(205, 0, 205), RGB(0, 205, 205), RGB(229, 229, 229),
    RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0), RGB(255, 255, 0),
    RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
  ]
}
