import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real PostgreSQL server for the tests: Debian's binaries, `initdb` and `pg_ctl` in a
/// temporary folder, run as the `postgres` user (the server refuses to run as root), with
/// TLS from a certificate authority made for it. ``shared`` listens on loopback, on a free
/// port, for the whole test process; a server of a test's own may listen elsewhere, in a
/// network namespace. Each test gets a database and a role of its own.
public final class PostgresTestServer: Sendable {
  /// The server, started on first use and stopped when the process exits; nil where one
  /// cannot run here (no PostgreSQL, not root), with ``unavailableReason`` saying why.
  public static let shared: PostgresTestServer? = {
    guard let server = try? PostgresTestServer() else { return nil }
    atexit { PostgresTestServer.shared?.stop() }
    return server
  }()

  /// Why ``shared`` is nil.
  public static var unavailableReason: String {
    if let reason = serverUnavailableReason { return reason }
    return "the test server did not start (see \(NSTemporaryDirectory())bowties-pg-*/server.log)"
  }

  /// Why no server can run here at all, or nil when one can.
  public static var serverUnavailableReason: String? {
    if geteuid() != 0 { return "the tests start PostgreSQL as the postgres user, which needs root" }
    if !FileManager.default.isExecutableFile(atPath: binaries + "/initdb") {
      return "no PostgreSQL server in \(binaries) (apt-get install postgresql)"
    }
    return nil
  }

  public static let binaries = "/usr/lib/postgresql/15/bin"
  static let superuserPassword = "super-secret-\(UUID().uuidString.prefix(8))"

  public let folder: URL
  /// The address clients reach the server at: the first it listens on.
  public let host: String
  public let port: Int
  /// What runs the server and psql where the server lives (`ip netns exec NAME`), or
  /// nothing for this machine's own network.
  let commandPrefix: [String]
  /// The certificate authority that signed the server's certificate (for ``host`` and
  /// localhost, not its other addresses), and one that did not.
  public let authority: URL
  public let otherAuthority: URL

  /// The shared server: on 127.0.0.1 and 127.0.0.2, at a free port.
  private convenience init() throws {
    try self.init(
      listenAddresses: ["127.0.0.1", "127.0.0.2"], port: try Self.freePort(),
      clients: "127.0.0.0/8")
  }

  /// Makes and starts a server listening on `listenAddresses` at `port`, taking password
  /// logins (scram-sha-256) from `clients`, a subnet; `commandPrefix` runs its programs
  /// where it lives, in a network namespace say. Stop it with ``stop()``.
  public init(
    listenAddresses: [String], port: Int, clients: String, commandPrefix: [String] = []
  ) throws {
    guard geteuid() == 0, let host = listenAddresses.first else {
      throw Failure("not root, or no address to listen on")
    }
    self.host = host
    self.port = port
    self.commandPrefix = commandPrefix
    folder = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("bowties-pg-\(UUID().uuidString.prefix(8))")
    let data = folder.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    authority = folder.appendingPathComponent("ca.crt")
    otherAuthority = folder.appendingPathComponent("other-ca.crt")
    let password = folder.appendingPathComponent("pw")
    try Data(Self.superuserPassword.utf8).write(to: password)
    try Self.makeCertificates(in: folder, for: host)
    try run("/bin/chown", ["-R", "postgres", folder.path])
    try asPostgres(
      "initdb",
      ["-D", data.path, "-U", "postgres", "-A", "scram-sha-256", "--pwfile", password.path])
    let settings = """
      listen_addresses = '\(listenAddresses.joined(separator: ","))'
      port = \(port)
      unix_socket_directories = '\(folder.path)'
      ssl = on
      ssl_cert_file = '\(folder.path)/server.crt'
      ssl_key_file = '\(folder.path)/server.key'
      fsync = off
      max_connections = 200
      """
    let configuration = try FileHandle(forWritingTo: data.appendingPathComponent("postgresql.conf"))
    configuration.seekToEndOfFile()
    configuration.write(Data(("\n" + settings + "\n").utf8))
    try configuration.close()
    let access = try FileHandle(forWritingTo: data.appendingPathComponent("pg_hba.conf"))
    access.seekToEndOfFile()
    access.write(Data("host all all \(clients) scram-sha-256\n".utf8))
    try access.close()
    try start()
  }

