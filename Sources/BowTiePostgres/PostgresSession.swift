import BowTieKit
import BowTieModel
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// One connection to a PostgreSQL store, used as the store's code uses SQLite: each call
/// waits for the server's answer. postgres-nio is asynchronous; a command runs one
/// statement after another, so the calling thread waits on the event loop's thread.
///
/// The connection is set up so that no wait is unbounded:
/// - connecting, TLS and authentication together take at most `connect_timeout`;
/// - a lock held by another client past the busy timeout ends the statement (the server's
///   `lock_timeout`), which the store reports as busy (75);
/// - a network that goes silent is found out by TCP keepalives and `TCP_USER_TIMEOUT`
///   within `connect_timeout`, on this side, and on the server's (its own keepalive
///   settings for this session, and `idle_in_transaction_session_timeout`), so a client cut
///   off in the middle of a transaction leaves no locks held for long and nothing written.
final class PostgresSession: @unchecked Sendable {
  let settings: PostgresSettings
  let connection: PostgresConnection
  private static let logger = Logger(label: "bowties.postgres") { _ in SwiftLogNoOpLogHandler() }

  /// One thread for every connection of the process: a command needs no more.
  private static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

  private init(settings: PostgresSettings, connection: PostgresConnection) {
    self.settings = settings
    self.connection = connection
  }

  /// Connects and authenticates.
  ///
  /// - Throws: `storeUnreadable` (74) with the server's or the network's reason when the
  ///   server cannot be reached, refuses the password, has no such database or refuses
  ///   the role; `usage` (64) when a TLS file named in the settings cannot be used.
  static func connect(_ settings: PostgresSettings, busyTimeout: TimeInterval) throws(BowTieError)
    -> PostgresSession
  {
    let eventLoop = eventLoops.next()
    let timeout = TimeAmount.seconds(Int64(settings.connectTimeout))
    var configuration: PostgresConnection.Configuration
    do {
      let tls = try tlsConfiguration(settings)
      switch settings.endpoint {
      case .unixSocket:
        configuration = .init(
          unixSocketPath: settings.endpoint.socketPath ?? "", username: settings.user,
          password: settings.password, database: settings.database)
      case .tcp(let host, let port):
        let channel = try ClientBootstrap(group: eventLoop)
          .connectTimeout(timeout)
          .channelOption(.socketOption(.so_keepalive), value: 1)
          .channelOption(
            .socket(SocketOptionLevel(IPPROTO_TCP), SocketOptionName(TCP_KEEPIDLE)), value: 1
          )
          .channelOption(
            .socket(SocketOptionLevel(IPPROTO_TCP), SocketOptionName(TCP_KEEPINTVL)), value: 1
          )
          .channelOption(
            .socket(SocketOptionLevel(IPPROTO_TCP), SocketOptionName(TCP_USER_TIMEOUT)),
            value: SocketOptionValue(settings.connectTimeout * 1000)
          )
          .connect(host: host, port: port).wait()
        configuration = .init(
          establishedChannel: channel, tls: tls, username: settings.user,
          password: settings.password, database: settings.database)
        if !host.isIPAddress { configuration.options.tlsServerName = host }
      }
    } catch let error as BowTieError {
      throw error
    } catch {
      throw connectionError(error, settings)
    }
    configuration.options.connectTimeout = timeout
    configuration.options.additionalStartupParameters = startupParameters(
      settings, busyTimeout: busyTimeout)
    do {
      let connection = try PostgresConnection.connect(
        on: eventLoop, configuration: configuration, id: 1, logger: logger
      ).wait()
      return PostgresSession(settings: settings, connection: connection)
    } catch {
      throw connectionError(error, settings)
    }
  }

