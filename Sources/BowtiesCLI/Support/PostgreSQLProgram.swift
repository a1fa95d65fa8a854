import BowTieKit
import BowTieModel
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `bowties-postgresql`, the program that reaches PostgreSQL stores: the same commands
/// with the PostgreSQL engine linked in. `bowties` hands a command line over to it when the
/// store is a connection URI, the way git leaves HTTP to `git-remote-https`.
///
/// `bowties` itself links no network or TLS code: PostgresNIO, NIO and BoringSSL would add
/// 29,621 relocations and 1,930 protocol conformances to every start of the static binary,
/// and make a SQLite `show` slower for everyone (docs/performance.md, "PostgreSQL in a
/// program of its own").
enum PostgreSQLProgram {
  static let name = "bowties-postgresql"

  /// Replaces this process with `bowties-postgresql`, given the same arguments, when the
  /// command line's store is a PostgreSQL URI and this program cannot open one. Returns
  /// when there is nothing to hand over, or no such program to hand it to: opening the
  /// store then says so.
  ///
  /// Runs before the line is parsed, so nothing has been read or printed yet; `address` is
  /// the line's store (``Invocation/storeAddress(environment:)``).
  static func handOverIfNeeded(_ invocation: Invocation, address: (any StoreAddress)?) {
    guard address is Missing, let program = installed() else { return }
    let argv = [program] + invocation.arguments
    var cArguments = argv.map { strdup($0) }
    cArguments.append(nil)
    execv(program, cArguments)
    // execv returns only on failure; the store's opening reports the program missing.
    for argument in cArguments { free(argument) }
  }

  /// Whether `store` is a location `bowties-postgresql` takes: a PostgreSQL connection URI
  /// (`postgresql://` or `postgres://`), as its engine reads one. A path that merely looks
  /// like one would otherwise become a folder named `postgresql:`. The engine's own rule
  /// (`PostgresSettings.isURI`), which this program does not link, is held to this one by
  /// `InvocationTests`.
  static func takes(_ store: String) -> Bool {
    let scheme = store.prefix(13).lowercased()
    return scheme.hasPrefix("postgresql://") || scheme.hasPrefix("postgres://")
  }

  /// Where `bowties-postgresql` is installed: beside this program, as in a build folder,
  /// or in `../libexec/bowties/`, where `make install` puts it.
  static func installed() -> String? {
    candidates().first { access($0, X_OK) == 0 }
  }

  /// The places ``installed()`` looks, in order.
  static func candidates() -> [String] {
    guard let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else { return [] }
    let folder = (program as NSString).deletingLastPathComponent
    return [
      "\(folder)/\(name)",
      ((folder as NSString).deletingLastPathComponent as NSString)
        .appendingPathComponent("libexec/bowties/\(name)"),
    ]
  }

  /// What a PostgreSQL store is in a `bowties` without `bowties-postgresql`: an address
  /// whose every use says what is missing. Asked after any engine registered before.
  static func registerMissing() {
    StoreEngines.register { store in takes(store) ? Missing() : nil }
  }

  /// A PostgreSQL store, which this program cannot reach.
  struct Missing: StoreAddress {
    var nameForQuestion: String { "the PostgreSQL store" }

    func open(ifMissing populate: (BowTieStore) throws -> Void) throws(BowTieError)
      -> (store: BowTieStore, created: Bool)
    {
      throw Self.error
    }

    func checkup(repairing: Bool) throws -> (store: String, checkup: Checkup) {
      throw Self.error
    }

    static var error: BowTieError {
      let looked = candidates().joined(separator: " or ")
      return .storeUnreadable(
        path: "on the PostgreSQL server",
        reason: "bowties reaches PostgreSQL stores through \(name), which is not installed "
          + "(looked for \(looked.isEmpty ? name : looked))")
    }
  }
}