  /// Starts the server (again, after ``kill()`` or ``stop()``).
  public func start() throws {
    try pgCtl("start")
  }

  /// Stops the server as an administrator would (fast shutdown: sessions are ended, their
  /// transactions rolled back) and starts it again.
  public func restart() throws {
    try pgCtl("restart", "-m", "fast")
  }

  private func pgCtl(_ arguments: String...) throws {
    let (program, prefixed) = here(
      "/usr/sbin/runuser",
      [
        "-u", "postgres", "--", Self.binaries + "/pg_ctl", "-D",
        folder.appendingPathComponent("data").path,
        "-l", folder.appendingPathComponent("server.log").path, "-w", "-t", "60",
      ] + arguments)
    // Its output goes to the log, not to a pipe: the server it leaves running would hold
    // the pipe open, and reading it would never end.
    do {
      try Self.run(program, prefixed, capturing: false)
    } catch {
      let log = folder.appendingPathComponent("server.log")
      let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
      throw Failure("\(error); the server's log ends: \(lines.suffix(5).joined(separator: " / "))")
    }
  }

  /// Stops the server at once, as a crash of its machine would: `kill -9` of the
  /// postmaster and of every process it started. Backends left running would go on (and
  /// might commit) until they next looked for their parent.
  public func kill() {
    signalPostmaster(SIGKILL, andChildren: true)
  }

  /// Stops the server (immediate shutdown) and removes its folder. Without `Process`, whose
  /// run loop no longer turns while the process exits, when this runs.
  public func stop() {
    signalPostmaster(SIGQUIT, andChildren: false)
    try? FileManager.default.removeItem(at: folder)
  }

  /// The postmaster's process id, from its lock file; nil when it is not running.
  public var postmaster: pid_t? {
    let pidFile = folder.appendingPathComponent("data/postmaster.pid")
    guard let text = try? String(contentsOf: pidFile, encoding: .utf8),
      let line = text.split(separator: "\n").first, let pid = pid_t(line),
      Self.isRunning(pid)
    else { return nil }
    return pid
  }

  /// Sends `signal` to the postmaster, and to its children too if asked, and waits, at
  /// most 10 s, for all of them to be gone and its port to be free.
  private func signalPostmaster(_ signal: Int32, andChildren: Bool) {
    guard let pid = postmaster else { return }
    // Stopped, it starts no new child while they are listed; and they are listed before
    // it dies, after which they would be some other process's children.
    if andChildren { Glibc.kill(pid, SIGSTOP) }
    let children = Self.children(of: pid)
    Glibc.kill(pid, signal)
    if andChildren {
      for child in children { Glibc.kill(child, signal) }
    }
    // Otherwise its children notice their parent is gone and exit. The postmaster must be
    // reaped too: a new one takes its zombie for a server still running.
    for _ in 0..<200
    where Self.processStatus(pid) != nil || children.contains(where: Self.isRunning)
      || (commandPrefix.isEmpty && Self.portInUse(port))
    {
      usleep(50_000)
    }
  }

  /// The processes whose parent is `pid`.
  static func children(of pid: pid_t) -> [pid_t] {
    let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return processes.compactMap { name in
      guard let child = pid_t(name), let status = processStatus(child),
        status.parent == pid
      else { return nil }
      return child
    }
  }

  /// Whether `pid` is a live process: not gone, and not a zombie its parent has yet to
  /// reap.
  public static func isRunning(_ pid: pid_t) -> Bool {
    guard let status = processStatus(pid) else { return false }
    return status.state != "Z" && status.state != "X"
  }

