import Foundation

/// Fills a ``Report`` from a store.
public struct ReportBuilder: Sendable {
  public var asOf: Date
  public var staleDays: Int
  public var months: Int
  public var calendar: Calendar

  /// - Parameters:
  ///   - asOf: the day the report describes; wears up to the end of that day count.
  ///   - calendar: whose time zone decides days and months.
  public init(asOf: Date, staleDays: Int = 30, months: Int = 12, calendar: Calendar = .current) {
    self.asOf = asOf
    self.staleDays = staleDays
    self.months = months
    self.calendar = calendar
  }

  public func build(from store: BowTieStore) throws(BowTieError) -> Report {
    let ties = try store.allTies()
    let endOfDay =
      calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: asOf)) ?? asOf
    let monthStarts = monthStarts()
    let wears = try store.wearDates(since: monthStarts.first ?? asOf, until: endOfDay)
    return build(ties: ties, wears: wears, monthStarts: monthStarts)
  }

  func build(ties: [BowTie], wears: [Date], monthStarts: [Date]) -> Report {
    let lines = ties.map { Self.line(for: $0, asOf: asOf, calendar: calendar) }
    let worn = lines.filter { $0.timesWorn > 0 }
    let most = worn.map(\.timesWorn).max()
    let least = worn.map(\.timesWorn).min()
    let stale = lines.filter { ($0.daysSinceWorn ?? -1) >= staleDays }
      .sorted { ($0.daysSinceWorn ?? 0) > ($1.daysSinceWorn ?? 0) }
    return Report(
      asOf: asOf,
      timeZone: calendar.timeZone.identifier,
      staleDays: staleDays,
      months: months,
      tieCount: lines.count,
      favoriteCount: lines.filter(\.isFavorite).count,
      averageRating: lines.isEmpty ? nil : lines.map(\.rating).reduce(0, +) / Double(lines.count),
      mostWorn: worn.filter { $0.timesWorn == most },
      leastWorn: worn.filter { $0.timesWorn == least },
      neverWorn: lines.filter { $0.timesWorn == 0 },
      notWornRecently: stale,
      wearsPerMonth: monthCounts(wears, monthStarts: monthStarts),
      ratingDistribution: Self.distribution(lines.map(\.rating)),
      suggestion: Suggester.suggestions(for: ties, asOf: asOf, calendar: calendar).first,
      ties: lines)
  }

  /// A tie as reports show it, with whole days since it was last worn.
  static func line(for tie: BowTie, asOf: Date, calendar: Calendar) -> Report.Tie {
    let days = tie.lastWorn.map { worn in
      max(
        0,
        calendar.dateComponents(
          [.day], from: calendar.startOfDay(for: worn), to: calendar.startOfDay(for: asOf)
        ).day ?? 0)
    }
    return Report.Tie(
      id: tie.id.uuidString, searchKey: tie.searchKey, name: tie.name, rating: tie.rating,
      timesWorn: Int(tie.timesWorn), lastWorn: tie.lastWorn, daysSinceWorn: days,
      isFavorite: tie.isFavorite, color: tie.tintColor?.hex)
  }

  /// The first instants of the last `months` calendar months, oldest first.
  func monthStarts() -> [Date] {
    let components = calendar.dateComponents([.year, .month], from: asOf)
    guard let current = calendar.date(from: components) else { return [] }
    return (0..<max(months, 0)).reversed().compactMap {
      calendar.date(byAdding: .month, value: -$0, to: current)
    }
  }

  private func monthCounts(_ wears: [Date], monthStarts: [Date]) -> [Report.Month] {
    var counts = [Int](repeating: 0, count: monthStarts.count)
    for wear in wears {
      if let index = monthStarts.lastIndex(where: { $0 <= wear }) { counts[index] += 1 }
    }
    return zip(monthStarts, counts).map { start, wears in
      let parts = calendar.dateComponents([.year, .month], from: start)
      let label = String(format: "%04d-%02d", parts.year ?? 0, parts.month ?? 0)
      return Report.Month(month: label, wears: wears)
    }
  }

  static func distribution(_ ratings: [Double]) -> [Report.RatingBucket] {
    (0...5).map { whole in
      let from = Double(whole)
      let to = whole == 5 ? 5 : from + 1
      let label = String(whole)
      let ties = ratings.filter { whole == 5 ? $0 == 5 : $0 >= from && $0 < to }.count
      return Report.RatingBucket(label: label, from: from, to: to, ties: ties)
    }
  }
}
