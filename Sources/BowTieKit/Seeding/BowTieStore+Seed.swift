import BowTieModel
import Foundation

/// What a seed did.
public struct SeedSummary: Equatable, Sendable, Codable {
  public var added = 0
  public var replaced = 0
  public var skipped = 0
}

/// What a seed does, or would do, with one entry.
public enum SeedOutcome: String, Codable, Sendable {
  case add, replace, skip
}

extension BowTieStore {
  /// Stores seed entries in one transaction, like the app's `insertSampleData`: an
  /// entry whose `id` (or, without one, whose `searchKey`) is already stored is
  /// skipped, or overwritten with `replacing`. Any failure changes nothing.
  ///
  /// An entry's `lastWorn` is the date of a real wear, so it is recorded as one (one of
  /// its `timesWorn`, the rest counted from before the history): the history and the
  /// monthly chart of a seeded store start with something true.
  ///
  /// - Parameter progress: called now and then with how many entries are done, of how many.
  @discardableResult
  public func seed(
    _ entries: [SeedEntry], replacing: Bool = false,
    progress: ((_ done: Int, _ total: Int) -> Void)? = nil
  ) throws(BowTieError) -> SeedSummary {
    SeedSummary(try seed(entries, replacing: replacing, dryRun: false, progress: progress))
  }

  /// What ``seed(_:replacing:)`` would do with each entry, without changing anything:
  /// the same seed, validated the same way, then rolled back.
  public func seedPlan(_ entries: [SeedEntry], replacing: Bool = false) throws(BowTieError)
    -> [SeedOutcome]
  {
    try seed(entries, replacing: replacing, dryRun: true, progress: nil)
  }

  private func seed(
    _ entries: [SeedEntry], replacing: Bool, dryRun: Bool,
    progress: ((_ done: Int, _ total: Int) -> Void)?
  ) throws(BowTieError) -> [SeedOutcome] {
    try write(rollingBack: dryRun) { db, photos in
      var outcomes: [SeedOutcome] = []
      outcomes.reserveCapacity(entries.count)
      // A seed into an empty store (a new one, most often) cannot meet a stored tie, and
      // the file itself has no repeated id or key: no look-up per entry is needed. Every
      // entry was validated as it was read.
      let storeWasEmpty = try db.fetchOne("SELECT 1 FROM bowTie LIMIT 1") == nil
      func stored(_ condition: String, _ value: String) throws -> BowTie? {
        try db.fetchOne(
          """
          SELECT \(BowTie.Columns.all) FROM bowTie \
          WHERE \(sql: condition) = \(value)\(db.dialect.lockingRead)
          """
        ).map(BowTie.init)
      }
      let suspended =
        storeWasEmpty && entries.count >= Self.bulkSeedSize ? try db.suspendIndexes() : []
      try db.insertMany(into: BowTie.Columns.table, columns: BowTie.Columns.stored) {
        insertTie in
        try db.insertMany(
          into: WearEvent.Columns.table,
          columns: [WearEvent.Columns.tieId, WearEvent.Columns.wornAt]
        ) { insertWear in
          for entry in entries {
            var tie = entry.tie
            let existing =
              storeWasEmpty
              ? nil
              : entry.hasExplicitID
                ? try stored(BowTie.Columns.id, tie.id.text)
                : try stored(BowTie.Columns.canonicalKey, BowTie.canonicalKey(tie.searchKey))
            if let existing {
              guard replacing else {
                outcomes.append(.skip)
                if let progress, outcomes.count % 1_000 == 0 {
                  progress(outcomes.count, entries.count)
                }
                continue
              }
              tie.id = existing.id
              // A plist's whole second that names the stored moment keeps the moment.
              if let stored = existing.lastWorn, let given = tie.lastWorn,
                given.timeIntervalSince1970.rounded(.down)
                  == stored.timeIntervalSince1970.rounded(.down)
              {
                tie.lastWorn = stored
              }
              // `seed --no-photos` leaves a replaced tie's photo as it is.
              if entry.photoSkipped { tie.keepPhoto(of: existing) }
            }
            let recordedWear =
              try tie.lastWorn != nil && tie.timesWorn > 0
              && (existing == nil || Self.canRecordLastWear(of: tie, in: db))
            // The wear's event adds its one back to timesWorn, through the trigger.
            if recordedWear { tie.timesWorn -= 1 }
            do {
              // The file's own keys were checked for repeats as it was read. An entry
              // without an id was just looked up by its key: no other stored tie has it.
              let keyIsFree = storeWasEmpty || !entry.hasExplicitID
              let checked: SaveChecks =
                !entry.isValidated ? [] : keyIsFree ? [.validated, .keyIsFree] : [.validated]
              try save(
                tie, replacing: existing, in: db, photos, alreadyChecked: checked,
                inserting: insertTie)
            } catch let BowTieError.invalidTie(_, failure) {
              throw BowTieError.invalidSeedEntry(
                index: entry.index, name: tie.name, key: failure.attribute, reason: failure.reason)
            }
            if recordedWear, let lastWorn = tie.lastWorn {
              try insertWear([.text(tie.id.text), .text(StorageDate.format(lastWorn))])
            }
            outcomes.append(existing == nil ? .add : .replace)
            if let progress, outcomes.count % 1_000 == 0 { progress(outcomes.count, entries.count) }
          }
        }
      }
      for index in suspended { try db.execute(index) }
      progress?(entries.count, entries.count)
      return outcomes
    }
  }

