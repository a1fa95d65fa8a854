import Foundation
import GRDB

/// What a seed did.
public struct SeedSummary: Equatable, Sendable, Codable {
  public var added = 0
  public var replaced = 0
  public var skipped = 0
}

extension BowTieStore {
  /// Stores seed entries in one transaction, like the app's `insertSampleData`: an
  /// entry whose `id` (or, without one, whose `searchKey`) is already stored is
  /// skipped, or overwritten with `replacing`. Any failure changes nothing.
  @discardableResult
  public func seed(_ entries: [SeedEntry], replacing: Bool = false) throws(BowTieError)
    -> SeedSummary
  {
    try write { db, changes in
      var summary = SeedSummary()
      for entry in entries {
        var tie = entry.tie
        let existing =
          entry.hasExplicitID
          ? try BowTie.filter(key: tie.id.uuidString).fetchOne(db)
          : try BowTie.filter(BowTie.Columns.canonicalKey == BowTie.canonicalKey(tie.searchKey))
            .fetchOne(db)
        if let existing {
          guard replacing else {
            summary.skipped += 1
            continue
          }
          tie.id = existing.id
        }
        do {
          try save(tie, replacing: existing, in: db, changes)
        } catch let BowTieError.invalidTie(_, failure) {
          throw BowTieError.invalidSeedEntry(
            index: entry.index, name: tie.name, key: failure.attribute, reason: failure.reason)
        }
        if existing == nil { summary.added += 1 } else { summary.replaced += 1 }
      }
      return summary
    }
  }
}

/// The seven sample ties, built into the binary so a lone copy of it can seed them.
public enum SampleData {
  /// The bundled `SampleData.plist`, parsed, with its photos.
  public static func entries() throws(BowTieError) -> [SeedEntry] {
    guard let plist = Data(base64Encoded: EmbeddedSampleData.plist) else {
      throw .invalidSeedFile(source: "built-in sample data", reason: "it is damaged")
    }
    var photos: [String: Data] = [:]
    for (name, base64) in EmbeddedSampleData.images {
      photos[name] = Data(base64Encoded: base64)
    }
    return try SeedFile.parse(plist, source: "built-in sample data", images: .embedded(photos))
  }
}
