import Foundation

/// The JSON report, for scripts: the ``Report``'s own keys, sorted, plus two that say what
/// the document is. Every key is always present; a missing value is `null`.
///
/// ```text
/// {
///   "asOf": "2026-11-21T08:00:00Z",      ISO 8601 UTC, whole seconds
///   "averageRating": 3.43 | null,        null for an empty store
///   "favoriteCount": 3,
///   "format": "bowties-report",
///   "leastWorn": [Tie],
///   "months": 6,
///   "mostWorn": [Tie],
///   "neverWorn": [Tie],
///   "notWornRecently": [Tie],            oldest first
///   "ratingDistribution": [{"from": 4, "label": "4", "ties": 2, "to": 5}],   0 … 5
///   "staleDays": 30,
///   "suggestion": {"reason": "…", "score": 0.8, "tie": Tie} | null,
///   "tieCount": 7,
///   "ties": [Tie],                       R O Y G B I V, then by name
///   "timeZone": "Europe/Paris",
///   "version": 1,
///   "wearsPerMonth": [{"month": "2026-11", "wears": 14}]    oldest first
/// }
///
/// Tie: {"color": "#RRGGBB" | null, "daysSinceWorn": 42 | null, "id": "…",
///       "isFavorite": true, "lastWorn": "2026-10-14T07:30:00Z" | null, "name": "…",
///       "rating": 4.5, "searchKey": "R", "timesWorn": 10}
/// ```
///
/// `version` changes only when a key is removed or changes meaning; new keys may appear
/// without it. A number that is not finite (never the case for a valid store) is `null`.
struct JSONReport: Encodable {
  static let format = "bowties-report"
  static let version = 1

  let report: Report

  static func render(_ report: Report) -> String {
    // Cannot throw: everything encoded is a string, a bool, an integer, null or a finite
    // number, and the encoder has no other way to fail.
    guard let data = try? TieJSON.makeEncoder().encode(JSONReport(report: report)) else {
      preconditionFailure("a report always encodes as JSON")
    }
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  private enum Key: String, CodingKey {
    case format, version, asOf, timeZone, staleDays, months, tieCount, favoriteCount
    case averageRating, mostWorn, leastWorn, neverWorn, notWornRecently, wearsPerMonth
    case ratingDistribution, suggestion, ties
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(Self.format, forKey: .format)
    try container.encode(Self.version, forKey: .version)
    try container.encode(ISO8601.formatUTC(report.asOf), forKey: .asOf)
    try container.encode(report.timeZone, forKey: .timeZone)
    try container.encode(report.staleDays, forKey: .staleDays)
    try container.encode(report.months, forKey: .months)
    try container.encode(report.tieCount, forKey: .tieCount)
    try container.encode(report.favoriteCount, forKey: .favoriteCount)
    try container.encode(finiteOrNull(report.averageRating), forKey: .averageRating)
    try container.encode(report.mostWorn.map(TieEntry.init), forKey: .mostWorn)
    try container.encode(report.leastWorn.map(TieEntry.init), forKey: .leastWorn)
    try container.encode(report.neverWorn.map(TieEntry.init), forKey: .neverWorn)
    try container.encode(report.notWornRecently.map(TieEntry.init), forKey: .notWornRecently)
    try container.encode(report.wearsPerMonth, forKey: .wearsPerMonth)
    try container.encode(
      report.ratingDistribution.map(BucketEntry.init), forKey: .ratingDistribution)
    try container.encode(report.suggestion.map(SuggestionEntry.init), forKey: .suggestion)
    try container.encode(report.ties.map(TieEntry.init), forKey: .ties)
  }

  private struct TieEntry: Encodable {
    let tie: Report.Tie

    private enum Key: String, CodingKey {
      case id, searchKey, name, rating, timesWorn, lastWorn, daysSinceWorn, isFavorite, color
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(tie.id, forKey: .id)
      try container.encode(tie.searchKey, forKey: .searchKey)
      try container.encode(tie.name, forKey: .name)
      try container.encode(finiteOrNull(tie.rating), forKey: .rating)
      try container.encode(tie.timesWorn, forKey: .timesWorn)
      try container.encode(tie.lastWorn.map(ISO8601.formatUTC), forKey: .lastWorn)
      try container.encode(tie.daysSinceWorn, forKey: .daysSinceWorn)
      try container.encode(tie.isFavorite, forKey: .isFavorite)
      try container.encode(tie.color, forKey: .color)
    }
  }

  private struct BucketEntry: Encodable {
    let bucket: Report.RatingBucket

    private enum Key: String, CodingKey { case label, from, to, ties }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(bucket.label, forKey: .label)
      try container.encode(finiteOrNull(bucket.from), forKey: .from)
      try container.encode(finiteOrNull(bucket.to), forKey: .to)
      try container.encode(bucket.ties, forKey: .ties)
    }
  }

  private struct SuggestionEntry: Encodable {
    let suggestion: Report.Suggestion

    private enum Key: String, CodingKey { case tie, score, reason }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(TieEntry(tie: suggestion.tie), forKey: .tie)
      try container.encode(finiteOrNull(suggestion.score), forKey: .score)
      try container.encode(suggestion.reason, forKey: .reason)
    }
  }
}

/// JSON has no NaN or infinity, and the encoder throws on them; null says "no number".
private func finiteOrNull(_ value: Double?) -> Double? {
  guard let value, value.isFinite else { return nil }
  return value
}
