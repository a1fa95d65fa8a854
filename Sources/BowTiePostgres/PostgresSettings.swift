import BowTieKit
import BowTieModel
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How to reach a PostgreSQL store: a connection URI read as libpq reads one, with psql's
/// environment variables and password file filling in what it leaves out, so that a
/// user's existing set-up works as it does for `psql`.
///
/// The URI's syntax is Foundation's `URLComponents`; what its parts mean is libpq's
/// (`postgresql://[user[:password]@][host][:port][/dbname][?param=value&…]`), which no
/// Swift library here implements: postgres-kit's parser takes none of the variables or the
/// password file, treats `require` as `verify-full`, and knows no `sslrootcert`,
/// `connect_timeout` or `application_name`.
public struct PostgresSettings: Sendable, Equatable {
  /// Where the server listens.
  public enum Endpoint: Sendable, Equatable {
    case tcp(host: String, port: Int)
    /// A Unix-domain socket: the folder libpq calls the host, and the socket file in it.
    case unixSocket(folder: String, port: Int)

    /// The socket file's path, `FOLDER/.s.PGSQL.PORT`, as the server names it.
    public var socketPath: String? {
      guard case .unixSocket(let folder, let port) = self else { return nil }
      return (folder.hasSuffix("/") ? folder : folder + "/") + ".s.PGSQL.\(port)"
    }
  }

  /// libpq's `sslmode`.
  public enum TLSMode: String, Sendable, Equatable, CaseIterable {
    /// No TLS.
    case disable
    /// TLS if the server insists; bowties tries TLS first, as `prefer` does.
    case allow
    /// TLS if the server offers it, without checking its certificate (libpq's default).
    case prefer
    /// TLS always; the certificate is checked only when a root certificate is given.
    case require
    /// TLS always, the certificate checked against the root certificates.
    case verifyCA = "verify-ca"
    /// TLS always, the certificate checked, and issued for the host connected to.
    case verifyFull = "verify-full"
  }

  public var endpoint: Endpoint
  public var user: String
  public var password: String?
  public var database: String
  public var tlsMode: TLSMode
  /// `sslrootcert`: a file of root certificates to trust, or nil for the system's.
  public var rootCertificates: String?
  /// `connect_timeout`, in seconds (default 10).
  public var connectTimeout: Int
  /// `application_name`, which the server shows in `pg_stat_activity`.
  public var applicationName: String
  /// What a person reading a message should see for this store: the URI with its
  /// password masked.
  public var displayName: String
  /// What the password file asked to be told (a file readable by others is ignored).
  public var warnings: [String] = []

  /// The default `connect_timeout`, in seconds.
  public static let defaultConnectTimeout = 10
  /// Where Debian's server puts its socket, and so where psql looks without a host.
  public static let defaultSocketFolder = "/var/run/postgresql"

  /// Whether `text` names a PostgreSQL store rather than a file.
  public static func isURI(_ text: String) -> Bool {
    let lowercased = text.prefix(13).lowercased()
    return lowercased.hasPrefix("postgresql://") || lowercased.hasPrefix("postgres://")
  }

  /// The name of the account this process runs as, from the password database.
  static func accountName() -> String? {
    guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
    let text = String(cString: name)
    return text.isEmpty ? nil : text
  }

  /// The parameters a URI's query may set. Others are refused, as libpq refuses them.
  static let knownParameters: Set<String> = [
    "host", "port", "user", "password", "dbname", "sslmode", "sslrootcert", "connect_timeout",
    "application_name",
  ]

  /// The environment variables ``read(_:environment:)`` reads.
  public static let variables = [
    "PGHOST", "PGPORT", "PGUSER", "PGPASSWORD", "PGDATABASE", "PGSSLMODE", "PGSSLROOTCERT",
    "PGCONNECT_TIMEOUT", "PGAPPNAME", "PGPASSFILE", "HOME", "USER",
  ]

