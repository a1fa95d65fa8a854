/// Why a color archive could not be read or written.
///
/// Every problem found in untrusted archive bytes surfaces as one of these cases; the codec
/// never traps on bad input. `description` is a short lowercase fragment meant to follow a
/// prefix such as "color archive: ".
public enum ArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The data is zero bytes long.
  case empty
  /// The data is larger than the transformer accepts; refused before parsing.
  case tooLarge(bytes: Int, limit: Int)
  /// The data does not start with the `bplist00` header (XML plists and garbage land here).
  case notBinaryPropertyList
  /// The binary property list is structurally broken: the reason names the first defect.
  case malformedPropertyList(String)
  /// The property list is well formed but is not an `NSKeyedArchiver` archive.
  case notKeyedArchive(String)
  /// The archive names a class outside the transformer's allowed classes.
  case classNotAllowed(String)
  /// An allowed class refused its stored values (wrong type, out of range, missing key…).
  case decodingFailed(className: String, reason: String)
  /// The object (or something it encodes) cannot be archived by this transformer.
  case unsupportedObject(String)

  /// A short lowercase fragment, e.g. "class NSString is not allowed".
  public var description: String {
    switch self {
    case .empty:
      return "archive is empty"
    case .tooLarge(let bytes, let limit):
      return "archive is \(bytes) bytes, over the \(limit)-byte limit"
    case .notBinaryPropertyList:
      return "not a binary property list"
    case .malformedPropertyList(let reason):
      return "malformed binary property list: \(reason)"
    case .notKeyedArchive(let reason):
      return "not a keyed archive: \(reason)"
    case .classNotAllowed(let name):
      return "class \(name) is not allowed"
    case .decodingFailed(let className, let reason):
      return "cannot decode \(className): \(reason)"
    case .unsupportedObject(let reason):
      return "cannot archive \(reason)"
    }
  }
}
