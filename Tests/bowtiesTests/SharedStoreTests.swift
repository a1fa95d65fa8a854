import Foundation
import PostgresTestSupport
import Synchronization
import Testing

/// What several clients of one PostgreSQL store meet: a lock held too long, a tie removed
/// while someone wears it, TLS, and a photo another tool damaged.
@Suite(
  "Clients of a shared PostgreSQL store",
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct SharedStoreTests {
  let server = PostgresTestServer.shared!

  @Test("a tie locked by another client past BOWTIES_BUSY_TIMEOUT: 75, one line, nothing written")
  func busy() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    #expect(try bowties(["list"], store: database.uri).status == 0)
    // Another client holds the red tie's row for 4 seconds.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
    holder.arguments = [
      "-X", "-q", "-h", "127.0.0.1", "-p", String(server.port), "-U", database.role,
      "-d", database.role, "-c",
      "BEGIN; SELECT 1 FROM bowTie WHERE canonicalKey = 'r' FOR UPDATE; SELECT pg_sleep(4); COMMIT;",
    ]
    holder.environment = ["PGPASSWORD": database.password, "PGSSLMODE": "disable"]
    holder.standardOutput = FileHandle.nullDevice
    try holder.run()
    defer { holder.waitUntilExit() }
    var locked = false
    for _ in 0..<100 where !locked {
      usleep(50_000)
      let waiting = try server.superuser(
        "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(4)%' AND pid <> pg_backend_pid()"
      )
      locked = waiting.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }
    try #require(locked)
    let start = Date()
    let blocked = try bowties(
      ["wear", "R"], store: database.uri, environment: ["BOWTIES_BUSY_TIMEOUT": "1"])
    let waited = Date().timeIntervalSince(start)
    #expect(blocked.status == 75, "\(blocked)")
    #expect(blocked.stderr.split(separator: "\n").count == 1, "\(blocked.stderr)")
    #expect(waited < 3.5, "waited \(waited) s")
    // Another tie is not held up.
    #expect(try bowties(["wear", "B"], store: database.uri).status == 0)
    holder.waitUntilExit()
    let red = try bowties(["show", "R", "--json"], store: database.uri).stdout
    #expect(red.contains("\"timesWorn\" : 10"), "\(red)")
    #expect(try bowties(["wear", "R"], store: database.uri).status == 0)
  }

  @Test("remove racing wear on one tie: one wins, the other says no tie matches, doctor healthy")
  func removeRacingWear() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    var outcomes: [Int32: Int] = [:]
    for round in 0..<12 {
      let key = "K\(round)"
      try #require(
        try bowties(["add", "--name", "Tie \(round)", "--key", key], store: database.uri)
          .status == 0)
      let results = Mutex<[[String]: BowtiesSandbox.Result]>([:])
      DispatchQueue.concurrentPerform(iterations: 2) { side in
        let command = side == 0 ? ["remove", key, "--yes"] : ["wear", key]
        // Starting the wear a little later each round moves the race's winner.
        if side == 1 { usleep(UInt32(round % 6) * 15_000) }
        let result =
          (try? bowties(command, store: database.uri))
          ?? BowtiesSandbox.Result(status: -1, stdout: "", stderr: "did not run")
        results.withLock { $0[command] = result }
      }
      let removed = results.withLock { $0[["remove", key, "--yes"]] }
      let worn = results.withLock { $0[["wear", key]] }
      #expect(removed?.status == 0, "\(String(describing: removed))")
      #expect(worn?.status == 0 || worn?.status == 1, "\(String(describing: worn))")
      if worn?.status == 1 {
        #expect(worn?.stderr.contains("no tie matches") == true, "\(String(describing: worn))")
        #expect(worn?.stderr.split(separator: "\n").count == 1)
      }
      outcomes[worn?.status ?? -1, default: 0] += 1
    }
    #expect(outcomes.values.reduce(0, +) == 12)
    print("remove racing wear: the wear won \(outcomes[0] ?? 0) of 12 rounds")
    let doctor = try bowties(["doctor"], store: database.uri)
    #expect(doctor.status == 0, "\(doctor)")
    let history = try bowties(["history", "--json"], store: database.uri).stdout
    #expect(!history.contains("Tie "), "a removed tie's wears went with it")
  }

  @Test("TLS through the shipped binary: verify-full with the right authority, 74 with another")
  func tls() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    let base = database.uri.replacingOccurrences(of: "?sslmode=disable", with: "")
    let checked = try bowties(
      ["wear", "R"],
      store: base + "?sslmode=verify-full&sslrootcert=\(server.authority.path)")
    #expect(checked.status == 0, "\(checked.stderr)")
    let wrong = try bowties(
      ["wear", "R"],
      store: base + "?sslmode=verify-full&sslrootcert=\(server.otherAuthority.path)")
    #expect(wrong.status == 74, "\(wrong)")
    #expect(wrong.stderr.split(separator: "\n").count == 1 && wrong.stderr.contains("TLS"))
    #expect(!wrong.stderr.contains(database.password))
    let red = try bowties(["show", "R", "--json"], store: database.uri).stdout
    #expect(red.contains("\"timesWorn\" : 11"), "\(red)")
  }

  @Test("doctor on a database without a store, or a newer one: 65, the problem named, nothing made")
  func doctorMakesNoStore() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    let tables = {
      try server.superuser(
        "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: database.role)
    }
    for repair in [[], ["--repair"]] {
      let doctor = try bowties(["doctor"] + repair, store: database.uri)
      #expect(doctor.status == 65 && doctor.stderr.isEmpty, "\(doctor)")
      #expect(
        doctor.stdout.contains(
          "problem   schema  no store in this database yet: the next command makes one"),
        "\(doctor.stdout)")
      #expect(try tables() == "0\n", "\(repair)")
    }
    // So the first command still gives the sample ties.
    let list = try bowties(["list"], store: database.uri)
    #expect(list.stderr.hasSuffix("with 7 ties\n"), "\(list)")
    #expect(try bowties(["doctor"], store: database.uri).status == 0)
    try server.psql(
      "INSERT INTO bowties_migrations (name) VALUES ('z1: from a newer bowties')",
      user: database.role, password: database.password, database: database.role)
    for repair in [[], ["--repair"]] {
      let newer = try bowties(["doctor"] + repair, store: database.uri)
      #expect(newer.status == 65, "\(newer)")
      #expect(newer.stdout.contains("written by a newer bowties (migrations z1"), "\(newer)")
    }
  }

  @Test("doctor on an older store reports it and leaves it; doctor --repair upgrades it")
  func doctorOnOlderStore() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    #expect(try bowties(["list"], store: database.uri).status == 0)
    let psql = { (sql: String) in
      try server.psql(
        sql, user: database.role, password: database.password, database: database.role)
    }
    // The store as bowties left it before prices had a currency.
    _ = try psql(OlderStores.beforePriceCurrency)
    let hasCurrency =
      "SELECT count(*) FROM information_schema.columns WHERE column_name = 'currency'"
    let older = try bowties(["doctor"], store: database.uri)
    #expect(older.status == 65, "\(older)")
    #expect(
      older.stdout.contains(
        "problem   schema  older than this bowties (missing p2: price currency)"),
      "\(older.stdout)")
    #expect(try psql(hasCurrency) == "0\n")
    let repaired = try bowties(["doctor", "--repair"], store: database.uri)
    #expect(repaired.status == 0, "\(repaired)")
    #expect(repaired.stdout.contains(": 7 ties, 0 photo files\n"), "\(repaired.stdout)")
    #expect(repaired.stdout.contains("repaired  schema  older than this bowties"))
    #expect(try psql(hasCurrency) == "1\n")
  }

  @Test("doctor finds a photo another client damaged in the photo table, and names the tie")
  func damagedPhoto() throws {
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    let large = bowties.folder.appendingPathComponent("large.png")
    try testPNG(bytes: 200_000, seed: 3).write(to: large)
    #expect(
      try bowties(["add", "--name", "Paisley", "--photo", large.path], store: database.uri)
        .status == 0)
    #expect(try bowties(["doctor"], store: database.uri).status == 0)
    try server.psql(
      "UPDATE photo SET data = 'not a photo'::bytea", user: database.role,
      password: database.password, database: database.role)
    let doctor = try bowties(["doctor"], store: database.uri)
    #expect(doctor.status != 0, "\(doctor)")
    #expect(doctor.stdout.contains("Paisley"), "\(doctor.stdout)")
    let show = try bowties(["photo", "Paisley", "--output", "-"], store: database.uri)
    #expect(show.status != 0 && show.stdout.isEmpty, "\(show.stderr)")
  }
}
