import BowTieKit
import BowTieModel
import Foundation
import Logging
import NIOCore
import PostgresNIO
import PostgresTestSupport
import Testing

@testable import BowTiePostgres

/// Connecting to a real server: authentication, TLS and the errors a user meets, each one
/// line that names the store with its password masked.
@Suite(
  "PostgreSQL sessions",
  .enabled(
    if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct PostgresSessionTests {
  let server = PostgresTestServer.shared!

  private func connect(_ uri: String, _ environment: [String: String] = [:]) throws(BowTieError)
    -> PostgresSession
  {
    let settings = try PostgresSettings.read(uri, environment: environment)
    return try PostgresSession.connect(settings, busyTimeout: 2)
  }

  private func expectRefusal(
    _ uri: String, mentioning reason: String, secret: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      _ = try connect(uri).close()
      Issue.record("connected to \(uri)", sourceLocation: sourceLocation)
    } catch {
      guard case .storeUnreadable(let path, let message) = error else {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return
      }
      let text = error.localizedDescription
      #expect(message.contains(reason), "\(text)", sourceLocation: sourceLocation)
      #expect(
        !text.contains(secret) && path.contains("****"), "\(text)", sourceLocation: sourceLocation)
    }
  }

  @Test("statements run with bound values and give rows back")
  func statements() throws {
    let database = try server.makeDatabase()
    let session = try connect(database.uri)
    defer { session.close() }
    try session.run("CREATE TABLE t (a BIGINT, b DOUBLE PRECISION, c TEXT, d BYTEA)")
    try session.run(
      "INSERT INTO t VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)",
      [
        .integer(7), .real(4.5), .text("Café ?"), .blob(Data([0, 1, 255])), .null, .null, .null,
        .null,
      ])
    let rows = try session.run("SELECT a, b, c, d FROM t WHERE a = $1", [.integer(7)])
    #expect(rows.count == 1)
    let (a, b, c, d) = try rows[0].decode((Int64, Double, String, ByteBufferBytes).self)
    #expect(a == 7 && b == 4.5 && c == "Café ?" && d.bytes == [0, 1, 255])
    var seen = 0
    try session.forEachRow("SELECT generate_series(1, 5000)") { _ in seen += 1 }
    #expect(seen == 5000)
  }

  @Test("a wrong password, a missing database, a refused role, a closed port: 74 with the reason")
  func refusals() throws {
    let database = try server.makeDatabase()
    let wrong = database.uri.replacingOccurrences(of: database.password, with: "not-it-at-all")
    expectRefusal(wrong, mentioning: "password authentication failed", secret: "not-it-at-all")
    let missing = database.uri.replacingOccurrences(of: "/\(database.role)?", with: "/nowhere?")
    expectRefusal(missing, mentioning: "does not exist", secret: database.password)
    try server.superuser("ALTER ROLE \(database.role) NOLOGIN")
    expectRefusal(database.uri, mentioning: "not permitted to log in", secret: database.password)
    let closed = try PostgresTestServer.freePort()
    expectRefusal(
      "postgresql://u:hunter2@127.0.0.1:\(closed)/d",
      mentioning: "cannot connect to 127.0.0.1 port \(closed): connection refused",
      secret: "hunter2")
  }

  @Test("sslmode: require encrypts, verify-full checks the authority and the host name")
  func tls() throws {
    let database = try server.makeDatabase()
    let base = database.uri.replacingOccurrences(of: "?sslmode=disable", with: "")
    let session = try connect(base + "?sslmode=require")
    let ssl = try session.run("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
    #expect(try ssl.first?.decode(Bool.self) == true)
    session.close()
    let authority = server.authority.path
    for host in ["127.0.0.1", "localhost"] {
      let uri =
        base.replacingOccurrences(of: "@127.0.0.1:", with: "@\(host):")
        + "?sslmode=verify-full&sslrootcert=\(authority)"
      try connect(uri).close()
    }
    expectRefusal(
      base + "?sslmode=verify-full&sslrootcert=\(server.otherAuthority.path)", mentioning: "TLS",
      secret: database.password)
    expectRefusal(
      base + "?sslmode=verify-ca&sslrootcert=\(server.otherAuthority.path)", mentioning: "TLS",
      secret: database.password)
    // The server also listens on 127.0.0.2, which its certificate does not name: the
    // authority is right, the host is not.
    let otherHost = base.replacingOccurrences(of: "@127.0.0.1:", with: "@127.0.0.2:")
    try connect(otherHost + "?sslmode=verify-ca&sslrootcert=\(authority)").close()
    expectRefusal(
      otherHost + "?sslmode=verify-full&sslrootcert=\(authority)", mentioning: "TLS",
      secret: database.password)
  }

  /// postgres-nio traps (a precondition) when a COPY's writer is used on a connection that
  /// has closed but not yet let go of its handler. That happens when the server's
  /// CopyInResponse and the end of the connection are read together: a server killed just
  /// as a COPY begins. Holding the event loop while another connection ends the backend
  /// makes them arrive together.
  @Test("the server gone just as a COPY begins: the write throws, and nothing traps")
  func serverGoneAsCopyBegins() async throws {
    let database = try server.makeDatabase()
    let session = try connect(database.uri)
    defer { session.close() }
    try session.run("CREATE TABLE t (a TEXT)")
    let backend = try session.run("SELECT pg_backend_pid()")[0].decode(Int32.self)
    let connection = session.connection
    let postgres = server
    let ended = DispatchSemaphore(value: 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
      _ = try? postgres.superuser("SELECT pg_terminate_backend(\(backend))")
      ended.signal()
    }
    let outcome = await Task(executorPreference: EventLoopTaskExecutor(connection.eventLoop)) {
      () async -> String in
      // Runs once the COPY is sent: the loop reads nothing until the backend has ended.
      connection.eventLoop.execute {
        _ = ended.wait(timeout: .now() + 10)
        usleep(200_000)
      }
      do {
        try await connection.copyFrom(
          table: "t", columns: ["a"], logger: Logger(label: "test")
        ) { writer in
          try await PostgresSession.write(ByteBuffer(string: "x\n"), with: writer, on: connection)
        }
        return "written"
      } catch {
        return "\(error)"
      }
    }.value
    #expect(outcome != "written", "the COPY went through a terminated backend")
    #expect(connection.isClosed)
  }

}

/// The bytes of a `bytea` cell.
struct ByteBufferBytes: PostgresDecodable {
  var bytes: [UInt8]
  init<JSONDecoder: PostgresJSONDecoder>(
    from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
    context: PostgresDecodingContext<JSONDecoder>
  ) throws {
    bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
  }
}
