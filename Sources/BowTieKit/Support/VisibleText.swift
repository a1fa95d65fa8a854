import BowTieModel

extension String {
  /// The text with its control characters (Unicode's `Cc`: C0, DEL and C1) made visible
  /// as `ls -b` shows them: `\n`, `\t`, `\a`, `\b`, `\f`, `\r`, `\v`, and the others as
  /// octal escapes of their UTF-8 bytes, `\033` for ESC and `\302\233` for CSI. Everything
  /// else, backslashes included, stays as it is.
  ///
  /// For text from data (a store another tool wrote, a seed file, an argument) on its way
  /// to a person's terminal or document: one such character can clear the screen, move the
  /// cursor, retitle the window or hide what follows it.
  public var withVisibleControlCharacters: String {
    // Almost every name has none: one pass over the bytes finds that out, in place where
    // the string's storage allows (`history` asks it of every line it prints).
    let clean =
      utf8.withContiguousStorageIfAvailable(Self.holdsNoControlCharacter)
      ?? Self.holdsNoControlCharacter(utf8)
    if clean { return self }
    var visible = ""
    for scalar in unicodeScalars {
      guard scalar.properties.generalCategory == .control else {
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

  /// Whether UTF-8 `bytes` hold no C0 control, DEL or C1 control (`C2 80` to `C2 9F`).
  private static func holdsNoControlCharacter(_ bytes: some Sequence<UInt8>) -> Bool {
    var previous: UInt8 = 0
    for byte in bytes {
      if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) {
        return false
      }
      previous = byte
    }
    return true
  }
}
