import BowTieModel
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Environment variables read one at a time.
///
/// `ProcessInfo.processInfo.environment` builds a dictionary of every variable each time
/// it is read; a `show` read it four times, more work than its database look-up.
public enum ProcessEnvironment {
  /// The variable's value, or nil when it is not set.
  public static func value(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The named variables that are set.
  ///
  /// - Throws: a usage error for a variable that is not valid UTF-8, rather than its
  ///   bytes repaired: a path so changed would name another file.
  public static func values(_ names: [String]) throws(BowTieError) -> [String: String] {
    var values: [String: String] = [:]
    for name in names {
      guard let raw = getenv(name) else { continue }
      guard let text = String(validatingCString: raw) else {
        throw .usage("\(name) is not valid UTF-8 text")
      }
      values[name] = text
    }
    return values
  }
}
