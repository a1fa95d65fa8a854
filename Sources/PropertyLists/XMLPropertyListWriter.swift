import Foundation

/// Writes a ``PropertyListValue`` as an XML property list, laid out as Foundation's
/// `PropertyListEncoder` lays it out (tabs, keys sorted, reals in C's shortest `%g` form,
/// base64 in lines of 60), but with dates in the proleptic Gregorian calendar.
///
/// On Linux, `PropertyListEncoder` writes a date before 1582-10-15 in the Julian calendar
/// (1013-11-21 becomes `1013-11-15`), while ISO 8601, CoreFoundation's reader, Python's
/// `plistlib` and our own reader take the text as Gregorian: a seeded date came back days
/// off from its export.
public enum XMLPropertyListWriter {
  public static func write(_ value: PropertyListValue) -> Data {
    var text = header
    append(value, indent: "", to: &text)
    text += footer
    return Data(text.utf8)
  }

  /// What comes before the top-level value.
  public static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  /// What comes after the top-level value.
  public static let footer = "</plist>\n"

  /// One value, each line indented by `indent`: an element of a top-level array is written
  /// with one tab, between `<array>` and `</array>` lines, as ``write(_:)`` writes it.
  public static func text(of value: PropertyListValue, indent: String) -> String {
    var text = ""
    append(value, indent: indent, to: &text)
    return text
  }

  private static func append(_ value: PropertyListValue, indent: String, to text: inout String) {
    switch value {
    case .bool(let flag):
      text += indent + (flag ? "<true/>\n" : "<false/>\n")
    case .integer(let number):
      text += "\(indent)<integer>\(number)</integer>\n"
    case .real(let number):
      text += "\(indent)<real>\(shortest(number))</real>\n"
    case .real32(let number):
      text += "\(indent)<real>\(shortest(number))</real>\n"
    case .string(let string):
      text += "\(indent)<string>\(escaped(string))</string>\n"
    case .date(let date):
      text += "\(indent)<date>\(ISO8601.formatUTC(date))</date>\n"
    case .data(let bytes):
      text += "\(indent)<data>\n"
      let base64 = Array(bytes.base64EncodedString().utf8)
      for start in stride(from: 0, to: base64.count, by: 60) {
        let line = base64[start..<min(start + 60, base64.count)]
        text += indent + String(decoding: line, as: UTF8.self) + "\n"
      }
      text += "\(indent)</data>\n"
    case .uid(let uid):
      append(.dictionary(["CF$UID": .integer(Int64(uid))]), indent: indent, to: &text)
    case .array(let elements):
      guard !elements.isEmpty else {
        text += "\(indent)<array/>\n"
        return
      }
      text += "\(indent)<array>\n"
      for element in elements { append(element, indent: indent + "\t", to: &text) }
      text += "\(indent)</array>\n"
    case .dictionary(let dict):
      guard !dict.isEmpty else {
        text += "\(indent)<dict/>\n"
        return
      }
      text += "\(indent)<dict>\n"
      for key in dict.keys.sorted() {
        text += "\(indent)\t<key>\(escaped(key))</key>\n"
        if let element = dict[key] { append(element, indent: indent + "\t", to: &text) }
      }
      text += "\(indent)</dict>\n"
    case .null:
      preconditionFailure("JSON's null has no place in a property list")
    }
  }

  /// By scalar, not by Character: "<" followed by a combining mark is one Character, which
  /// is not equal to "<" but is markup all the same.
  private static func escaped(_ string: String) -> String {
    guard string.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) else {
      return string
    }
    var escaped = ""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// The fewest significant digits that read back as `number`: "4.5", "0", "1e-07".
  private static func shortest(_ number: Double) -> String {
    for precision in 1...17 {
      let text = String(format: "%.*g", precision, number)
      if Double(text) == number { return text }
    }
    return String(format: "%.17g", number)
  }

  /// The fewest significant digits that read back as the 4-byte `number`.
  private static func shortest(_ number: Float) -> String {
    for precision in 1...9 {
      let text = String(format: "%.*g", precision, Double(number))
      if Float(text) == number { return text }
    }
    return String(format: "%.9g", Double(number))
  }
}
