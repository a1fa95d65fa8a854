import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

extension TieFilter.Sort: ExpressibleByArgument {}

/// Which ties `list` shows, and in which order.
struct FilterOptions: ParsableArguments {
  @Flag(help: "Only favorites.")
  var favorites = false

  // Values are taken even when they start with "-", so that "-1" gets a clear refusal.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Only ties rated at least this (0 to 5).", valueName: "rating"))
  var minRating: RatingArgument?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Only ties rated at most this (0 to 5).", valueName: "rating"))
  var maxRating: RatingArgument?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Only ties last worn on or after this date (-30d, 2026-11-01…).", valueName: "date"))
  var wornSince: DateArgument?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Only ties not worn since this date, never-worn ones included.", valueName: "date"))
  var notWornSince: DateArgument?

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

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Show at most this many ties.", valueName: "n"))
  var limit: ListLimit?

  func validate() throws {
    if let minRating, let maxRating, minRating.value > maxRating.value {
      throw ValidationError("--min-rating is above --max-rating: no tie can match")
    }
  }

  var filter: TieFilter {
    var filter = TieFilter()
    filter.favoritesOnly = favorites
    filter.minimumRating = minRating?.value
    filter.maximumRating = maxRating?.value
    filter.wornSince = wornSince?.date
    filter.notWornSince = notWornSince?.date
    filter.neverWorn = neverWorn
    filter.sort = sort
    filter.reverse = reverse
    filter.limit = limit?.value
    return filter
  }
}
