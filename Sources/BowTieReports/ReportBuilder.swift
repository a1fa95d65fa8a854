import BowTieKit
import BowTieModel
import Foundation

/// Fills a ``Report`` from a store, with the SQL of ``ReportSQL``: counts and totals are
/// aggregates, each list an `ORDER BY … LIMIT`, so a store of a million ties makes a
/// report in the memory of a small one.
public struct ReportBuilder: Sendable {
  /// How many ties each list shows unless told otherwise (`--limit`).
  public static let defaultLimit = 10
  /// How many days unworn make a tie stale unless told otherwise (`--stale-days`).
  public static let defaultStaleDays = 30
  /// How many months the chart of wears covers unless told otherwise (`--months`).
  public static let defaultMonths = 12
  /// The list of every tie appears when the store holds at most this many ties, or when
  /// every list is shown whole: beyond it, a mailed report stays a summary.
  public static let allTiesThreshold = 100

  public var asOf: Date
  public var staleDays: Int
  public var months: Int
  /// How many ties each list shows at most; nil shows every list whole.
  public var limit: Int?
  public var calendar: Calendar

  /// - Parameters:
  ///   - asOf: the day the report describes; wears up to the end of that day count.
  ///   - limit: how many ties each list shows at most; nil for whole lists (`--all`).
  ///   - calendar: whose time zone decides days and months: the process's own (`TZ`) or
  ///     one with a fixed offset (``SQLDialect/dayShift(for:at:)``).
  public init(
    asOf: Date, staleDays: Int = defaultStaleDays, months: Int = defaultMonths,
    limit: Int? = defaultLimit,
    calendar: Calendar = .current
  ) {
    self.asOf = asOf
    self.staleDays = staleDays
    self.months = months
    self.limit = limit
    self.calendar = calendar
  }

  /// The report, with the ties each list shows.
  public func build(from store: BowTieStore) throws(BowTieError) -> Report {
    let parameters = try self.parameters(store.dialect)
    return try store.read { db in try build(db, parameters, loadingLists: true) }
  }

  /// Writes the report in `format` to `output`, from one consistent reading of the store.
  ///
  /// Whole lists (`limit` nil) are read row by row as they are written rather than
  /// loaded first, so their size costs time, not memory.
  public func write(
    from store: BowTieStore, as format: ReportFormat, locale: Locale,
    to output: inout some TextOutputStream
  ) throws(BowTieError) {
    let parameters = try self.parameters(store.dialect)
    try store.read { db in
      let report = try build(db, parameters, loadingLists: limit != nil)
      if limit == nil {
        let source = DatabaseTieSource(db: db, parameters: parameters, limited: false)
        try ReportRenderer.write(report, ties: source, as: format, locale: locale, to: &output)
      } else {
        try ReportRenderer.write(report, ties: report, as: format, locale: locale, to: &output)
      }
    }
  }

  private func build(_ db: any SQLConnection, _ parameters: Parameters, loadingLists: Bool)
    throws -> Report
  {
    guard let counts = try db.fetchOne(ReportSQL.summary(staleBefore: parameters.staleBefore))
    else {
      throw BowTieError.storeUnreadable(path: "", reason: "the report's counts cannot be read")
    }
    let tieCount: Int = try counts.decode("ties")
    let worn: Int = try counts.decode("worn")
    let source = DatabaseTieSource(db: db, parameters: parameters, limited: limit != nil)
    func list(_ list: Report.List, total: Int) throws -> Report.TieList {
      var ties: [Report.Tie] = []
      if loadingLists, total > 0 {
        try source.forEachTie(in: list) { ties.append($0) }
      }
      return Report.TieList(total: total, ties: ties)
    }
    let listsAllTies = limit == nil || tieCount <= Self.allTiesThreshold
    return Report(
      asOf: asOf,
      timeZone: calendar.timeZone.identifier,
      staleDays: staleDays,
      months: months,
      limit: limit,
      tieCount: tieCount,
      favoriteCount: try counts.decode("favorites"),
      averageRating: try counts.decode("averageRating"),
      mostWorn: try list(.mostWorn, total: worn),
      leastWorn: try list(.leastWorn, total: worn),
      neverWorn: try list(.neverWorn, total: counts.decode("neverWorn")),
      notWornRecently: try list(.notWornRecently, total: counts.decode("notWornRecently")),
      allTies: listsAllTies ? try list(.all, total: tieCount) : nil,
      wearsPerMonth: try wearsPerMonth(db),
      ratingDistribution: (0...5).map { whole in
        let from = Double(whole)
        return Report.RatingBucket(
          label: String(whole), from: from, to: whole == 5 ? 5 : from + 1,
          ties: (try? counts.decode("rated\(whole)")) ?? 0)
      },
      suggestion: try Suggester.suggestions(db, days: parameters.days, count: 1).first)
  }

