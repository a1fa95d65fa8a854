import BowTieModel
import Foundation

/// The step that turns a store's colors into UIKit's `UIColor` archives (SQLite's v8,
/// PostgreSQL's p3): each archive of bowties' own `TieColor` of before is rewritten as the
/// `UIColor` archive of the same color, inside the migration's transaction. Anything else
/// (a `UIColor` or `NSColor` archive already, or a damaged one) is left byte for byte.
public enum ColorArchiveMigration {
  /// Rewrites every `TieColor` archive in `connection`'s `bowTie` table; returns how many.
  /// Rows are read a thousand at a time, in the order of their ids, so that a store of a
  /// million ties costs no more memory than one of seven.
  @discardableResult
  public static func run(in connection: any SQLConnection) throws -> Int {
    let transformer = ColorAttributeTransformer()
    var after = ""
    var rewritten = 0
    while true {
      let rows = try connection.fetchRows(
        """
        SELECT id, tintColor FROM bowTie WHERE tintColor IS NOT NULL AND id > \(after)
          ORDER BY id LIMIT 1000
        """)
      guard let last = rows.last else { return rewritten }
      for row in rows {
        let id: String = try row.decode("id")
        let archive: Data = try row.decode("tintColor")
        guard let replacement = transformer.uiColorArchive(replacingTieColorArchive: archive)
        else { continue }
        try connection.execute("UPDATE bowTie SET tintColor = \(replacement) WHERE id = \(id)")
        rewritten += 1
      }
      after = try last.decode("id")
    }
  }
}
