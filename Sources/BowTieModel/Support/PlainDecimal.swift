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
