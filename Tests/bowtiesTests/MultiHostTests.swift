import Foundation
import PostgresTestSupport
import Synchronization
import Testing

/// One store, several machines: a PostgreSQL server in a network namespace of its own, and
/// two client hosts in theirs running the `bowties` binary, joined by a bridge as by a
/// switch. What a shared store promises is only true if it holds across a real network,
/// whose links fail and whose server restarts and crashes.
@Suite(
  "Several hosts: one server, two clients, in network namespaces", .serialized,
  .enabled(if: MultiHostLab.unavailableReason == nil, MultiHostLab.skipComment))
struct MultiHostTests {
  let lab: MultiHostLab
  let bowties: BowtiesSandbox

  init() throws {
    lab = try MultiHostLab.shared.get()
    bowties = BowtiesSandbox()
  }

  var server: PostgresTestServer { lab.server }
  var network: NetworkNamespaces { lab.network }

  @Test("2 × 50 wears of one tie from two hosts at once add exactly 100, with 100 events")
  func concurrentWears() throws {
    let store = try makeStore()
    let before = try tie("B", store)
    let eventsBefore = try events("B", store)
    let failures = Mutex<[String]>([])
    let counts = Mutex<[Int]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { host in
      for _ in 0..<50 {
        let wear = client(host, ["wear", "B", "--json"], store)
        guard wear.status == 0, let worn = try? Self.decode(wear) else {
          failures.withLock { $0.append("host \(host + 1): \(wear)") }
          continue
        }
        counts.withLock { $0.append(worn.timesWorn) }
      }
    }
    #expect(failures.withLock { $0 } == [])
    #expect(try tie("B", store).timesWorn == before.timesWorn + 100)
    #expect(try events("B", store) == eventsBefore + 100)
    // One after the other: each wear saw the count the one before it left.
    #expect(counts.withLock { $0 }.sorted() == Array(before.timesWorn + 1...before.timesWorn + 100))
    #expect(client(0, ["doctor"], store).status == 0)
  }

  @Test("2 × 25 favorite --toggle of one tie from two hosts at once leave the flag as it was")
  func concurrentToggles() throws {
    let store = try makeStore()
    let before = try tie("Y", store).isFavorite
    let failures = Mutex<[String]>([])
    let flags = Mutex<[Bool]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { host in
      for _ in 0..<25 {
        let toggle = client(host, ["favorite", "Y", "--toggle", "--json"], store)
        guard toggle.status == 0, let tie = try? Self.decode(toggle) else {
          failures.withLock { $0.append("host \(host + 1): \(toggle)") }
          continue
        }
        flags.withLock { $0.append(tie.isFavorite) }
      }
    }
    #expect(failures.withLock { $0 } == [])
    #expect(try tie("Y", store).isFavorite == before)
    // One after the other, the toggles set and cleared the flag in turn: as often each.
    // Two that read the same flag would both have set it, or both cleared it.
    let set = flags.withLock { $0.filter { $0 }.count }
    #expect(set == 25, "\(set) of the 50 toggles set the flag")
    // And a lone toggle does change it: the flag is read back, not assumed.
    #expect(client(1, ["favorite", "Y", "--toggle"], store).status == 0)
    #expect(try tie("Y", store).isFavorite == !before)
  }

  @Test(
    "interleaved rates from two hosts leave one host's last value; the fields each edits meanwhile keep its last"
  )
  func interleavedRates() throws {
    let store = try makeStore()
    // Each host rates with values of its own, none of them the tie's rating now, so that
    // the final rating tells whose write came last.
    let ratings: [[Double]] = [
      (0..<20).map { [1, 1.5, 2, 2.5][$0 % 4] }, (0..<20).map { [3, 4, 4.5, 5][$0 % 4] },
    ]
    try #require(!ratings.joined().contains(try tie("O", store).rating))
    // Between its rates, each host edits a field the other never writes: a stale copy of
    // it written back by the other host's rate or edit would show in what the next
    // command prints.
    let start = try tie("O", store)
    // The first host sets the price, the second the URL.
    @Sendable func own(_ host: Int, _ tie: Tie) -> String? { host == 0 ? tie.price : tie.url }
    @Sendable func edit(_ host: Int, _ round: Int) -> (arguments: [String], value: String) {
      let (option, value) =
        host == 0
        ? ("--price", "\(10 + round).25") : ("--url", "https://example.com/host-2/\(round)")
      return (["edit", "O", option, value], value)
    }
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { host in
      var mine = own(host, start)
      for (round, rating) in ratings[host].enumerated() {
        let change = edit(host, round)
        for (command, sets) in [
          (["rate", "O", String(rating)], nil), (change.arguments, change.value),
        ] {
          let result = client(host, command + ["--json"], store)
          guard result.status == 0, let tie = try? Self.decode(result) else {
            failures.withLock { $0.append("host \(host + 1): \(result)") }
            continue
          }
          mine = sets ?? mine
          if own(host, tie) != mine {
            failures.withLock {
              $0.append(
                "host \(host + 1) read \(own(host, tie) ?? "nil") back, not \(mine ?? "nil")")
            }
          }
        }
      }
    }
    #expect(failures.withLock { $0 } == [])
    let final = try tie("O", store)
    // Each host writes in turn, so the last write of all is one host's last.
    #expect([ratings[0].last, ratings[1].last].contains(final.rating), "\(final.rating)")
    #expect(final.price == "29.25", "\(final.price ?? "no price")")
    #expect(final.url == "https://example.com/host-2/19", "\(final.url ?? "no URL")")
    #expect(client(0, ["doctor"], store).status == 0)
  }