  /// Session settings sent with the start-up message: no statement is needed for them.
  private static func startupParameters(_ settings: PostgresSettings, busyTimeout: TimeInterval)
    -> [(String, String)]
  {
    let connectMilliseconds = String(settings.connectTimeout * 1000)
    return [
      ("application_name", settings.applicationName),
      // 0 would mean no timeout at all; a lock never comes free in no time.
      ("lock_timeout", String(max(1, Int(busyTimeout * 1000)))),
      ("idle_in_transaction_session_timeout", connectMilliseconds),
      ("tcp_keepalives_idle", "1"), ("tcp_keepalives_interval", "1"),
      ("tcp_keepalives_count", String(settings.connectTimeout)),
      ("tcp_user_timeout", connectMilliseconds),
      ("client_connection_check_interval", "1000"),
    ]
  }

  /// The TLS that libpq's `sslmode` asks for.
  private static func tlsConfiguration(_ settings: PostgresSettings) throws
    -> PostgresConnection.Configuration.TLS
  {
    var tls = TLSConfiguration.makeClientConfiguration()
    let roots = settings.rootCertificates
    if let roots, roots != "system" {
      guard FileManager.default.isReadableFile(atPath: roots) else {
        throw BowTieError.usage(
          "sslrootcert \(roots) cannot be read: give a PEM file of root certificates")
      }
      tls.trustRoots = .file(roots)
    }
    switch settings.tlsMode {
    case .disable:
      return .disable
    case .allow, .prefer:
      tls.certificateVerification = .none
      return .prefer(try NIOSSLContext(configuration: tls))
    case .require:
      // As libpq: checked against the root certificates only when some are given.
      tls.certificateVerification = roots == nil ? .none : .noHostnameVerification
    case .verifyCA:
      tls.certificateVerification = .noHostnameVerification
    case .verifyFull:
      tls.certificateVerification = .fullVerification
    }
    return .require(try NIOSSLContext(configuration: tls))
  }

  /// Runs one statement, its values in numbered placeholders (`$1`), and returns its rows.
  /// Rows queued for COPY go first, so that the statement sees them; a `ROLLBACK` drops
  /// them instead, as it would undo them.
  @discardableResult
  func run(_ sql: String, _ values: [SQLValue] = []) throws(BowTieError) -> [PostgresRow] {
    if sql == "ROLLBACK" { discardQueuedRows() } else { try sendQueuedRows() }
    let statement = Self.statement(sql, values)
    do {
      return try answer { connection.query(statement, logger: Self.logger) }.rows
    } catch {
      throw Self.statementError(error, settings)
    }
  }

  /// The text of the first column of `sql`'s rows; nil when the statement names a table
  /// that does not exist (SQLSTATE 42P01), which outside a transaction ends only the
  /// statement.
  func namesUnlessTableMissing(_ sql: String) throws(BowTieError) -> [String]? {
    try sendQueuedRows()
    let rows: [PostgresRow]
    do {
      rows = try answer { connection.query(Self.statement(sql, []), logger: Self.logger) }.rows
    } catch {
      if let error = error as? PSQLError, error.serverInfo?[.sqlState] == "42P01" { return nil }
      throw Self.statementError(error, settings)
    }
    do {
      return try rows.map { try $0.decode(String.self) }
    } catch {
      throw .storeUnreadable(path: settings.displayName, reason: "a name cannot be read (\(error))")
    }
  }

