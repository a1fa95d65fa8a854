/// A key the user pressed.
public enum Key: Equatable, Sendable {
  case left, right, up, down, home, end
  case tab, backTab
  case enter, escape, backspace, delete
  /// A printable character, as typed (UTF-8 decoded).
  case character(Character)
  /// Control and a letter: `control("c")` for Ctrl-C, which raw mode delivers as a byte.
  case control(Character)
  /// An escape sequence bowties has no use for (a function key, a mouse report): read
  /// whole, so that its bytes are not taken for keys.
  case unknown
}

/// Turns what the terminal sends into keys: the key sequences of its terminfo entry (with
/// the keypad in application mode, as ``TerminalSession`` sets it, they are exactly what
/// the keys send), the ANSI forms that terminals send whatever their mode, control bytes,
/// and UTF-8 text.
///
/// A lone ESC is the Escape key only once no more bytes follow it at once
/// (``flushPending()``, after the caller's short wait): arrow keys begin with ESC too.
public struct KeyDecoder: Sendable {
  /// Every known sequence, longest match first.
  private let sequences: [(bytes: [UInt8], key: Key)]
  private var pending: [UInt8] = []

  public init(capabilities: TerminalCapabilities) {
    var table: [[UInt8]: Key] = [:]
    // The forms of both cursor-key modes, and the common Home/End variants.
    let fallbacks: [(String, Key)] = [
      ("\u{1B}[D", .left), ("\u{1B}OD", .left), ("\u{1B}[C", .right), ("\u{1B}OC", .right),
      ("\u{1B}[A", .up), ("\u{1B}OA", .up), ("\u{1B}[B", .down), ("\u{1B}OB", .down),
      ("\u{1B}[H", .home), ("\u{1B}OH", .home), ("\u{1B}[1~", .home), ("\u{1B}[7~", .home),
      ("\u{1B}[F", .end), ("\u{1B}OF", .end), ("\u{1B}[4~", .end), ("\u{1B}[8~", .end),
      ("\u{1B}[Z", .backTab), ("\u{1B}[3~", .delete), ("\u{1B}OM", .enter),
    ]
    for (text, key) in fallbacks { table[Array(text.utf8)] = key }
    let named: [(String, Key)] = [
      ("kcub1", .left), ("kcuf1", .right), ("kcuu1", .up), ("kcud1", .down), ("khome", .home),
      ("kend", .end), ("kcbt", .backTab), ("kbs", .backspace), ("kdch1", .delete),
    ]
    // The terminal's own entry wins over the fallbacks.
    for (name, key) in named {
      if let value = capabilities.strings[name], !value.isEmpty { table[Array(value.utf8)] = key }
    }
    sequences = table.map { ($0.key, $0.value) }.sorted { $0.bytes.count > $1.bytes.count }
  }

  /// Whether bytes wait for more: an ESC that may begin a sequence.
  public var hasPending: Bool { !pending.isEmpty }

  /// The keys `bytes` complete, keeping a sequence that may go on for the next call.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    while let (key, used) = next(final: false) {
      keys.append(key)
      pending.removeFirst(used)
    }
    return keys
  }

  /// The keys of what is pending once no more bytes came: a lone ESC is Escape.
  public mutating func flushPending() -> [Key] {
    var keys: [Key] = []
    while let (key, used) = next(final: true) {
      keys.append(key)
      pending.removeFirst(used)
    }
    return keys
  }

  /// The first key of ``pending`` and how many bytes it took; nil when it needs more bytes
  /// (or there are none).
  private func next(final: Bool) -> (Key, Int)? {
    guard let first = pending.first else { return nil }
    if first == 0x1B {
      for (bytes, key) in sequences where pending.starts(with: bytes) {
        return (key, bytes.count)
      }
      if let length = Self.escapeSequenceLength(pending) { return (.unknown, length) }
      let mayGoOn =
        sequences.contains { $0.bytes.starts(with: pending) } || Self.mayBeIncomplete(pending)
      if mayGoOn && !final { return nil }
      // ESC and a printable character in one read: the terminal's Alt (Meta) with that key,
      // which browse has no use for. Read as Escape, then the key, Alt-w would close a
      // prompt and record a wear.
      if pending.count >= 2, (0x20...0x7E).contains(pending[1]) { return (.unknown, 2) }
      // ESC alone, or before what no sequence goes on with: Escape, then the rest.
      return (.escape, 1)
    }
    switch first {
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x01...0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
    case 0x00, 0x1C...0x1F: return (.unknown, 1)
    default: break
    }
    // UTF-8: a leading byte says how many follow.
    let length =
      switch first {
      case 0xC0...0xDF: 2
      case 0xE0...0xEF: 3
      case 0xF0...0xF7: 4
      default: 1
      }
    if pending.count < length { return final ? (.unknown, pending.count) : nil }
    guard let text = String(validating: pending.prefix(length), as: UTF8.self),
      let character = text.first
    else { return (.unknown, length) }
    return (.character(character), length)
  }

  /// The length of a complete CSI (`ESC [ … final`) or SS3 (`ESC O x`) sequence at the
  /// start of `bytes`, or nil when there is none yet.
  private static func escapeSequenceLength(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 3 else { return nil }
    switch bytes[1] {
    case UInt8(ascii: "["):
      // Parameters and intermediates, then a final byte in 0x40…0x7E.
      for index in 2..<bytes.count where (0x40...0x7E).contains(bytes[index]) {
        return index + 1
      }
      return nil
    case UInt8(ascii: "O"):
      return 3
    default:
      return nil
    }
  }

  /// Whether `bytes` (from an ESC) may be a CSI or SS3 sequence still arriving.
  private static func mayBeIncomplete(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 2 else { return true }
    switch bytes[1] {
    case UInt8(ascii: "["): return escapeSequenceLength(bytes) == nil && bytes.count < 32
    case UInt8(ascii: "O"): return bytes.count < 3
    default: return false
    }
  }
}