  /// What a command is doing when its host's link is cut.
  enum Flight: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `wear`, waiting for a row another session holds: the client sends nothing, and
    /// only keepalives can tell it the server is gone.
    case waitingForALock = "a wear waiting for a row lock"
    /// `seed` of 100,000 ties: statement after statement in one transaction, the client
    /// with data in flight when the link goes.
    case seeding = "a seed of 100,000 ties"

    var testDescription: String { rawValue }
  }

  @Test(
    "a client's link cut mid-command: it fails within its timeout with one line and 74 or 75, nothing is half-written, and the other host keeps working",
    arguments: Flight.allCases)
  func cutLink(_ flight: Flight) throws {
    let store = try makeStore(connectTimeout: Self.connectTimeout)
    let cutHost = network.clients[0]
    let red = try tie("R", store)
    let redEvents = try events("R", store)
    let ties = try count("bowTie", store)
    let wears = try count("wearEvent", store)

    var holder: Running?
    let command: [String]
    switch flight {
    case .waitingForALock:
      // Another session holds the row for long enough that the wear waits for it, and
      // the link is cut while it waits.
      holder = Running {
        let held = try server.superuser(
          "BEGIN; SELECT 1 FROM bowTie WHERE searchKey = 'R' FOR UPDATE;"
            + " SELECT pg_sleep(\(Self.lockHeld)); COMMIT", database: store.database)
        return BowtiesSandbox.Result(status: 0, stdout: held, stderr: "")
      }
      try poll("the lock is taken", seconds: 10) {
        try sql(
          "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep%'"
            + " AND state = 'active' AND pid <> pg_backend_pid()", store) == "1"
      }
      command = ["wear", "R"]
    case .seeding:
      command = ["seed", try #require(Self.seedFile).path]
    }
    let running = Running { client(0, command, store) }
    // Mid-command: the client's own session, on the server, is waiting for the lock, or
    // has written rows of its transaction.
    let midway =
      flight == .waitingForALock
      ? "wait_event_type = 'Lock'" : "backend_xid IS NOT NULL AND state <> 'idle'"
    try poll("\(command[0]) is mid-flight", seconds: 30) {
      try sql(
        "SELECT count(*) FROM pg_stat_activity WHERE client_addr = '\(cutHost.address)'"
          + " AND \(midway)", store) == "1"
    }
    let cutAt = ContinuousClock.now
    try network.cut(cutHost)
    defer { try? network.mend(cutHost, reaching: server.port) }

    // The other host goes on while the first is cut off.
    let other = client(1, ["wear", "B"], store)
    #expect(other.status == 0, "\(other)")

    guard let (result, endedAt) = running.wait(seconds: 40) else {
      Issue.record("\(command[0]) did not end within 40 s of its link being cut")
      return
    }
    let took = endedAt - cutAt
    print("\(flight.rawValue), link cut: exit \(result.status) after \(took): \(result.stderr)")
    #expect(
      took < .seconds(Self.connectTimeout + 5), "ended \(took) after the cut: \(result)")
    #expect([74, 75].contains(result.status), "\(result)")
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[1].isEmpty, "one line on stderr: \(result.stderr)")
    #expect(!result.stderr.contains(store.password))
    if let holder {
      #expect(holder.wait(seconds: Double(Self.lockHeld) + 10)?.0.status == 0, "the lock holder")
    }

    // Nothing of the cut command is in the store, and the row it waited for is free again
    // (its session on the server ended): the other host wears that tie too.
    #expect(try count("bowTie", store) == ties)
    #expect(try count("wearEvent", store) == wears + 1)
    #expect(try tie("R", store).timesWorn == red.timesWorn)
    let wearRed = client(1, ["wear", "R"], store)
    #expect(wearRed.status == 0, "\(wearRed)")
    #expect(try tie("R", store).timesWorn == red.timesWorn + 1)
    #expect(try events("R", store) == redEvents + 1)

    // Once its link is back, the cut host works again.
    try network.mend(cutHost, reaching: server.port)
    let again = client(0, ["wear", "R"], store)
    #expect(again.status == 0, "\(again)")
    #expect(client(0, ["doctor"], store).status == 0)
  }

  @Test(
    "kill -9 of the server during a 100,000-tie seed: after a restart the store holds all of it or none, and doctor is healthy"
  )
  func killDuringSeed() throws {
    let store = try makeStore()
    let ties = try count("bowTie", store)
    let file = try #require(Self.seedFile)
    let emptySize = try #require(Int(try sql("SELECT pg_relation_size('bowTie')", store)))
    let started = ContinuousClock.now
    let seed = Running { client(0, ["seed", file.path], store) }
    // Mid-seed: its transaction has written some hundreds of ties, and goes on. Uncommitted
    // rows take room in the table's file too.
    var backend = ""
    var written = 0
    try poll("the seed is writing", seconds: 60) {
      let row = try sql(
        "SELECT pid, pg_relation_size('bowTie') FROM pg_stat_activity"
          + " WHERE client_addr = '\(network.clients[0].address)' AND backend_xid IS NOT NULL",
        store
      ).split(separator: "|")
      guard row.count == 2, let size = Int(row[1]) else { return false }
      (backend, written) = (String(row[0]), size)
      return written >= emptySize + 65_536
    }
    #expect(seed.isRunning, "the seed ended before the kill: the test proved nothing")
    let killedAt = ContinuousClock.now
    server.kill()
    #expect(server.postmaster == nil)
    #expect(
      !PostgresTestServer.isRunning(pid_t(backend) ?? 0), "the seed's backend outlived the kill")
    let ended = seed.wait(seconds: 20)
    print(
      "kill -9 \(killedAt - started) into the seed (bowTie's file \(written) bytes); the seed"
        + " ended \(ended.map { "\($0.1 - killedAt)" } ?? "not within 20 s") after the kill")
    #expect(ended != nil, "the seed did not end within 20 s of the server's death")
    try server.start()

    let after = try count("bowTie", store)
    #expect(after == ties || after == ties + 100_000, "\(after) ties")
    if let (result, _) = ended {
      // None of it: then the seed cannot have said it succeeded.
      if after == ties { #expect([74, 75].contains(result.status), "\(result)") }
      if result.status != 0 {
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
      }
    }
    let doctor = client(1, ["doctor"], store)
    #expect(doctor.status == 0, "\(doctor)")
  }

  @Test("the server restarted between two commands: the next command works")
  func restartBetweenCommands() throws {
    let store = try makeStore()
    let red = try tie("R", store)
    let first = client(0, ["wear", "R"], store)
    #expect(first.status == 0, "\(first)")
    let postmaster = server.postmaster
    try server.restart()
    #expect(server.postmaster != nil && server.postmaster != postmaster, "not restarted")
    let next = client(0, ["wear", "R"], store)
    #expect(next.status == 0, "\(next)")
    #expect(try tie("R", store).timesWorn == red.timesWorn + 2)
  }

  // MARK: - Helpers

  static let connectTimeout = 3
  /// How long, in seconds, the lock a cut wear waits for is held.
  static let lockHeld = 8

  struct Store {
    var uri: String
    var database: String
    var password: String
  }

  /// A new database, made a store (schema and sample ties) by the second host.
  func makeStore(connectTimeout: Int? = nil) throws -> Store {
    let database = try server.makeDatabase()
    let timeout = connectTimeout.map { "&connect_timeout=\($0)" } ?? ""
    let store = Store(
      uri: database.uri + timeout, database: database.role, password: database.password)
    let list = client(1, ["list"], store)
    try #require(list.status == 0, "\(list)")
    // On the server, not in a file beside the client that took the URI for a path.
    try #require(try count("bowTie", store) == 7)
    return store
  }

  /// Runs `bowties ARGS --store STORE` on client host `host` (0 or 1): killed if it runs
  /// for a minute, so that no hang stops the suite.
  func client(_ host: Int, _ arguments: [String], _ store: Store) -> BowtiesSandbox.Result {
    let command =
      ["-k", "5", "60"] + network.clients[host].commandPrefix + [BowtiesSandbox.binary.path]
      + arguments
      + ["--store", store.uri]
    do {
      return try bowties.run("/usr/bin/timeout", command)
    } catch {
      return BowtiesSandbox.Result(status: -1, stdout: "", stderr: "cannot run: \(error)")
    }
  }

  struct Tie: Decodable {
    var timesWorn: Int
    var isFavorite: Bool
    var rating: Double
    var price: String?
    var url: String?
  }

  func tie(_ key: String, _ store: Store) throws -> Tie {
    let show = client(1, ["show", key, "--json"], store)
    try #require(show.status == 0, "\(show)")
    return try Self.decode(show)
  }

  /// The tie a command printed with `--json`.
  static func decode(_ result: BowtiesSandbox.Result) throws -> Tie {
    try JSONDecoder().decode(Tie.self, from: Data(result.stdout.utf8))
  }

  /// The number of wears `history` lists for a tie.
  func events(_ key: String, _ store: Store) throws -> Int {
    let history = client(1, ["history", key, "--json"], store)
    try #require(history.status == 0, "\(history)")
    let events = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [Any]
    return try #require(events).count
  }

  /// Runs SQL as the superuser in the store's database, on the server's host.
  func sql(_ statement: String, _ store: Store) throws -> String {
    try server.superuser(statement, database: store.database)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func count(_ table: String, _ store: Store) throws -> Int {
    try #require(Int(try sql("SELECT count(*) FROM \(table)", store)))
  }

  /// A JSON seed file of 100,000 new ties, none with a sample tie's key: made once, as it
  /// takes a few seconds, and removed when the process exits.
  static let seedFile: URL? = {
    let entries = (0..<100_000).map { index -> [String: Any] in
      [
        "name": "Seeded Tie \(index)", "searchKey": "S\(index)", "rating": Double(index % 11) / 2,
        "tintColor": ["red": index % 256, "green": 20, "blue": 10],
        "url": "https://example.com/ties/\(index)",
      ]
    }
    let file = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("bowties-multihost-\(getpid())-seed.json")
    guard let data = try? JSONSerialization.data(withJSONObject: entries),
      (try? data.write(to: file)) != nil
    else { return nil }
    atexit {
      if let file = MultiHostTests.seedFile { try? FileManager.default.removeItem(at: file) }
    }
    return file
  }()

  /// Waits, checking every tenth of a second, until `condition` holds.
  func poll(_ what: String, seconds: Double, _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
      if try condition() { return }
      usleep(100_000)
    }
    throw MultiHostLab.Failure(description: "\(what) did not happen within \(seconds) s")
  }
}