  /// Sends a statement and waits for the server's answer, or for the connection to close.
  ///
  /// postgres-nio never answers a statement sent once the connection has closed: it is
  /// dropped with the channel, and `wait()` would wait for ever. The ROLLBACK that follows
  /// a statement the server's death interrupted is such a statement. So none goes out on a
  /// closed connection, and the wait also ends, within a second, if the connection closes
  /// with the statement unanswered.
  private func answer<T: Sendable>(_ send: () -> EventLoopFuture<T>) throws -> T {
    guard !connection.isClosed else { throw ConnectionClosed() }
    let future = send()
    let answered = DispatchSemaphore(value: 0)
    future.whenComplete { _ in answered.signal() }
    while answered.wait(timeout: .now() + .seconds(1)) == .timedOut {
      // An answer already on its way (the error the close gave it, say) is the better one.
      if connection.isClosed && answered.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
        throw ConnectionClosed()
      }
    }
    return try future.wait()
  }

  /// The connection closed before the server answered.
  private struct ConnectionClosed: Error {}

  /// Runs one statement, calling `body` with each row as it arrives, so that a large
  /// result need not fit in memory. `body` runs on the event loop's thread while this one
  /// waits; an error it throws ends the statement.
  func forEachRow(
    _ sql: String, _ values: [SQLValue] = [], _ body: (PostgresRow) throws -> Void
  ) throws(BowTieError) {
    let statement = Self.statement(sql, values)
    try sendQueuedRows()
    try withoutActuallyEscaping(body) { body throws(BowTieError) in
      let callback = UncheckedRowCallback(body: body)
      do {
        _ = try answer {
          connection.query(statement, logger: Self.logger) { row in try callback.body(row) }
        }
      } catch let error as BowTieError {
        throw error
      } catch {
        throw Self.statementError(error, settings)
      }
    }
  }

  /// Closes the connection, waiting for the server to be told.
  func close() {
    discardQueuedRows()
    try? connection.close().wait()
  }

  // MARK: - Bulk loading

  /// A table and columns that rows are copied into (`COPY table (columns) FROM STDIN`),
  /// named as the server stores them: unquoted, hence lower-case, and plain.
  struct CopyTarget: Hashable, Sendable {
    var table: String
    var columns: [String]
  }

  /// Rows waiting to be copied, in COPY's text format: one buffer per target, the targets
  /// in the order their ``copying(into:_:)`` calls began.
  private var queuedRows: [(target: CopyTarget, rows: ByteBuffer)] = []
  private var queuedBytes = 0
  /// How many ``copying(into:_:)`` calls are under way.
  private var copyings = 0

  /// How much a batch holds before it is sent. Large enough that a COPY's own exchange
  /// (one round trip, its set-up on the server) is a small part of the batch's cost; small
  /// enough that a load of any size holds only this much at a time.
  static let copyBatchBytes = 1 << 20

  /// Runs `body`, which queues rows for `target` (``queueRow(_:_:)``), and sends what is
  /// queued once the outermost such call ends. Queued rows are sent a batch at a time, at
  /// the latest before the next other statement (the `COMMIT` among them), each target's
  /// batch in the order the calls began: a row may rely on rows queued for a target whose
  /// call began before its own (a wear on its tie).
  func copying(into target: CopyTarget, _ body: () throws -> Void) throws {
    if !queuedRows.contains(where: { $0.target == target }) {
      queuedRows.append((target, ByteBufferAllocator().buffer(capacity: Self.copyBatchBytes)))
    }
    copyings += 1
    defer {
      copyings -= 1
      // The order holds for nested calls only: the next load starts afresh.
      if copyings == 0 && queuedBytes == 0 { queuedRows.removeAll() }
    }
    try body()
    if copyings == 1 { try sendQueuedRows() }
  }

  /// Queues a row for `target`, written by `encode` in COPY's text format (a line ending in
  /// a newline), inside a ``copying(into:_:)`` call for it.
  func queueRow(_ target: CopyTarget, _ encode: (inout ByteBuffer) -> Void) throws(BowTieError) {
    guard let index = queuedRows.firstIndex(where: { $0.target == target }) else {
      preconditionFailure("a row queued outside copying(into:) for its table")
    }
    let before = queuedRows[index].rows.writerIndex
    encode(&queuedRows[index].rows)
    queuedBytes += queuedRows[index].rows.writerIndex - before
    if queuedBytes >= Self.copyBatchBytes { try sendQueuedRows() }
  }

  /// Sends the queued rows, one COPY per target.
  private func sendQueuedRows() throws(BowTieError) {
    guard queuedBytes > 0 else { return }
    let batches = queuedRows
    discardQueuedRows()
    for (target, rows) in batches where rows.readableBytes > 0 { try copy(rows, into: target) }
  }

  /// Drops the queued rows; between loads, their targets too.
  private func discardQueuedRows() {
    if copyings == 0 {
      queuedRows.removeAll()
    } else {
      for index in queuedRows.indices { queuedRows[index].rows.clear() }
    }
    queuedBytes = 0
  }

  /// One `COPY … FROM STDIN` of `rows`, in the current transaction. postgres-nio offers COPY
  /// only as an `async` function; it runs here as a task on the connection's own event loop
  /// (not on Swift's shared pool, whose threads may all be waiting as this one does), and
  /// this thread waits for it.
  private func copy(_ rows: ByteBuffer, into target: CopyTarget) throws(BowTieError) {
    let connection = self.connection
    do {
      try answer {
        let done = connection.eventLoop.makePromise(of: Void.self)
        Task(executorPreference: EventLoopTaskExecutor(connection.eventLoop)) {
          do {
            try await connection.copyFrom(
              table: target.table, columns: target.columns, logger: Self.logger
            ) { writer in
              try await Self.write(rows, with: writer, on: connection)
            }
            done.succeed(())
          } catch {
            done.fail(error)
          }
        }
        return done.futureResult
      }
    } catch {
      throw Self.statementError(error, settings)
    }
  }

  /// Writes `rows` to a COPY, on the connection's event loop, only while the connection is
  /// open.
  ///
  /// postgres-nio's COPY traps (a precondition, not an error) when its writer is used, or
  /// finished, after the connection closed and before the channel let go of its handler,
  /// as when the server dies just as a COPY begins. So the connection is checked in the
  /// same turn of the event loop as each use: before the write, and before `copyFrom`
  /// finishes the COPY, which it does as this returns. A closed connection is waited out
  /// until the channel has let go of the handler (`closeFuture`), after which postgres-nio
  /// reports the closed connection as an error, and the error thrown.
  static func write(
    _ rows: ByteBuffer, with writer: PostgresCopyFromWriter, on connection: PostgresConnection
  ) async throws {
    do {
      guard !connection.isClosed else { throw ConnectionClosed() }
      try await writer.write(rows)
      guard !connection.isClosed else { throw ConnectionClosed() }
    } catch {
      if connection.isClosed { try? await connection.closeFuture.get() }
      throw error
    }
  }

  /// A statement with numbered placeholders, and `values` bound to them.
  static func statement(_ sql: String, _ values: [SQLValue]) -> PostgresQuery {
    var bindings = PostgresBindings(capacity: values.count)
    for value in values {
      switch value {
      case .null: bindings.appendNull()
      case .integer(let number): bindings.append(number)
      case .real(let number): bindings.append(number)
      case .text(let text): bindings.append(text)
      case .blob(let data): bindings.append(ByteBuffer(bytes: data))
      }
    }
    return PostgresQuery(unsafeSQL: sql, binds: bindings)
  }
}