  /// The values the report's SQL binds.
  struct Parameters {
    /// How days since a tie was worn are counted.
    var days: ReportSQL.Days
    /// The first instant a tie must have been worn since not to be stale.
    var staleBefore: String
    /// How many ties each list shows.
    var limit: Int64
  }

  func parameters(_ dialect: any SQLDialect) throws(BowTieError) -> Parameters {
    let startOfDay = calendar.startOfDay(for: asOf)
    let staleBefore =
      calendar.date(byAdding: .day, value: -(staleDays - 1), to: startOfDay) ?? startOfDay
    return Parameters(
      days: try Self.days(asOf: asOf, calendar: calendar, dialect: dialect),
      staleBefore: StorageDate.format(staleBefore), limit: Int64(limit ?? Int.max))
  }

  /// How ``SQLDialect/daysSinceWorn(asOfDay:dayShift:)`` counts days up to `asOf` in
  /// `calendar`'s time zone.
  static func days(asOf: Date, calendar: Calendar, dialect: any SQLDialect)
    throws(BowTieError) -> ReportSQL.Days
  {
    // A day as SQL writes it, on the Gregorian calendar whatever the locale prefers.
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = calendar.timeZone
    let day = gregorian.dateComponents([.year, .month, .day], from: asOf)
    let asOfDay = String(
      format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
    return ReportSQL.Days(
      asOfDay: asOfDay, dayShift: try dialect.dayShift(for: calendar.timeZone, at: asOf))
  }

  /// Wears in each of the last `months` calendar months, the current one counted up to
  /// the end of the as-of day.
  private func wearsPerMonth(_ db: any SQLConnection) throws -> [Report.Month] {
    let endOfDay =
      calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: asOf)) ?? asOf
    let starts = monthStarts()
    return try starts.enumerated().map { index, start in
      let end = index + 1 < starts.count ? starts[index + 1] : endOfDay
      let wears =
        try db.fetchValue(
          ReportSQL.wearsBetween(StorageDate.format(start), StorageDate.format(end)),
          as: Int.self) ?? 0
      let parts = calendar.dateComponents([.year, .month], from: start)
      let label = String(format: "%04d-%02d", parts.year ?? 0, parts.month ?? 0)
      return Report.Month(month: label, wears: wears)
    }
  }

  /// The first instants of the last `months` calendar months, oldest first.
  func monthStarts() -> [Date] {
    let components = calendar.dateComponents([.year, .month], from: asOf)
    guard let current = calendar.date(from: components) else { return [] }
    return (0..<max(months, 0)).reversed().compactMap {
      calendar.date(byAdding: .month, value: -$0, to: current)
    }
  }
}

/// A report's lists read from the store, inside the read that made the report.
struct DatabaseTieSource: ReportTieSource {
  let db: any SQLConnection
  let parameters: ReportBuilder.Parameters
  /// Whether each list stops at the parameters' `limit`.
  let limited: Bool

  func forEachTie(in list: Report.List, _ body: (Report.Tie) throws -> Void) throws {
    try db.forEachRow(sql(list)) { row in
      try body(try Report.Tie(row: row))
    }
  }

  func widths(of list: Report.List) throws -> Report.Widths {
    var widths = Report.Widths()
    try db.forEachRow(ReportSQL.listNames(sql(list))) { row in
      widths.include(
        key: try row.decode("searchKey"), name: try row.decode("name"), days: try row.decode("days")
      )
    }
    return widths
  }

  private func sql(_ list: Report.List) -> SQL {
    ReportSQL.list(
      list, db.dialect, parameters.days, staleBefore: parameters.staleBefore,
      limit: limited ? parameters.limit : nil)
  }
}

// MARK: - Database

extension Report.Tie {
  /// A row of ``ReportSQL/tieColumns(_:_:)``. A color that cannot be decoded is shown as
  /// none, as every listing shows it.
  init(row: any SQLRow) throws {
    func value<Value: SQLValueDecodable>(_ column: String) throws(BowTieError) -> Value {
      try row.decode(column)
    }
    func value<Value: SQLValueDecodable>(_ column: String) throws(BowTieError) -> Value? {
      try row.decode(column)
    }
    let archive: Data? = try value("tintColor")
    let transformer = try BowTie.colorTransformer()
    self.init(
      id: try value("id"), searchKey: try value("searchKey"), name: try value("name"),
      rating: try value("rating"), timesWorn: try value("timesWorn"),
      lastWorn: try (value("lastWorn") as String?).map(StorageDate.parse),
      daysSinceWorn: try value("days"), isFavorite: try value("isFavorite"),
      color: archive.flatMap { try? transformer.color(from: $0).hex })
  }
}