/// The hosts, and the server on one of them: made once for the test process, removed when
/// it exits.
final class MultiHostLab: Sendable {
  let network: NetworkNamespaces
  let server: PostgresTestServer

  /// Why the hosts cannot be made here; nil when they can. Anything else that goes wrong
  /// making them fails the tests rather than skipping them.
  static let unavailableReason: String? =
    PostgresTestServer.serverUnavailableReason ?? NetworkNamespaces.unavailableReason

  static var skipComment: Comment { Comment(rawValue: unavailableReason ?? "") }

  static let shared: Result<MultiHostLab, Failure> = {
    do {
      let lab = try MultiHostLab()
      atexit {
        guard case .success(let lab) = MultiHostLab.shared else { return }
        lab.server.stop()
        lab.network.remove()
      }
      return .success(lab)
    } catch {
      return .failure(Failure(description: "cannot make the hosts: \(error)"))
    }
  }()

  private init() throws {
    network = try NetworkNamespaces(clients: 2)
    do {
      server = try PostgresTestServer(
        listenAddresses: [network.server.address], port: 5432, clients: NetworkNamespaces.subnet,
        commandPrefix: network.server.commandPrefix)
    } catch {
      network.remove()
      throw error
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }
}

/// A command running on a thread of its own, and when it ended.
final class Running: Sendable {
  private let outcome = Mutex<(BowtiesSandbox.Result, ContinuousClock.Instant)?>(nil)
  private let done = DispatchSemaphore(value: 0)

  init(_ body: @escaping @Sendable () throws -> BowtiesSandbox.Result) {
    Thread.detachNewThread { [self] in
      let result: BowtiesSandbox.Result
      do {
        result = try body()
      } catch {
        result = BowtiesSandbox.Result(status: -1, stdout: "", stderr: "\(error)")
      }
      outcome.withLock { $0 = (result, ContinuousClock.now) }
      done.signal()
    }
  }

  var isRunning: Bool { outcome.withLock { $0 == nil } }

  /// Its result and when it ended; nil if it has not ended within `seconds`.
  func wait(seconds: Double) -> (BowtiesSandbox.Result, ContinuousClock.Instant)? {
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    done.signal()
    return outcome.withLock { $0 }
  }
}