/// Runs a task's jobs on a NIO event loop's thread.
final class EventLoopTaskExecutor: TaskExecutor {
  let eventLoop: any EventLoop

  init(_ eventLoop: any EventLoop) {
    self.eventLoop = eventLoop
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}

/// The row callback of ``PostgresSession/forEachRow(_:_:_:)``, which postgres-nio wants
/// `Sendable`: it runs on the event loop's thread while the caller's thread waits for it.
private struct UncheckedRowCallback: @unchecked Sendable {
  let body: (PostgresRow) throws -> Void
}

extension String {
  /// Whether this is an IPv4 or IPv6 address rather than a host name.
  var isIPAddress: Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, self, &v4) == 1 || inet_pton(AF_INET6, self, &v6) == 1
  }
}

// MARK: - Errors

extension PostgresSession {
  /// What went wrong reaching the server, as one line naming the store (its password
  /// masked) and the server's or the network's reason: never the error's own description,
  /// which may quote the statement.
  static func connectionError(_ error: any Error, _ settings: PostgresSettings) -> BowTieError {
    if let server = serverError(error) {
      return .storeUnreadable(path: settings.displayName, reason: server.reason)
    }
    return .storeUnreadable(path: settings.displayName, reason: networkReason(error, settings))
  }

  /// What went wrong running a statement.
  static func statementError(_ error: any Error, _ settings: PostgresSettings) -> BowTieError {
    guard let server = serverError(error) else {
      return .storeUnreadable(
        path: settings.displayName,
        reason: "the connection to the server was lost (\(networkReason(error, settings)))")
    }
    switch server.state {
    // lock_not_available, deadlock_detected, serialization_failure, query_canceled:
    // another client was in the way; trying again works.
    case "55P03", "40P01", "40001", "57014":
      return .storeBusy(path: settings.displayName)
    // read_only_sql_transaction, insufficient resources (disk full, out of memory).
    case "25006",
      _ where server.state.hasPrefix("53"):
      return .storeNotWritable(path: settings.displayName, reason: server.reason)
    // insufficient_privilege, and invalid_schema_name: a role that cannot use the
    // database's public schema has none to create the store in. The server does not say
    // whose rights are missing.
    case "42501", "3F000":
      return .storeUnreadable(
        path: settings.displayName,
        reason: "\(server.reason) (the role \(settings.user) lacks the rights this needs)")
    default:
      return .storeUnreadable(path: settings.displayName, reason: server.reason)
    }
  }

