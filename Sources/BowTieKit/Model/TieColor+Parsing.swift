import Foundation

extension TieColor {
  /// Parses a color as people type it: `#RRGGBB`, `#RGB`, `r,g,b` (0–255 each) or one of
  /// CSS3's 148 color names (`teal`, `navy`…), in any case.
  public static func parse(_ text: String) throws(BowTieError) -> TieColor {
    let trimmed = text.trimmingSpaces()
    if let named = cssNames[trimmed.lowercased()] {
      return TieColor(red: named.0, green: named.1, blue: named.2)
    }
    if trimmed.hasPrefix("#") {
      let digits = Array(trimmed.dropFirst())
      guard digits.allSatisfy(\.isHexDigit), digits.count == 6 || digits.count == 3 else {
        throw problem(text)
      }
      let pairs =
        digits.count == 6
        ? stride(from: 0, to: 6, by: 2).map { String(digits[$0...$0 + 1]) }
        : digits.map { String([$0, $0]) }
      let values = pairs.compactMap { UInt8($0, radix: 16) }
      return TieColor(red: values[0], green: values[1], blue: values[2])
    }
    let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
      .map { $0.trimmingSpaces() }
    let values = parts.compactMap { $0.allSatisfy(\.isASCII) ? UInt8($0) : nil }
    guard parts.count == 3, values.count == 3 else { throw problem(text) }
    return TieColor(red: values[0], green: values[1], blue: values[2])
  }

  private static func problem(_ text: String) -> BowTieError {
    .invalidValue(
      "'\(text)' is not a color: use #RRGGBB, #RGB, r,g,b (0–255) or a CSS name such as teal")
  }
}
