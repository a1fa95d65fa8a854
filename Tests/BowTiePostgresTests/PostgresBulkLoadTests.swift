import Foundation
import NIOCore
import PostgresNIO
import PostgresTestSupport
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import BowTiePostgres

/// Rows a seed inserts by the hundred thousand go to the server by COPY, in COPY's text
/// format, which we write: every value must come back exactly as given.
@Suite("Bulk loading by COPY")
struct PostgresBulkLoadTests {
  @Test("fields in COPY's text format: escapes, NULL, bytea in hex, numbers")
  func encoding() {
    func encoded(_ values: [SQLValue]) -> String {
      var buffer = ByteBuffer()
      PostgresSQLConnection.appendCopyRow(values, to: &buffer)
      return buffer.readString(length: buffer.readableBytes)!
    }
    #expect(
      encoded([.text("a\tb\\c\nd\re"), .null, .text("\\N"), .text("")])
        == #"a\tb\\c\nd\re"# + "\t" + #"\N"# + "\t" + #"\\N"# + "\t\n")
    #expect(encoded([.text("\\.")]) == #"\\."# + "\n")
    #expect(
      encoded([.blob(Data([0, 0x0A, 0x5C, 0xFF])), .blob(Data())]) == #"\\x000a5cff"# + "\t"
        + #"\\x"# + "\n")
    #expect(
      encoded([.integer(-42), .real(0.1), .real(-0.0), .real(1e300)]) == "-42\t0.1\t-0.0\t1e+300\n")
    #expect(encoded([.text("Café 🎀 ñ")]) == "Café 🎀 ñ\n")
  }

  /// Text with every character COPY's format gives a meaning to, and others.
  static let awkwardTexts = [
    "plain", "", " ", "it's \"quoted\"", "tab\there", "back\\slash", "two \\\\ and \\N",
    "\\N", "\\.", "line\nbreak", "carriage\rreturn", "crlf\r\n", "\n", "\t\t", "\\",
    "trailing backslash\\", "Café crème, naïve", "🎀 bow 👔", "e\u{301} combining", "日本語",
    "\u{7F}\u{1}\u{1B}[0m", ",;|", "$1 ? :name",
  ]

  /// Bytes with every value, and the ones COPY's format and BYTEA's escape form give a
  /// meaning to.
  static let awkwardBytes = [
    Data(), Data([0]), Data((0...255).map { UInt8($0) }), Data("\\x41\\\\\n\t\r".utf8),
    Data(repeating: 0x5C, count: 100),
    Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }),
  ]

  static let awkwardDoubles: [Double] = [
    0, -0.0, 0.1, 1.0 / 3, -2.5, .pi, .leastNonzeroMagnitude, 2.2250738585072014e-308,
    .greatestFiniteMagnitude,
    -.greatestFiniteMagnitude, 1e16, 123_456_789.123_456_78, .infinity, -.infinity,
  ]

  @Test(
    "values come back exactly as given: quotes, tabs, backslashes, newlines, unicode, NULLs, bytea, doubles",
    .enabled(
      if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason))
  )
  func roundTrip() throws {
    let server = PostgresTestServer.shared!
    let database = try server.makeDatabase()
    let session = try PostgresSession.connect(
      try PostgresSettings.read(database.uri, environment: [:]), busyTimeout: 2)
    defer { session.close() }
    let connection = PostgresSQLConnection(session: session)
    try session.run(
      "CREATE TABLE t (n INTEGER PRIMARY KEY, a TEXT, i BIGINT, x DOUBLE PRECISION, b BYTEA)")
    var rows: [[SQLValue]] = []
    for (n, text) in Self.awkwardTexts.enumerated() {
      rows.append([.integer(Int64(n)), .text(text), .null, .null, .null])
    }
    for (n, bytes) in Self.awkwardBytes.enumerated() {
      rows.append([.integer(Int64(100 + n)), .null, .null, .null, .blob(bytes)])
    }
    for (n, number) in Self.awkwardDoubles.enumerated() {
      rows.append([.integer(Int64(200 + n)), .null, .null, .real(number), .null])
    }
    for (n, number) in [0, 1, -1, Int64.max, Int64.min].enumerated() {
      rows.append([.integer(Int64(300 + n)), .text("\(number)"), .integer(number), .null, .null])
    }
    rows.append([.integer(400), .null, .null, .null, .null])
    try session.run("BEGIN")
    try connection.insertMany(into: "T", columns: ["N", "a", "i", "x", "b"]) { insert in
      for row in rows { try insert(row) }
    }
    try session.run("COMMIT")
    let stored = try connection.fetchRows("SELECT n, a, i, x, b FROM t ORDER BY n")
    #expect(stored.count == rows.count)
    for (row, back) in zip(rows, stored) {
      for column in 0..<5 {
        let value = back[column]
        #expect(value == row[column], "row \(row[0]), column \(column)")
        if case .real(let number) = row[column], case .real(let read) = value {
          // -0.0 == 0.0: the sign must survive too.
          #expect(number.sign == read.sign, "row \(row[0])")
        }
      }
    }
    // Text that a COPY would read as its own escapes is stored as the characters given.
    #expect(
      try connection.fetchValue("SELECT length(a) FROM t WHERE a = \("\\N")", as: Int.self) == 2)
  }

  @Test(
    "queued rows are sent before the next statement, in batches, and all or none with the transaction",
    .enabled(
      if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason))
  )
  func transactions() throws {
    let server = PostgresTestServer.shared!
    let database = try server.makeDatabase()
    let session = try PostgresSession.connect(
      try PostgresSettings.read(database.uri, environment: [:]), busyTimeout: 2)
    defer { session.close() }
    let connection = PostgresSQLConnection(session: session)
    try session.run("CREATE TABLE parent (id INTEGER PRIMARY KEY, filler TEXT)")
    try session.run("CREATE TABLE child (parent INTEGER NOT NULL REFERENCES parent (id))")
    let filler = String(repeating: "x", count: 500)
    // Several batches' worth, each child after its parent.
    let count = 3 * PostgresSession.copyBatchBytes / filler.utf8.count
    func load(lastParent: Int64) throws {
      try connection.insertMany(into: "parent", columns: ["id", "filler"]) { insertParent in
        try connection.insertMany(into: "child", columns: ["parent"]) { insertChild in
          for id in 0..<Int64(count) {
            try insertParent([.integer(id == count - 1 ? lastParent : id), .text(filler)])
            try insertChild([.integer(id == count - 1 ? lastParent : id)])
          }
        }
      }
    }
    func stored() throws -> Int? {
      try connection.fetchValue(
        "SELECT (SELECT count(*) FROM parent) + (SELECT count(*) FROM child)", as: Int.self)
    }

    try session.run("BEGIN")
    try load(lastParent: Int64(count - 1))
    // A statement sees the rows given before it.
    #expect(try stored() == 2 * count)
    try session.run("ROLLBACK")
    #expect(try stored() == 0)

    // Rows given before a statement inside the call are sent before it runs.
    try session.run("BEGIN")
    try connection.insertMany(into: "parent", columns: ["id", "filler"]) { insert in
      try insert([.integer(1), .text("seen")])
      #expect(try stored() == 1)
      try insert([.integer(2), .text("sent at the end")])
    }
    #expect(try stored() == 2)
    try session.run("ROLLBACK")

    // Queued rows a rollback undoes are not sent at all, and not sent later either.
    struct Stop: Error {}
    try session.run("BEGIN")
    #expect(throws: Stop.self) {
      try connection.insertMany(into: "parent", columns: ["id", "filler"]) { insert in
        try insert([.integer(1), .text("dropped")])
        throw Stop()
      }
    }
    try session.run("ROLLBACK")
    #expect(try stored() == 0)

    // A row with a value too many or too few is refused before it is sent.
    try session.run("BEGIN")
    #expect(throws: BowTieError.self) {
      try connection.insertMany(into: "parent", columns: ["id", "filler"]) { insert in
        try insert([.integer(1)])
      }
    }
    try session.run("ROLLBACK")

    // A duplicate key in the last batch: loading it fails, and earlier batches, sent
    // already, go with the transaction.
    try session.run("BEGIN")
    #expect(throws: BowTieError.self) { try load(lastParent: 0) }
    // Whether the failed COPY has already ended the transaction is the server's business.
    _ = try? session.run("ROLLBACK")
    #expect(try stored() == 0)

    try session.run("BEGIN")
    try load(lastParent: Int64(count - 1))
    try session.run("COMMIT")
    #expect(try stored() == 2 * count)
  }

  @Test(
    "a seed into a PostgreSQL store stores what the same seed stores in SQLite",
    .enabled(
      if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason))
  )
  func seed() throws {
    ColorAttributeTransformer.register()
    let server = PostgresTestServer.shared!
    let database = try server.makeDatabase()
    // Enough entries for the bulk path (indexes suspended, several COPY batches), with
    // awkward names and URLs, some never worn.
    var items: [[String: Any]] = []
    for n in 0..<3_000 {
      var item: [String: Any] = [
        "id": String(format: "%08X-0000-4000-8000-%012X", n, n),
        "name": "\(Self.awkwardTexts[n % Self.awkwardTexts.count].filter(\.isPrintable)) #\(n)",
        "searchKey": "K\(n)", "rating": Double(n % 11) / 2,
        "tintColor": ["red": n % 256, "green": (n / 256) % 256, "blue": 7],
        "isFavorite": n % 5 == 0, "url": "https://example.com/ties/\(n)?q=a%09b",
      ]
      if n % 10 != 0 {
        item["timesWorn"] = n % 37 + 1
        item["lastWorn"] = String(format: "2025-%02d-%02dT08:00:00Z", n % 12 + 1, n % 28 + 1)
      }
      if n % 7 == 0 { item["price"] = "\(n).99" }
      items.append(item)
    }
    let json = try JSONSerialization.data(withJSONObject: items)
    let entries = try SeedFile.parse(json, source: "test", images: .skipped, format: .json)
    let (store, created) = try PostgresEngine.open(uri: database.uri, environment: [:]) {
      try $0.seed(entries)
    }
    defer { try? store.closeDatabase() }
    #expect(created)
    let reference = try BowTieStore.inMemory()
    try reference.seed(entries)
    #expect(try store.allTies() == reference.allTies())
    #expect(try store.history() == reference.history())
    let health = try server.psql(
      "SELECT count(*) FROM bowtie WHERE timesworn <> wearsbeforehistory + "
        + "(SELECT count(*) FROM wearevent WHERE tieid = bowtie.id)",
      user: database.role, password: database.password, database: database.role)
    #expect(health.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
  }
}

extension Character {
  /// Not a control character: what a tie's name may hold.
  fileprivate var isPrintable: Bool {
    !unicodeScalars.contains { $0.properties.generalCategory == .control }
  }
}