  /// Reads `uri`, filling in from `environment` (`PGHOST`, `PGPORT`, `PGUSER`,
  /// `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`, `PGSSLROOTCERT`, `PGCONNECT_TIMEOUT`,
  /// `PGAPPNAME`, `PGPASSFILE`, `HOME`, `USER`) and the password file, as libpq does:
  /// the URI first, then the variables, then the defaults.
  ///
  /// - Throws: a usage error (the password masked) when the URI or a value is malformed.
  public static func read(_ uri: String, environment: [String: String]) throws(BowTieError)
    -> PostgresSettings
  {
    let shown = maskingPassword(in: uri)
    func refuse(_ reason: String) -> BowTieError {
      .usage("\(shown) is not a PostgreSQL connection URI bowties can use: \(reason)")
    }
    guard isURI(uri), let components = URLComponents(string: uri) else {
      throw refuse("write it as postgresql://user:password@host:port/database?sslmode=…")
    }
    // Foundation here reads a broken escape (`%zz`) as the text `%zz`, and bowties would
    // connect as user `%zz`; libpq refuses the URI, and so does bowties.
    guard !hasBrokenEscape(uri) else {
      throw refuse("it has a '%' that two hexadecimal digits do not follow (write % as %25)")
    }
    // Escapes that decode to bytes that are not UTF-8 (`%FF`) make no text.
    func decoded(_ part: String?, _ name: String) throws(BowTieError) -> String? {
      guard let part else { return nil }
      guard let text = part.removingPercentEncoding else {
        throw refuse("its \(name)'s escapes do not decode to UTF-8 text")
      }
      return text
    }
    var parameters: [String: String] = [:]
    for item in components.percentEncodedQueryItems ?? [] {
      let name = try decoded(item.name, "parameter") ?? ""
      guard knownParameters.contains(name) else {
        throw refuse("it has the parameter '\(name)', which bowties does not know")
      }
      parameters[name] = try decoded(item.value, name) ?? ""
    }
    func value(_ parameter: String, _ uriPart: String?, _ variable: String) -> String? {
      [parameters[parameter], uriPart, environment[variable]].lazy.compactMap { $0 }
        .first { !$0.isEmpty }
    }
    var host = try decoded(components.percentEncodedHost, "host")
    if let bracketed = host, bracketed.hasPrefix("["), bracketed.hasSuffix("]") {
      host = String(bracketed.dropFirst().dropLast())
    }
    let pathName = try decoded(String(components.percentEncodedPath.drop { $0 == "/" }), "database")
    let uriUser = try decoded(components.percentEncodedUser, "user")
    let uriPassword = try decoded(components.percentEncodedPassword, "password")

    let hostName = value("host", host, "PGHOST")
    if let hostName, hostName.contains(",") {
      throw refuse("it names several hosts; bowties connects to one")
    }
    let portText = value("port", components.port.map(String.init), "PGPORT") ?? "5432"
    guard PlainDecimal.isDigits(portText), let port = Int(portText), (1...65_535).contains(port)
    else { throw refuse("the port '\(portText)' is not a number from 1 to 65535") }

    let endpoint: Endpoint =
      switch hostName {
      case nil: .unixSocket(folder: defaultSocketFolder, port: port)
      case let folder? where folder.hasPrefix("/"): .unixSocket(folder: folder, port: port)
      case let name?: .tcp(host: name, port: port)
      }

    // libpq's last default is the account the process runs as, which a container or a
    // service may start without USER.
    guard
      let user = value("user", uriUser, "PGUSER")
        ?? environment["USER"].flatMap({ $0.isEmpty ? nil : $0 }) ?? accountName()
    else {
      throw refuse(
        "it names no user, neither PGUSER nor USER is set, and uid \(geteuid()) has no name")
    }
    let database = value("dbname", pathName, "PGDATABASE") ?? user

    let modeText = value("sslmode", nil, "PGSSLMODE") ?? TLSMode.prefer.rawValue
    guard let tlsMode = TLSMode(rawValue: modeText) else {
      let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
      throw refuse("sslmode '\(modeText)' is not one of \(modes)")
    }
    let timeoutText =
      value("connect_timeout", nil, "PGCONNECT_TIMEOUT") ?? String(defaultConnectTimeout)
    guard PlainDecimal.isDigits(timeoutText), let timeout = Int(timeoutText), timeout <= 86_400
    else { throw refuse("connect_timeout '\(timeoutText)' is not a number of seconds") }

    var settings = PostgresSettings(
      endpoint: endpoint, user: user,
      password: value("password", uriPassword, "PGPASSWORD"),
      database: database, tlsMode: tlsMode,
      rootCertificates: value("sslrootcert", nil, "PGSSLROOTCERT"),
      // libpq takes less than 2 seconds as 2; 0 means wait for ever, which bowties does not.
      connectTimeout: timeout == 0 ? defaultConnectTimeout : max(2, timeout),
      applicationName: value("application_name", nil, "PGAPPNAME") ?? "bowties",
      displayName: shown)
    if settings.password == nil {
      settings.readPasswordFile(environment: environment)
    }
    return settings
  }

