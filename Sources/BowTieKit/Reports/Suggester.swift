import Foundation

/// Picks the tie to wear next.
///
/// Each tie scores `(days since worn + 1) × (1 + rating) × (1.5 for a favorite)`, where a
/// tie never worn counts as not worn for ``neverWornDays``. The tie worn most recently is
/// never suggested. Ties with equal scores go in R O Y G B I V order, so the choice is
/// the same for the same store and the same day.
public enum Suggester {
  /// How long a never-worn tie counts as unworn.
  public static let neverWornDays = 365

  /// The best `count` suggestions, best first.
  ///
  /// - Parameter ties: in the app's order, which breaks equal scores.
  public static func suggestions(
    for ties: [BowTie], asOf: Date, calendar: Calendar, count: Int = 1
  ) -> [Report.Suggestion] {
    let mostRecent = ties.compactMap(\.lastWorn).max()
    let candidates = ties.enumerated().filter {
      $0.element.lastWorn == nil || $0.element.lastWorn != mostRecent
    }
    let scored = candidates.map { index, tie -> (Report.Suggestion, Int) in
      let line = ReportBuilder.line(for: tie, asOf: asOf, calendar: calendar)
      let days = line.daysSinceWorn ?? neverWornDays
      let score = Double(days + 1) * (1 + tie.rating) * (tie.isFavorite ? 1.5 : 1)
      return (Report.Suggestion(tie: line, score: score, reason: reason(line)), index)
    }
    return scored.sorted { left, right in
      left.0.score != right.0.score ? left.0.score > right.0.score : left.1 < right.1
    }.prefix(max(0, count)).map(\.0)
  }

  /// "not worn for 42 days, rated 4.5/5, a favorite"
  static func reason(_ tie: Report.Tie) -> String {
    var parts: [String] = []
    switch tie.daysSinceWorn {
    case nil: parts.append("never worn")
    case 0: parts.append("worn today")
    case 1: parts.append("not worn since yesterday")
    case let days?: parts.append("not worn for \(days) days")
    }
    parts.append("rated \(BowTie.formatRating(tie.rating))/5")
    if tie.isFavorite { parts.append("a favorite") }
    return parts.joined(separator: ", ")
  }
}
