import Foundation
import PostgresTestSupport
import Synchronization
import Testing

/// The same commands on a SQLite file and on a PostgreSQL store print the same: the store's
/// SQL is one, and every difference between the engines is a bug a user would meet.
@Suite(
  "One command script, two engines",
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct EngineParityTests {
  let server = PostgresTestServer.shared!
  nonisolated(unsafe) static let addedID =
    /(?!0B0771E5)[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/

  @Test(
    "list, show, wear, rate, favorite, add, edit, remove, undo, history, suggest, reports, export and errors"
  )
  func sameAnswers() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    // Above the external-storage cutoff: a file beside the SQLite store, a row of `photo`
    // on the server.
    let large = bowties.folder.appendingPathComponent("large.png")
    try testPNG(bytes: 200_000).write(to: large)
    let small = Fixtures.photo("orientation-6.jpg").path
    let asOf = "2026-11-21"
    var script: [[String]] = [
      ["list"], ["show", "R"], ["show", "R", "--json"], ["list", "--json"],
      ["wear", "R", "--date", "2026-11-20T08:00:00Z"], ["wear", "I", "--date", "2026-11-19"],
      ["rate", "O", "4.5"], ["favorite", "Y", "--toggle"], ["favorite", "R", "--json"],
      ["add", "--name", "Paisley", "--key", "P", "--rating", "2", "--photo", large.path],
      ["add", "--name", "Phone", "--key", "J", "--rating", "3.5", "--photo", small],
      ["edit", "P", "--price", "19.99", "--color", "teal"], ["show", "P"], ["show", "J", "--json"],
      ["remove", "G", "--yes"], ["undo"], ["remove", "V", "--yes", "--json"],
      ["history"], ["history", "R", "--json"], ["suggest", "--as-of", asOf],
      ["suggest", "--as-of", asOf, "--count", "3", "--json"],
      ["list", "--sort", "name", "--reverse"], ["list", "--favorites"],
      ["list", "--sort", "last-worn"], ["list", "--min-rating", "3", "--json"],
    ]
    for format in ["text", "markdown", "html", "json", "csv"] {
      script.append(["report", "--format", format, "--as-of", asOf])
    }
    script += [
      ["export", "--format", "json", "--output", "-"],
      ["export", "--format", "plist", "--output", "-"],
      ["photo", "P", "--output", "-"],
      ["show", "nope"], ["show", "Pa"], ["rate", "R", "9"], ["wear", "P", "--date", "nonsense"],
      ["edit", "R", "--color", "#ＡＢＣ"],
      ["add", "--name", "Red again", "--key", "r", "--rating", "1"],
      ["undo"], ["undo"], ["undo", "--json"], ["doctor"], ["doctor", "--json"],
    ]
    let sqlite = bowties.store
    for command in script {
      let onFile = try bowties.run(BowtiesSandbox.binary.path, command + ["--store", sqlite])
      let onServer = try bowties.run(
        BowtiesSandbox.binary.path, command + ["--store", database.uri])
      let masked = database.uri.replacingOccurrences(of: database.password, with: "****")
      // The ties the script adds get random ids, one on each store; the sample ties'
      // ids are fixed, and must come out the same.
      func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: sqlite, with: "STORE")
          .replacingOccurrences(of: masked, with: "STORE")
          .replacing(Self.addedID, with: "ADDED-ID")
      }
      #expect(onFile.status == onServer.status, "\(command): \(onFile.stderr) / \(onServer.stderr)")
      #expect(normalized(onFile.stdout) == normalized(onServer.stdout), "\(command)")
      #expect(normalized(onFile.stderr) == normalized(onServer.stderr), "\(command)")
      #expect(
        !onServer.stdout.contains(database.password) && !onServer.stderr.contains(database.password)
      )
    }
  }

  @Test("two clients at once: 2 × 50 wears add 100 with 100 events, 2 × 25 toggles leave the flag")
  func concurrentClients() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    @Sendable func run(_ arguments: [String]) throws -> BowtiesSandbox.Result {
      try bowties.run(BowtiesSandbox.binary.path, arguments + ["--store", database.uri])
    }
    let before = try run(["show", "Y", "--json"])
    #expect(before.status == 0 && before.stdout.contains("\"isFavorite\" : false"))
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { client in
      for round in 0..<50 {
        let command = round % 2 == 0 ? ["favorite", "Y", "--toggle"] : ["wear", "I"]
        let result =
          (try? run(command)) ?? BowtiesSandbox.Result(status: -1, stdout: "", stderr: "")
        if result.status != 0 {
          failures.withLock { $0.append("client \(client): \(command): \(result.stderr)") }
        }
        let wear = try? run(["wear", "B"])
        if wear?.status != 0 { failures.withLock { $0.append("client \(client): wear B") } }
      }
    }
    #expect(failures.withLock { $0 } == [])
    let blue = try run(["show", "B", "--json"]).stdout
    let yellow = try run(["show", "Y", "--json"]).stdout
    let history = try run(["history", "B", "--json"]).stdout
    let events = try JSONSerialization.jsonObject(with: Data(history.utf8)) as? [Any]
    let seededEvents = 1
    #expect(events?.count == 100 + seededEvents)
    #expect(blue.contains("\"timesWorn\" : 115"), "\(blue)")
    #expect(yellow.contains("\"isFavorite\" : false"), "\(yellow)")
    #expect(try run(["doctor"]).status == 0)
  }
}
