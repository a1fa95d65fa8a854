import Foundation

/// CSV as RFC 4180 writes it.
public enum CSV {
  /// One field of a CSV line, as RFC 4180 writes it: quoted only when it must be, its quotes
  /// doubled. Control characters other than tabs and line breaks become U+FFFD, so that no
  /// escape sequence reaches a terminal that shows the file. The report's CSV and the
  /// export's share it.
  public static func field(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: scalars.append(scalar)
      case 0x00...0x1F, 0x7F...0x9F: scalars.append("\u{FFFD}")
      default: scalars.append(scalar)
      }
    }
    let clean = String(scalars)
    guard clean.unicodeScalars.contains(where: { ",\"\n\r".unicodeScalars.contains($0) }) else {
      return clean
    }
    return "\"" + clean.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
