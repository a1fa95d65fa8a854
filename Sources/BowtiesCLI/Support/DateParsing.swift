import BowTieKit
import Foundation

/// Parses dates typed on the command line, with the message every command gives.
enum DateParsing {
  static func parse(_ text: String) throws(BowTieError) -> DateArgument {
    guard let date = DateArgument.parse(text) else { throw DateArgument.problem(text) }
    return date
  }

  /// The instant a date argument names (for a day, its start).
  static func date(_ text: String) throws(BowTieError) -> Date {
    try parse(text).date
  }
}
