import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real PostgreSQL server for the tests: Debian's binaries, `initdb` and `pg_ctl` in a
/// temporary folder, run as the `postgres` user (the server refuses to run as root), on a
/// free loopback port, with TLS from a certificate authority made for it. One server for
/// the whole test process, stopped when the process exits; each test gets a database and
/// a role of its own.
public final class PostgresTestServer: Sendable {
  /// The server, started on first use; nil where one cannot run here (no PostgreSQL, not
  /// root), with ``unavailableReason`` saying why.
  public static let shared: PostgresTestServer? = try? PostgresTestServer()

  /// Why ``shared`` is nil.
  public static var unavailableReason: String {
    if geteuid() != 0 { return "the tests start PostgreSQL as the postgres user, which needs root" }
    if !FileManager.default.isExecutableFile(atPath: binaries + "/initdb") {
      return "no PostgreSQL server in \(binaries) (apt-get install postgresql)"
    }
    return "the test server did not start (see \(NSTemporaryDirectory())bowties-pg-*/server.log)"
  }

  public static let binaries = "/usr/lib/postgresql/15/bin"
  static let superuserPassword = "super-secret-\(UUID().uuidString.prefix(8))"

  public let folder: URL
  public let port: Int
  /// The certificate authority that signed the server's certificate (for 127.0.0.1 and
  /// localhost), and one that did not.
  public let authority: URL
  public let otherAuthority: URL

  private init() throws {
    guard geteuid() == 0 else { throw Failure("not root") }
    folder = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("bowties-pg-\(UUID().uuidString.prefix(8))")
    let data = folder.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    port = try Self.freePort()
    authority = folder.appendingPathComponent("ca.crt")
    otherAuthority = folder.appendingPathComponent("other-ca.crt")
    let password = folder.appendingPathComponent("pw")
    try Data(Self.superuserPassword.utf8).write(to: password)
    try Self.makeCertificates(in: folder)
    try run("/bin/chown", ["-R", "postgres", folder.path])
    try asPostgres(
      "initdb",
      ["-D", data.path, "-U", "postgres", "-A", "scram-sha-256", "--pwfile", password.path])
    let settings = """
      listen_addresses = '127.0.0.1,127.0.0.2'
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
    access.write(Data("host all all 127.0.0.0/8 scram-sha-256\n".utf8))
    try access.close()
    try start()
    atexit { PostgresTestServer.shared?.stop() }
  }

  /// Starts the server (again, after ``kill()`` or ``stop()``).
  public func start() throws {
    // Its output goes to the log, not to a pipe: the server it leaves running would hold
    // the pipe open, and reading it would never end.
    try Self.run(
      "/usr/sbin/runuser",
      [
        "-u", "postgres", "--", Self.binaries + "/pg_ctl", "-D",
        folder.appendingPathComponent("data").path,
        "-l", folder.appendingPathComponent("server.log").path, "-w", "-t", "60", "start",
      ],
      capturing: false)
  }

  /// Stops the server at once, as a crash would: `kill -9` of its postmaster.
  public func kill() {
    signalPostmaster(SIGKILL)
  }

  /// Stops the server (immediate shutdown) and removes its folder. Without `Process`, whose
  /// run loop no longer turns while the process exits, when this runs.
  public func stop() {
    signalPostmaster(SIGQUIT)
    try? FileManager.default.removeItem(at: folder)
  }

  /// Sends `signal` to the postmaster and waits, at most 10 s, for its port to be free.
  private func signalPostmaster(_ signal: Int32) {
    let pidFile = folder.appendingPathComponent("data/postmaster.pid")
    guard let text = try? String(contentsOf: pidFile, encoding: .utf8),
      let line = text.split(separator: "\n").first, let pid = Int32(line)
    else { return }
    Glibc.kill(pid, signal)
    // Its children notice their parent is gone and exit.
    for _ in 0..<200 where Self.portInUse(port) || Glibc.kill(pid, 0) == 0 { usleep(50_000) }
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
      "postgresql://\(name):\(password)@127.0.0.1:\(port)/\(name)?sslmode=disable", name, password
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
    try run(
      "/usr/bin/psql",
      [
        "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port),
        "-U", user, "-d", database, "-c", sql,
      ],
      environment: ["PGPASSWORD": password, "PGSSLMODE": "disable"])
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

  /// A certificate authority and a server certificate it signed, for 127.0.0.1 and
  /// localhost; and a second authority that signed nothing the server has.
  private static func makeCertificates(in folder: URL) throws {
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
    try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\n".utf8)
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
