import ArgumentParser
import BowTieKit
import Foundation

extension TieFilter.Sort: ExpressibleByArgument {}

/// Which ties `list` shows, and in which order.
struct FilterOptions: ParsableArguments {
  @Flag(help: "Only favorites.")
  var favorites = false

  @Option(help: ArgumentHelp("Only ties rated at least this (0 to 5).", valueName: "rating"))
  var minRating: String?

  @Option(help: ArgumentHelp("Only ties rated at most this (0 to 5).", valueName: "rating"))
  var maxRating: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Only ties last worn on or after this date (-30d, 2026-11-01…).", valueName: "date"))
  var wornSince: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Only ties not worn since this date, never-worn ones included.", valueName: "date"))
  var notWornSince: String?

  @Flag(help: "Only ties never worn.")
  var neverWorn = false

  @Option(
    help: ArgumentHelp(
      "key (R O Y G B I V), name (A to Z), rating (highest first), worn (most first) or "
        + "last-worn (most recent first).",
      valueName: "order"))
  var sort: TieFilter.Sort = .key

  @Flag(help: "Reverse the order.")
  var reverse = false

  @Option(help: ArgumentHelp("Show at most this many ties.", valueName: "n"))
  var limit: Int?

  func validate() throws {
    if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
    let filter = try ExitStatus.validating(self.filter)
    if let minimum = filter.minimumRating, let maximum = filter.maximumRating, minimum > maximum {
      throw ValidationError("--min-rating is above --max-rating: no tie can match")
    }
  }

  func filter() throws(BowTieError) -> TieFilter {
    var filter = TieFilter()
    filter.favoritesOnly = favorites
    filter.minimumRating = try minRating.map(BowTie.parseRating)
    filter.maximumRating = try maxRating.map(BowTie.parseRating)
    filter.wornSince = try wornSince.map(DateParsing.date)
    filter.notWornSince = try notWornSince.map(DateParsing.date)
    filter.neverWorn = neverWorn
    filter.sort = sort
    filter.reverse = reverse
    filter.limit = limit
    return filter
  }
}
