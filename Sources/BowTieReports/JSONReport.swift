import BowTieKit
import BowTieModel
import Foundation
import PropertyLists
import TextOutput

/// The JSON report, for scripts: the ``Report``'s own keys, sorted, plus two that say what
/// the document is. Every key is always present; a missing value is `null`.
///
/// ```text
/// {
///   "allTies": List | {"ties": null, "total": 1000000},   left out above 100 ties
///   "asOf": "2026-11-21T08:00:00Z",      ISO 8601 UTC, whole seconds
///   "averageRating": 3.43 | null,        null for an empty store
///   "favoriteCount": 3,
///   "format": "bowties-report",
///   "leastWorn": List,                   least worn first
///   "limit": 10 | null,                  null with --all: every list whole
///   "months": 6,
///   "mostWorn": List,                    most worn first
///   "neverWorn": List,                   R O Y G B I V, then by name
///   "notWornRecently": List,             longest unworn first
///   "ratingDistribution": [{"from": 4, "label": "4", "ties": 2, "to": 5}],   0 … 5
///   "staleDays": 30,
///   "suggestion": {"reason": "…", "score": 0.8, "tie": Tie} | null,
///   "tieCount": 7,
///   "timeZone": "Europe/Paris",
///   "version": 2,
///   "wearsPerMonth": [{"month": "2026-11", "wears": 14}]    oldest first
/// }
///
/// List: {"ties": [Tie], "total": 899989}   the first `limit` ties, and how many in all
/// Tie: {"color": "#RRGGBB" | "#RRGGBBAA" | null, "daysSinceWorn": 42 | null, "id": "…",
///       "isFavorite": true, "lastWorn": "2026-10-14T07:30:00Z" | null, "name": "…",
///       "rating": 4.5, "searchKey": "R", "timesWorn": 10}
/// ```
///
/// `version` changes only when a key is removed or changes meaning; new keys may appear
/// without it. Version 1 listed every tie in each list, as an array. A number that is not
/// finite (never the case for a valid store) is `null`.
///
/// The document is written a piece at a time, each value by `JSONEncoder` and indented
/// into place, and each list's ties by the array writer (`JSONArrayWriter`) as they are
/// read, so that whole lists of a large store stream rather than sit in memory.
enum JSONReport {
  static let format = "bowties-report"
  static let version = 2

  static func write(
    _ report: Report, _ ties: some ReportTieSource, to output: inout some TextOutputStream
  ) throws {
    let encoder = TieJSON.makeEncoder()
    var first = true
    /// Starts the next top-level key.
    func key(_ name: String) {
      output.write(first ? "{\n" : ",\n")
      output.write("  \"\(name)\" : ")
      first = false
    }
    /// A value encoded on its own and indented as a top-level key's.
    func value(_ name: String, _ item: some Encodable) throws {
      key(name)
      output.write(indented(try encoder.encode(item), by: "  "))
    }
    func list(_ name: String, _ list: Report.List, total: Int, listed: Bool = true) throws {
      key(name)
      output.write("{\n    \"ties\" : ")
      if listed {
        try tieArray(ties, list, to: &output)
      } else {
        output.write("null")
      }
      output.write(",\n    \"total\" : \(total)\n  }")
    }

    try list("allTies", .all, total: report.tieCount, listed: report.allTies != nil)
    try value("asOf", ISO8601.formatUTC(report.asOf))
    try value("averageRating", finiteOrNull(report.averageRating))
    try value("favoriteCount", report.favoriteCount)
    try value("format", format)
    try list("leastWorn", .leastWorn, total: report.leastWorn.total)
    try value("limit", report.limit)
    try value("months", report.months)
    try list("mostWorn", .mostWorn, total: report.mostWorn.total)
    try list("neverWorn", .neverWorn, total: report.neverWorn.total)
    try list("notWornRecently", .notWornRecently, total: report.notWornRecently.total)
    try value("ratingDistribution", report.ratingDistribution.map(BucketEntry.init))
    try value("staleDays", report.staleDays)
    try value("suggestion", report.suggestion)
    try value("tieCount", report.tieCount)
    try value("timeZone", report.timeZone)
    try value("version", version)
    try value("wearsPerMonth", report.wearsPerMonth)
    output.write("\n}\n")
  }

  /// A list's ties as a JSON array inside its object, written as they come by the one
  /// array writer, in 64 KiB pieces.
  private static func tieArray(
    _ ties: some ReportTieSource, _ list: Report.List, to output: inout some TextOutputStream
  ) throws {
    var array = JSONArrayWriter(depth: 2)
    var piece: [UInt8] = []
    func flush() {
      array.flush(to: &piece)
      output.write(String(decoding: piece, as: UTF8.self))
      piece.removeAll(keepingCapacity: true)
    }
    try ties.forEachTie(in: list) { tie in
      try array.append(TieEntry(tie: tie))
      if array.pendingCount >= 1 << 16 {
        flush()
        try output.stopIfWriteFailed()
      }
    }
    array.finish()
    flush()
  }

  /// Encoded JSON with `indent` after each line break, to sit inside a larger document.
  /// Strings hold no raw line breaks (JSON escapes them), so only the layout's move.
  private static func indented(_ json: some Collection<UInt8>, by indent: String) -> String {
    String(decoding: json, as: UTF8.self).replacingOccurrences(of: "\n", with: "\n" + indent)
  }

  fileprivate struct TieEntry: JSONObject {
    let tie: Report.Tie

    func writeFields(to fields: inout some JSONFields) throws {
      try fields.field("color", tie.color)
      try fields.field("daysSinceWorn", tie.daysSinceWorn)
      try fields.field("id", tie.id)
      try fields.field("isFavorite", tie.isFavorite)
      try fields.field("lastWorn", tie.lastWorn.map(ISO8601.formatUTC))
      try fields.field("name", tie.name)
      try fields.field("rating", finiteOrNull(tie.rating))
      try fields.field("searchKey", tie.searchKey)
      try fields.field("timesWorn", tie.timesWorn)
    }

    func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
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
}

extension Report.Tie {
  /// Every field, an absent one as null, as the report's lists write it: `suggest --json`
  /// writes its ties so too.
  public func encode(to encoder: any Encoder) throws {
    try JSONReport.TieEntry(tie: self).encode(to: encoder)
  }
}

extension Report.Suggestion {
  private enum Key: String, CodingKey { case tie, score, reason }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(tie, forKey: .tie)
    try container.encode(finiteOrNull(score), forKey: .score)
    try container.encode(reason, forKey: .reason)
  }
}

/// JSON has no NaN or infinity, and the encoder throws on them; null says "no number".
private func finiteOrNull(_ value: Double?) -> Double? {
  guard let value, value.isFinite else { return nil }
  return value
}
