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
      let digits = trimmed.utf8.dropFirst().map(\.asciiHexDigitValue)
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

  private static func problem(_ text: String) -> BowTieError {
    .invalidValue(
      "'\(text.excerpt)' is not a color: use #RRGGBB, #RRGGBBAA, #RGB, r,g,b (0–255) or a CSS name "
        + "such as teal")
  }
}
