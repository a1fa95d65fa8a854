import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Several hosts on one machine: a network namespace for a server and one for each client,
/// the clients' links plugged into a bridge in the server's namespace, as machines into a
/// switch. Addresses come from 198.18.0.0/24 (RFC 2544's benchmarking range), which only
/// these namespaces use; the machine's own network is never touched.
///
/// Namespaces are named `bt-PID-…` after the test process, so that two test runs at once
/// do not meet, and a run that died before tearing down is cleaned up by the next.
public final class NetworkNamespaces: Sendable {
  public struct Host: Sendable {
    /// The namespace's name, for `ip netns exec`.
    public let namespace: String
    public let address: String
    /// The link to the host: in the server's namespace, the bridge's port it is plugged
    /// into; for the server itself, the bridge.
    let port: String

    /// What runs a program on this host.
    public var commandPrefix: [String] { [NetworkNamespaces.ip, "netns", "exec", namespace] }
  }

  public static let ip = "/usr/sbin/ip"
  public static let prefix = "bt-"
  public static let subnet = "198.18.0.0/24"

  public let server: Host
  public let clients: [Host]

  /// Why namespaces cannot be made here, or nil when they can: root, `ip`, and a namespace
  /// actually made and removed (a container may forbid it).
  public static let unavailableReason: String? = {
    if geteuid() != 0 { return "network namespaces need root" }
    guard FileManager.default.isExecutableFile(atPath: ip) else {
      return "no \(ip) (apt-get install iproute2)"
    }
    let probe = "\(prefix)\(getpid())-probe"
    do {
      try run(ip, ["netns", "add", probe])
      try run(ip, ["netns", "delete", probe])
    } catch {
      return "cannot make a network namespace here: \(error)"
    }
    return nil
  }()

  /// Makes a server's namespace with a bridge at 198.18.0.1, and `clients` namespaces at
  /// 198.18.0.11, .12, … each linked to the bridge by a veth pair.
  public init(clients count: Int = 2) throws {
    precondition((1...200).contains(count), "198.18.0.0/24 holds at most 200 clients here")
    Self.removeStale()
    let name = "\(Self.prefix)\(getpid())"
    server = Host(namespace: "\(name)-srv", address: "198.18.0.1", port: "br0")
    clients = (1...count).map {
      Host(namespace: "\(name)-c\($0)", address: "198.18.0.\(10 + $0)", port: "c\($0)")
    }
    do {
      try make()
    } catch {
      remove()
      throw error
    }
  }

  private func make() throws {
    let ip = { (arguments: [String]) in _ = try Self.run(Self.ip, arguments) }
    for host in [server] + clients {
      try ip(["netns", "add", host.namespace])
      try ip(["-n", host.namespace, "link", "set", "lo", "up"])
    }
    try ip(["-n", server.namespace, "link", "add", "br0", "type", "bridge"])
    try ip(["-n", server.namespace, "addr", "add", server.address + "/24", "dev", "br0"])
    try ip(["-n", server.namespace, "link", "set", "br0", "up"])
    for client in clients {
      try ip([
        "link", "add", "name", client.port, "netns", server.namespace, "type", "veth", "peer",
        "name", "eth0", "netns", client.namespace,
      ])
      try ip(["-n", server.namespace, "link", "set", client.port, "master", "br0"])
      try ip(["-n", server.namespace, "link", "set", client.port, "up"])
      try ip(["-n", client.namespace, "addr", "add", client.address + "/24", "dev", "eth0"])
      try ip(["-n", client.namespace, "link", "set", "eth0", "up"])
    }
  }

  /// Unplugs the client's cable at the switch: its own interface stays up and configured,
  /// and everything it sends, and everything sent to it, is lost without a word, as when a
  /// link fails somewhere between two machines.
  public func cut(_ client: Host) throws {
    try Self.run(Self.ip, ["-n", server.namespace, "link", "set", client.port, "down"])
  }

  /// Plugs the client's cable back in, and waits (up to 10 s) until the client reaches
  /// `port` on the server again: the kernel reports a link's carrier with a delay of up to
  /// a second, and the neighbour entries the cut left failed are learnt again, so a
  /// connection right after the plug goes in may find the link not passing yet.
  public func mend(_ client: Host, reaching port: Int) throws {
    try Self.run(Self.ip, ["-n", server.namespace, "link", "set", client.port, "up"])
    let probe =
      client.commandPrefix + [
        "/usr/bin/timeout", "1", "/bin/bash", "-c", "exec 3<>/dev/tcp/\(server.address)/\(port)",
      ]
    for _ in 0..<10 {
      if (try? Self.run(probe[0], Array(probe.dropFirst()))) != nil { return }
      usleep(200_000)
    }
    throw PostgresTestServer.Failure(
      "\(client.namespace) does not reach \(server.address) port \(port) after the cut")
  }

  /// Removes the namespaces, and with them their links. Safe to call more than once, and
  /// while the process exits (no `Process`).
  public func remove() {
    for host in clients + [server] {
      _ = try? Self.run(Self.ip, ["netns", "delete", host.namespace])
    }
  }

  /// Removes namespaces of earlier test runs whose process is gone.
  static func removeStale() {
    guard let listing = try? run(ip, ["netns", "list"]) else { return }
    for line in listing.split(separator: "\n") {
      let name = String(line.split(separator: " ").first ?? "")
      let parts = name.split(separator: "-")
      guard name.hasPrefix(prefix), parts.count == 3, let pid = Int32(parts[1]),
        pid != getpid(), Glibc.kill(pid, 0) != 0 && errno == ESRCH
      else { continue }
      _ = try? run(ip, ["netns", "delete", name])
    }
  }

  @discardableResult
  static func run(_ program: String, _ arguments: [String]) throws -> String {
    try PostgresTestServer.run(program, arguments)
  }
}