  /// From how many entries a seed into an empty store builds the secondary indexes once,
  /// at the end, rather than entry by entry (``SQLConnection/suspendIndexes()``).
  static let bulkSeedSize = 1_000
}

extension BowTieStore {
  /// Whether a replacing seed may record `tie`'s `lastWorn` as a wear: no wear is
  /// recorded in that second yet, and its `timesWorn` leaves one for it beyond those
  /// recorded.
  ///
  /// The second, not the instant: a plist writes dates in whole seconds, so a store's own
  /// export, seeded back with `--replace`, names its last wear without the milliseconds
  /// the store keeps.
  fileprivate static func canRecordLastWear(of tie: BowTie, in db: any SQLConnection) throws
    -> Bool
  {
    guard let lastWorn = tie.lastWorn else { return false }
    let second = Date(timeIntervalSince1970: lastWorn.timeIntervalSince1970.rounded(.down))
    let row = try db.fetchOne(
      """
      SELECT count(*) AS events,
        count(CASE WHEN wornAt >= \(StorageDate.format(second))
          AND wornAt < \(StorageDate.format(second.addingTimeInterval(1))) THEN 1 END)
          AS atLastWorn
      FROM wearEvent WHERE tieId = \(tie.id.text)
      """)
    let events: Int = try row?.decode("events") ?? 0
    let atLastWorn: Int = try row?.decode("atLastWorn") ?? 0
    return atLastWorn == 0 && Int(tie.timesWorn) > events
  }
}

extension SeedSummary {
  /// Counts outcomes.
  public init(_ outcomes: [SeedOutcome]) {
    self.init()
    for outcome in outcomes {
      switch outcome {
      case .add: added += 1
      case .replace: replaced += 1
      case .skip: skipped += 1
      }
    }
  }
}

/// The seven sample ties, built into the binary so a lone copy of it can seed them.
public enum SampleData {
  /// The bundled `SampleData.plist`, parsed, with its photos unless `photos` is false.
  public static func entries(photos includingPhotos: Bool = true) throws(BowTieError)
    -> [SeedEntry]
  {
    guard let plist = Data(base64Encoded: EmbeddedSampleData.plist) else {
      throw .invalidSeedFile(source: "built-in sample data", reason: "it is damaged")
    }
    var photos: [String: Data] = [:]
    for (name, base64) in EmbeddedSampleData.images {
      photos[name] = Data(base64Encoded: base64)
    }
    return try SeedFile.parse(
      plist, source: "built-in sample data",
      images: includingPhotos ? .embedded(photos) : .skipped)
  }
}