  /// The server's SQLSTATE and message, when the error came from the server.
  private static func serverError(_ error: any Error) -> (state: String, reason: String)? {
    guard let error = error as? PSQLError, let info = error.serverInfo,
      let state = info[.sqlState], let message = info[.message]
    else { return nil }
    return (state, message)
  }

  /// An operating-system error as the system words it ("connection refused"), rather than
  /// NIO's description, which wraps it in the name of the call that failed and its errno.
  private static func describe(_ error: any Error) -> String {
    guard let error = error as? IOError else { return "\(error)" }
    return String(cString: strerror(error.errnoCode)).lowercased()
  }

  /// The network's or TLS's reason, in a few words.
  private static func networkReason(_ error: any Error, _ settings: PostgresSettings) -> String {
    let underlying = (error as? PSQLError)?.underlying ?? error
    let server =
      switch settings.endpoint {
      case .tcp(let host, let port): "\(host) port \(port)"
      case .unixSocket: settings.endpoint.socketPath ?? ""
      }
    switch underlying {
    case is ConnectionClosed:
      return "\(server) closed the connection"
    case ChannelError.connectTimeout:
      return "no answer from \(server) within \(settings.connectTimeout) seconds"
    case let error as NIOConnectionError:
      // A host name can give several addresses, each refused for the same reason: say it once.
      var reasons: [String] = []
      for reason in error.connectionErrors.map({ describe($0.error) })
        + [error.dnsAAAAError, error.dnsAError].compactMap({ $0.map(describe) })
      where !reasons.contains(reason) {
        reasons.append(reason)
      }
      if reasons.isEmpty { return "cannot connect to \(server)" }
      return "cannot connect to \(server): \(reasons.joined(separator: "; "))"
    case let error as IOError:
      return "\(server): \(describe(error))"
    case let error as NIOSSLError:
      return "TLS with \(server) failed: \(error)"
    case let error as NIOSSLExtraError where error == .failedToValidateHostname:
      let host = if case .tcp(let host, _) = settings.endpoint { host } else { server }
      return "TLS with \(server) failed: the server's certificate is not for \(host)"
    case let error as NIOSSLExtraError:
      return "TLS with \(server) failed: \(error)"
    default:
      if let error = error as? PSQLError {
        switch error.code {
        case .sslUnsupported:
          return "\(server) does not offer TLS, which sslmode=\(settings.tlsMode.rawValue) requires"
        case .serverClosedConnection, .uncleanShutdown: return "\(server) closed the connection"
        default: return "\(server): \(error.code)"
        }
      }
      return "\(server): \(underlying)"
    }
  }
}
