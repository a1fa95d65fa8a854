/// Numbers as people type them on a command line or in a variable: ASCII digits, then
/// optionally a dot and more digits (`4`, `4.5`, `19.99`).
///
/// Nothing else, whatever `Double(_:)` or `Decimal(string:)` would take: no sign, no
/// exponent, no `nan` or `inf`, no hexadecimal (`0x10`), and no digits of other scripts,
/// which `Character.isNumber` and `isHexDigit` accept and the integer parsers then refuse.
public enum PlainDecimal {
  public static func isPlain(_ text: some StringProtocol) -> Bool {
    var digitsBefore = 0
    var digitsAfter = 0
    var sawDot = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if sawDot { digitsAfter += 1 } else { digitsBefore += 1 }
      case UInt8(ascii: ".") where !sawDot:
        sawDot = true
      default:
        return false
      }
    }
    return digitsBefore > 0 && (!sawDot || digitsAfter > 0)
  }

  /// Whether `text` is ASCII digits only, at least one.
  public static func isDigits(_ text: some StringProtocol) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }
}

extension UInt8 {
  /// The byte's value as an ASCII hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`), else nil.
  /// Bytes, not Characters: `Character.isHexDigit` takes fullwidth digits ("Ａ"), which no
  /// radix parser reads.
  package var asciiHexDigitValue: UInt8? {
    switch self {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