  /// `text` with the passwords in it replaced by `****`, that of the `user:password@` part
  /// and that of a `password=` parameter: what any message shows of a store's URI, even one
  /// too malformed to read.
  public static func maskingPassword(in text: String) -> String {
    var masked = text
    if let schemeEnd = masked.range(of: "://") {
      let authority = masked[schemeEnd.upperBound...].prefix {
        $0 != "/" && $0 != "?" && $0 != "#"
      }
      if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
        masked.replaceSubrange(masked.index(after: colon)..<at, with: "****")
      }
    }
    guard let query = masked.firstIndex(of: "?") else { return masked }
    var parameters: [String] = []
    for parameter in masked[masked.index(after: query)...].split(
      separator: "&", omittingEmptySubsequences: false)
    {
      parameters.append(parameter.hasPrefix("password=") ? "password=****" : String(parameter))
    }
    return String(masked[...query]) + parameters.joined(separator: "&")
  }

  /// Fills in the password from `PGPASSFILE` or `~/.pgpass`, as libpq does: the first line
  /// `host:port:database:user:password` whose fields match, `*` matching anything. A file
  /// that others may read is ignored, with a warning, as libpq ignores it.
  mutating func readPasswordFile(environment: [String: String]) {
    let path: String
    if let file = environment["PGPASSFILE"], !file.isEmpty {
      path = file
    } else if let home = environment["HOME"], !home.isEmpty {
      path = home + "/.pgpass"
    } else {
      return
    }
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
    guard info.st_mode & 0o077 == 0 else {
      warnings.append(
        "the password file \(path) is ignored: others may read it; make it private with "
          + "chmod 600 \(path)")
      return
    }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
    let (host, port) =
      switch endpoint {
      case .tcp(let host, let port): (host, port)
      case .unixSocket(let folder, let port):
        // libpq matches a socket against "localhost", and against its folder.
        (folder == Self.defaultSocketFolder ? "localhost" : folder, port)
      }
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = Self.passwordFileFields(line)
      guard fields.count == 5 else { continue }
      let wanted = [host, String(port), database, user]
      if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) {
        password = fields[4]
        return
      }
    }
  }

  /// A password file line's fields: split at `:`, with `\:` and `\\` for a literal colon
  /// and backslash.
  static func passwordFileFields(_ line: Substring) -> [String] {
    var fields = [""]
    var escaped = false
    for character in line {
      if escaped {
        fields[fields.count - 1].append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == ":" && fields.count < 5 {
        fields.append("")
      } else {
        fields[fields.count - 1].append(character)
      }
    }
    return fields
  }
}

/// Whether `text` has a `%` that two hexadecimal digits do not follow.
private func hasBrokenEscape(_ text: String) -> Bool {
  var bytes = text.utf8.makeIterator()
  while let byte = bytes.next() {
    guard byte == UInt8(ascii: "%") else { continue }
    for _ in 0..<2 {
      guard bytes.next()?.asciiHexDigitValue != nil else { return true }
    }
  }
  return false
}
