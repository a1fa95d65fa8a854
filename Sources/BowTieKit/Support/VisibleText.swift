import BowTieModel

extension String {
  /// The text with its control characters (Unicode's `Cc`: C0, DEL and C1) made visible
  /// as `ls -b` shows them: `\n`, `\t`, `\a`, `\b`, `\f`, `\r`, `\v`, and the others as
  /// octal escapes of their UTF-8 bytes, `\033` for ESC and `\302\233` for CSI. The
  /// bidirectional embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069)
  /// are shown as octal escapes too (`\342\200\256` for U+202E). Everything else,
  /// backslashes and the bidirectional marks (U+200E, U+200F) included, stays as it is.
  ///
  /// For text from data (a store another tool wrote, a seed file, an argument) on its way
  /// to a person's terminal or document: one control character can clear the screen, move
  /// the cursor, retitle the window or hide what follows it, and one bidirectional control
  /// left open reverses what follows it on the line, so that "Evil \u{202E}eit woB" reads
  /// as a Bow tie's name and the columns after it read backwards.
  public var withVisibleControlCharacters: String {
    // Almost every name has none: one pass over the bytes finds that out, in place where
    // the string's storage allows (`history` asks it of every line it prints).
    let clean =
      utf8.withContiguousStorageIfAvailable(Self.holdsNoControlCharacter)
      ?? Self.holdsNoControlCharacter(utf8)
    if clean { return self }
    var visible = ""
    for scalar in unicodeScalars {
      guard scalar.properties.generalCategory == .control || Self.isBidiControl(scalar) else {
        visible.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\u{07}": visible += "\\a"
      case "\u{08}": visible += "\\b"
      case "\t": visible += "\\t"
      case "\n": visible += "\\n"
      case "\u{0B}": visible += "\\v"
      case "\u{0C}": visible += "\\f"
      case "\r": visible += "\\r"
      default:
        for byte in String(scalar).utf8 {
          let octal = String(byte, radix: 8)
          visible += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
        }
      }
    }
    return visible
  }

  /// Whether UTF-8 `bytes` hold no C0 control, DEL or C1 control (`C2 80` to `C2 9F`), and
  /// no bidirectional control (`E2 80 AA` to `E2 80 AE`, `E2 81 A6` to `E2 81 A9`).
  private static func holdsNoControlCharacter(_ bytes: some Sequence<UInt8>) -> Bool {
    var beforePrevious: UInt8 = 0
    var previous: UInt8 = 0
    for byte in bytes {
      if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) {
        return false
      }
      if beforePrevious == 0xE2
        && ((previous == 0x80 && (0xAA...0xAE).contains(byte))
          || (previous == 0x81 && (0xA6...0xA9).contains(byte)))
      {
        return false
      }
      beforePrevious = previous
      previous = byte
    }
    return true
  }

  /// The bidirectional formatting controls, which open or close a state that reorders the
  /// text between: LRE, RLE, PDF, LRO, RLO, and the isolates LRI, RLI, FSI and PDI.
  private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
  }
}
