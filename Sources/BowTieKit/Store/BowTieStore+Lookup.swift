import BowTieModel
import Foundation

// Finding the tie a command names, and reading ties, their count and their photos.

extension BowTieStore {
  /// Finds the one tie `query` names: a search key (`R`, `r`), an id, a name, or a
  /// unique prefix of the canonical name (`cafe` finds "Café Bow Tie").
  ///
  /// - Parameter loadingPhoto: whether to read the photo's bytes, from the file when
  ///   it is stored externally.
  public func tie(matching query: String, loadingPhoto: Bool = false) throws(BowTieError) -> BowTie
  {
    var tie = try read { connection in checkingPhoto(try Self.resolve(query, in: connection)) }
    if loadingPhoto {
      // The same photo, its bytes now at hand: what the store recorded of it stays.
      let (byteCount, description) = (tie.storedPhotoByteCount, tie.storedPhotoDescription)
      tie.photoData = try photoData(of: tie)
      tie.storedPhotoByteCount = byteCount
      tie.storedPhotoDescription = description
    }
    return tie
  }

  /// Every tie, R O Y G B I V first and then by name, without the photos' bytes.
  public func allTies() throws(BowTieError) -> [BowTie] {
    try read { connection in
      try connection.fetchAll(
        "SELECT \(BowTie.Columns.listing) FROM bowTie ORDER BY \(BowTie.appOrder)", BowTie.init)
    }
  }

  /// The search keys that begin with `prefix`, as the key is matched (case aside), in
  /// their order, at most `limit`: what a shell offers for a `TIE`.
  public func searchKeys(startingWith prefix: String, limit: Int) throws(BowTieError) -> [String] {
    let canonical = BowTie.canonicalKey(prefix)
    return try read { connection in
      try connection.fetchValues(
        """
        SELECT searchKey FROM bowTie WHERE canonicalKey >= \(canonical) \
        AND canonicalKey < \(canonical + "\u{10FFFF}") \
        ORDER BY canonicalKey LIMIT \(sql: String(limit))
        """)
    }
  }

  /// The number of ties in the store.
  public func count() throws(BowTieError) -> Int {
    try read { connection in try connection.fetchValue("SELECT count(*) FROM bowTie") ?? 0 }
  }

  /// The photo's bytes, read from its external file when it has one.
  public func photoData(of tie: BowTie) throws(BowTieError) -> Data? {
    if let name = tie.externalPhotoName {
      return try engine.readPhoto(name, expectedSize: tie.storedPhotoByteCount, tie: tie.name)
    }
    if tie.photoData == nil, tie.storedPhotoByteCount != nil {
      // A listing fetch skipped the bytes; fetch them now.
      return try read { connection in
        try connection.fetchValue("SELECT photoData FROM bowTie WHERE id = \(tie.id.text)")
      }
    }
    return tie.photoData
  }

  /// Describes a problem with the tie's external photo file, or nil when it is intact
  /// or the photo is inline. Cheaper than ``photoData(of:)``: it only checks the size.
  public func photoProblem(of tie: BowTie) -> BowTieError? {
    guard let name = tie.externalPhotoName else { return nil }
    return engine.photoProblem(name, expectedSize: tie.storedPhotoByteCount, tie: tie.name)
  }

  /// `tie` as it is handed out to be shown: with its ``BowTie/photoIssue``. A write checks
  /// it inside its transaction, so that nothing reaches the store after the commit.
  func checkingPhoto(_ tie: BowTie) -> BowTie {
    var tie = tie
    tie.photoIssue = photoProblem(of: tie)
    return tie
  }

  /// The one tie `query` names (``tie(matching:loadingPhoto:)``). In a write transaction
  /// (`locking`), its row stays locked until the transaction ends, so that what the command
  /// read of it is what it changes.
  static func resolve(_ query: String, in connection: any SQLConnection, locking: Bool = false)
    throws -> BowTie
  {
    let lock = locking ? connection.dialect.lockingRead : ""
    func ties(where condition: SQL, limit: Int) throws -> [BowTie] {
      try connection.fetchAll(
        """
        SELECT \(BowTie.Columns.all) FROM bowTie WHERE \(condition) \
        ORDER BY \(BowTie.appOrder) LIMIT \(sql: String(limit))\(lock)
        """, BowTie.init)
    }
    let trimmed = query.trimmingSpaces()
    // GRDB binds text as a C string, so SQLite would see the query only up to a NUL ("B\0x"
    // found B). No key or name holds one: validation refuses control characters.
    guard !trimmed.isEmpty, !trimmed.utf8.contains(0) else { throw BowTieError.noSuchTie(query) }
    let canonical = BowTie.canonicalize(trimmed)
    // The common case, a search key, on its unique index.
    if let row = try connection.fetchOne(
      "SELECT \(BowTie.Columns.all) FROM bowTie WHERE canonicalKey = \(canonical)\(lock)")
    {
      return try BowTie(row: row)
    }
    // Not UUID(uuidString:): on Linux its sscanf reads "…-80+0-…" as "…-8000-…" and stops
    // at a NUL, so text that is no id found a tie.
    if let id = UUID(text: trimmed),
      let row = try connection.fetchOne(
        "SELECT \(BowTie.Columns.all) FROM bowTie WHERE id = \(id.text)\(lock)")
    {
      return try BowTie(row: row)
    }
    let exact = try ties(where: "canonicalName = \(canonical)", limit: 11)
    if exact.count == 1 { return exact[0] }
    if exact.count > 1 {
      throw BowTieError.ambiguousTie(query, candidates: exact.map(\.label))
    }
    // A range on the indexed column finds every name that starts with the prefix.
    let prefixed = try ties(
      where: "canonicalName >= \(canonical) AND canonicalName < \(canonical + "\u{10FFFF}")",
      limit: 11)
    switch prefixed.count {
    case 0: throw BowTieError.noSuchTie(query)
    case 1: return prefixed[0]
    default: throw BowTieError.ambiguousTie(query, candidates: prefixed.map(\.label))
    }
  }
}

extension BowTie {
  /// "Red Bow Tie (R)": how candidates are listed when a name is ambiguous.
  var label: String { "\(name) (\(searchKey))" }
}
