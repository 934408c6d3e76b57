import Foundation
import StockroomStorage
import StockroomTestSupport
import Testing

/// A new PostgreSQL database holding the shop of a fresh data directory (alice is staff), for
/// nodes to serve: accounts are made offline in SQLite and imported, as an operator moving a
/// shop would.
enum PostgresShop {
  static func withAccounts(in cluster: PostgresCluster) throws -> String {
    let name = "node_\(UInt32.random(in: 0...UInt32.max))"
    try PostgresConnection(PostgresURL(cluster.url)).execute("CREATE DATABASE \(name)")
    let url = "postgresql://stockroom@127.0.0.1:\(cluster.port)/\(name)"
    let data = try DataDirectory()
    try data.addAccount("alice", role: .staff)
    let status = try Subprocess.run(
      DaemonProcess.binary.path, ["import", "--data", data.path, "--store", url], environment: [:])
    guard status == 0 else { throw LineClient.Failure(description: "import exited \(status)") }
    return url
  }

  /// A node serving `url`, and its port; `options` go to its command line.
  /// Its clients, all from 127.0.0.1, stand for many: no per-address order rate.
  static func node(_ url: String, _ options: [String] = []) throws -> (DaemonProcess, UInt16) {
    let daemon = try DaemonProcess(["--port", "0", "--store", url, "--order-rate", "0"] + options)
    return (daemon, try daemon.port())
  }

  /// A greeted client, logged in as `user` when given.
  static func client(_ port: UInt16, as user: String? = nil) throws -> LineClient {
    let client = try LineClient(port: port)
    _ = try client.readReply()
    if let user { try client.logInExisting(user) }
    return client
  }

  /// Takes the writers' lock of the store at `url` on a connection of the test's own, as another
  /// node's commit holds it, so a node's writer waits in its transaction; `ROLLBACK` or `COMMIT`
  /// on the connection returned lets it go.
  static func holdWritersLock(_ url: String) throws -> PostgresConnection {
    let holder = try PostgresConnection(PostgresURL(url))
    try holder.execute("BEGIN")
    _ = try holder.query("SELECT seq FROM change_head WHERE id = 1 FOR UPDATE")
    return holder
  }

  /// Waits until one session of `holder`'s database waits for a lock: a node's writer, behind
  /// the lock `holdWritersLock` took.
  static func waitForWriterBehindLock(_ holder: PostgresConnection) throws {
    try waitUntil {
      try holder.query(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
      ).values.first?[0] == "1"
    }
  }

  /// The ids of the orders the store at `url` holds.
  static func orderIDs(_ url: String) throws -> Set<Int> {
    Set(try PostgresConnection(PostgresURL(url)).query("SELECT id FROM orders").values.map { Int($0[0]!)! })
  }
}
