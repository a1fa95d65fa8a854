import Foundation

/// A property-list value, typed: what the XML and binary readers build and the writers
/// write, what keyed archives are made of, and what a seed entry is read from (a JSON seed
/// decodes to the same values). Built directly, with no `Any` and no dynamic casts, so
/// `<integer>1</integer>` and `<true/>` stay apart.
///
/// Sets and fill bytes are deliberately absent: neither `NSKeyedArchiver` nor a seed file's
/// writer uses them for what we read, so the readers refuse them instead of carrying dead
/// code.
public enum PropertyListValue: Equatable, Sendable {
  case bool(Bool)
  case integer(Int64)
  case real(Double)
  /// A real written in 4 bytes, as `NSKeyedArchiver` writes what `encode(_: Float, forKey:)`
  /// encodes (UIKit's color components). Only the writers see one: the readers return
  /// every real as ``real(_:)``.
  case real32(Float)
  case string(String)
  case data(Data)
  /// Keyed archives never hold one, so the binary reader takes the marker only where
  /// ``PropertyListLimits/allowsDates`` says so (seed files).
  case date(Date)
  /// A `CF$UID`: an index into a keyed archive's `$objects` array.
  case uid(UInt32)
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])
  /// JSON's `null`, which a JSON seed file may hold. No property list holds one: the
  /// readers never return it, and nothing asks the writers to write it.
  case null

  /// "a string ('abc')", "a number (7.5)": what a message says was found.
  public var kind: String {
    switch self {
    case .bool(let flag): return "a boolean (\(flag))"
    case .integer(let number): return "an integer (\(number))"
    case .real(let number): return "a number (\(number))"
    case .real32(let number): return "a number (\(number))"
    case .string(let text): return "a string ('\(text.prefix(40))')"
    case .date: return "a date"
    case .data: return "data"
    case .uid: return "an object reference (UID)"
    case .array: return "an array"
    case .dictionary: return "a dictionary"
    case .null: return "null"
    }
  }
}
