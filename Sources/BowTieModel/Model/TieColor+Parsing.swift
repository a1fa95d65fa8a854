import Foundation

extension TieColor {
  /// Parses a color as people type it: `#RRGGBB`, `#RRGGBBAA` (with its opacity), `#RGB`,
  /// `r,g,b` (0–255 each) or one of CSS3's 148 color names (`teal`, `navy`…), in any case.
  public static func parse(_ text: String) throws(BowTieError) -> TieColor {
    let trimmed = text.trimmingSpaces()
    if let named = cssNames[trimmed.lowercased()] {
      return TieColor(red8: named.0, green8: named.1, blue8: named.2)
    }
    if trimmed.hasPrefix("#") {
      // Bytes, not Characters: `Character.isHexDigit` takes fullwidth digits ("Ａ"), which
      // no radix parser reads.
      let digits = trimmed.utf8.dropFirst().map(hexValue)
      guard [3, 6, 8].contains(digits.count), digits.allSatisfy({ $0 != nil }) else {
        throw problem(text)
      }
      let nibbles = digits.compactMap { $0 }
      let values =
        nibbles.count == 3
        ? nibbles.map { $0 << 4 | $0 }
        : stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
      return TieColor(
        red8: values[0], green8: values[1], blue8: values[2],
        alpha8: values.count == 4 ? values[3] : 255)
    }
    let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
      .map { $0.trimmingSpaces() }
    let values = parts.compactMap { PlainDecimal.isDigits($0) ? UInt8($0) : nil }
    guard parts.count == 3, values.count == 3 else { throw problem(text) }
    return TieColor(red8: values[0], green8: values[1], blue8: values[2])
  }

  /// The value of an ASCII hexadecimal digit, or nil for any other byte.
  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  private static func problem(_ text: String) -> BowTieError {
    .invalidValue(
      "'\(text.excerpt)' is not a color: use #RRGGBB, #RRGGBBAA, #RGB, r,g,b (0–255) or a CSS name "
        + "such as teal")
  }
}