  /// A process's state and parent, from `/proc/PID/stat`: after its name, which may hold
  /// spaces and parentheses, so read from the last `)`.
  private static func processStatus(_ pid: pid_t) -> (state: Character, parent: pid_t)? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: end)...].split(separator: " ")
    guard fields.count > 2, let state = fields[0].first, let parent = pid_t(fields[1]) else {
      return nil
    }
    return (state, parent)
  }

  /// A new database owned by a new role, and the URI that reaches it over TCP (no TLS).
  public func makeDatabase() throws -> (uri: String, role: String, password: String) {
    let name = "t" + UUID().uuidString.prefix(8).lowercased()
    let password = "pw-\(UUID().uuidString.prefix(12))"
    try superuser("CREATE ROLE \(name) LOGIN PASSWORD '\(password)'")
    try superuser("CREATE DATABASE \(name) OWNER \(name)")
    // Nothing beyond its own schema: the database's public schema is the role's.
    try superuser("ALTER SCHEMA public OWNER TO \(name)", database: name)
    return (
      "postgresql://\(name):\(password)@\(host):\(port)/\(name)?sslmode=disable", name, password
    )
  }

  /// Runs SQL as the superuser, through psql, and returns what it printed.
  @discardableResult
  public func superuser(_ sql: String, database: String = "postgres") throws -> String {
    try psql(sql, user: "postgres", password: Self.superuserPassword, database: database)
  }

  /// Runs SQL through psql as `user`.
  @discardableResult
  public func psql(_ sql: String, user: String, password: String, database: String) throws
    -> String
  {
    let (program, arguments) = here(
      "/usr/bin/psql",
      [
        "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", String(port),
        "-U", user, "-d", database, "-c", sql,
      ])
    return try run(
      program, arguments, environment: ["PGPASSWORD": password, "PGSSLMODE": "disable"])
  }

  /// The program and arguments that run `program` where the server lives.
  private func here(_ program: String, _ arguments: [String]) -> (String, [String]) {
    guard let first = commandPrefix.first else { return (program, arguments) }
    return (first, Array(commandPrefix.dropFirst()) + [program] + arguments)
  }

  private func asPostgres(_ tool: String, _ arguments: [String]) throws {
    try run("/usr/sbin/runuser", ["-u", "postgres", "--", Self.binaries + "/" + tool] + arguments)
  }

  @discardableResult
  private func run(_ program: String, _ arguments: [String], environment: [String: String] = [:])
    throws -> String
  {
    try Self.run(program, arguments, environment: environment)
  }

  /// Runs a program to its end and returns what it printed on stdout.
  ///
  /// With posix_spawn and waitpid rather than Foundation's `Process`, whose wait never
  /// returned here for `pg_ctl start` (its child went unreaped), and which does not work
  /// while the process exits.
  @discardableResult
  static func run(
    _ program: String, _ arguments: [String], environment: [String: String] = [:],
    capturing: Bool = true
  ) throws -> String {
    let folder = FileManager.default.temporaryDirectory
    let outputFile = folder.appendingPathComponent("bowties-run-\(UUID().uuidString).out")
    let errorFile = folder.appendingPathComponent("bowties-run-\(UUID().uuidString).err")
    defer {
      try? FileManager.default.removeItem(at: outputFile)
      try? FileManager.default.removeItem(at: errorFile)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, capturing ? outputFile.path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(
      &actions, 2, capturing ? errorFile.path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let variables = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"].merging(environment) { $1 }
      .map { "\($0)=\($1)" }
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = variables.map { strdup($0) } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, program, &actions, nil, argv, envp)
    guard spawned == 0 else { throw Failure("cannot run \(program): error \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    guard status == 0 else {
      let errorText = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
      throw Failure(
        "\(program) \(arguments.joined(separator: " ")) ended with status \(status): \(errorText)")
    }
    return text
  }

  /// A certificate authority and a server certificate it signed, for `address` and
  /// localhost; and a second authority that signed nothing the server has.
  private static func makeCertificates(in folder: URL, for address: String) throws {
    let path = { (name: String) in folder.appendingPathComponent(name).path }
    for authority in ["ca", "other-ca"] {
      try run(
        "/usr/bin/openssl",
        [
          "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
          "/CN=bowties test \(authority)", "-keyout", path("\(authority).key"), "-out",
          path("\(authority).crt"),
        ])
    }
    try Data("subjectAltName=IP:\(address),DNS:localhost\n".utf8)
      .write(to: folder.appendingPathComponent("san.ext"))
    try run(
      "/usr/bin/openssl",
      [
        "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout",
        path("server.key"), "-out", path("server.csr"),
      ])
    try run(
      "/usr/bin/openssl",
      [
        "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"),
        "-CAcreateserial", "-days", "2", "-extfile", path("san.ext"), "-out", path("server.crt"),
      ])
    chmod(path("server.key"), 0o600)
  }

  /// A port nothing listens on now: the kernel's choice for a socket bound to port 0.
  public static func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound else { throw Failure("no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  static func portInUse(_ port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
  }
}
