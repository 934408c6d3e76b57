import Foundation
import StockroomProtocol
import StockroomStorage
import StockroomTestSupport
import Synchronization
import Testing

/// Several `stockroomd` nodes serving one shop from one PostgreSQL database, as real processes
/// against a real cluster: a rush through three nodes, a watcher on one hearing the others, a
/// node killed mid-rush, and the database going away under load.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct SharedStoreTests {
  /// Juices whose fruit the rush runs out of; the last takes both fruits at once.
  private static let orders = ["banana_juice", "kiwi_juice", "banana_juice 2 kiwi_juice 1"]

  /// The stock levels in the database itself.
  private func levels(_ url: String) throws -> [String: Int] {
    let rows = try PostgresConnection(PostgresURL(url)).query("SELECT item, current FROM stock").values
    return Dictionary(uniqueKeysWithValues: rows.map { ($0[0]!, Int($0[1]!)!) })
  }

  /// The items whose stock row disagrees with the sums of their ledger (none, when all is well).
  private func itemsDisagreeingWithLedger(_ url: String) throws -> [String] {
    try PostgresConnection(PostgresURL(url)).query(
      """
      SELECT s.item FROM stock s LEFT JOIN (SELECT item, sum(change) AS moved FROM ledger GROUP BY item) l
        ON l.item = s.item
      WHERE s.current <> s.initial + COALESCE(l.moved, 0) ORDER BY s.item
      """
    ).values.map { $0[0]! }
  }

  /// Orders until every one of `orders` is refused for shortage; returns the ids acknowledged
  /// and what they took. A node that goes away ends the loop (its unanswered order was never
  /// acknowledged).
  private static func orderUntilEmpty(_ client: LineClient, start: Int) throws -> (ids: [Int], taken: [String: Int]) {
    var ids: [Int] = []
    var taken: [String: Int] = [:]
    var exhausted = Set<Int>()
    var attempt = start
    while exhausted.count < orders.count {
      let choice = attempt % orders.count
      attempt += 1
      if exhausted.contains(choice) { continue }
      let reply = try client.request("ORDER \(orders[choice])")
      if reply.isOK {
        ids.append(Int(reply.statusFields["order"]!)!)
        for row in reply.rows where row["kind"] == "taken" { taken[row.id!, default: 0] += Int(row["quantity"]!)! }
      } else if reply.errorCode == .shortage {
        exhausted.insert(choice)
      } else {
        throw LineClient.Failure(description: "ORDER \(orders[choice]): \(reply.lines)", isReply: true)
      }
    }
    return (ids, taken)
  }

  /// Waits until `port`'s node answers `item`'s level as `level` (its cache has caught up).
  private func waitForLevel(_ port: UInt16, _ item: String, _ level: Int) throws -> Bool {
    let client = try PostgresShop.client(port)
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if try client.request("STOCK \(item)").rows.first?["stock"] == String(level) { return true }
      usleep(20_000)
    }
    return false
  }

  /// Reads `watcher`'s events until each of `final`'s items has reached its level there; checks
  /// every item's events form one chain (each level is the last plus its change: commit order)
  /// and returns the order ids they name.
  private func watchedOrders(_ watcher: LineClient, until final: [String: Int]) throws -> Set<Int> {
    var last: [String: Int] = [:]
    var ids = Set<Int>()
    while final.contains(where: { last[$0.key] != $0.value }) {
      let event = try watcher.readEvent()
      guard let item = event["item"], let level = Int(event["level"] ?? ""), let change = Int(event["change"] ?? "")
      else { continue }
      if let previous = last[item] {
        #expect(level == previous + change, "\(item): \(previous) then \(event.encoded)")
      }
      #expect(level >= 0)
      last[item] = level
      if event["cause"] == "order", let id = event["order"].flatMap({ Int($0) }) { ids.insert(id) }
    }
    return ids
  }

  @Test("three nodes, 50 clients ordering until the fruit runs out: exactly what the stock allowed, one commit order")
  func threeNodesRush() throws {
    let url = try PostgresShop.withAccounts(in: PostgresCluster.shared.get())
    let nodes = try (0..<3).map { _ in try PostgresShop.node(url) }
    defer { for (daemon, _) in nodes { daemon.process.terminate() } }
    let ports = nodes.map(\.1)
    let watcher = try PostgresShop.client(ports[0])
    #expect(try watcher.request("WATCH banana kiwi").isOK)
    // Restocked through node 2; the watcher on node 1 hears it too.
    #expect(try PostgresShop.client(ports[1], as: "alice").request("ADD banana 290 kiwi 290").isOK)
    let initial = try levels(url)

    let acknowledged = Mutex<(ids: [Int], taken: [String: Int])>(([], [:]))
    together(50) { index in
      let result = try Self.orderUntilEmpty(try PostgresShop.client(ports[index % 3]), start: index)
      acknowledged.withLock { all in
        all.ids += result.ids
        all.taken.merge(result.taken, uniquingKeysWith: +)
      }
    }
    let (ids, taken) = acknowledged.withLock { $0 }
    let final = try levels(url)
    for item in ["banana", "kiwi"] {
      #expect(final[item]! >= 0)
      #expect(initial[item]! - (taken[item] ?? 0) == final[item], "\(item): every acknowledged take, and no other")
    }
    #expect(final["banana"]! < 2 && final["kiwi"]! < 3, "the rush stopped while juice could still be made")
    #expect(Set(ids).count == ids.count, "no order id given twice")
    let stored = try PostgresConnection(PostgresURL(url)).query("SELECT id FROM orders").values.map { Int($0[0]!)! }
    #expect(Set(stored) == Set(ids), "exactly the acknowledged orders are in the database")
    #expect(try itemsDisagreeingWithLedger(url).isEmpty)
    for port in ports {
      #expect(try waitForLevel(port, "banana", final["banana"]!), "node on \(port) caught up")
      #expect(try waitForLevel(port, "kiwi", final["kiwi"]!), "node on \(port) caught up")
    }
    let watched = try watchedOrders(watcher, until: ["banana": final["banana"]!, "kiwi": final["kiwi"]!])
    #expect(watched == Set(ids), "the watcher on node 1 heard every order, whichever node took it")
    let info = try PostgresShop.client(ports[0]).request("INFO").rows.first
    #expect(
      Int(info?["replayed_changes"] ?? "") ?? 0 > 0, "node 1 replayed the others' changes: \(info?.encoded ?? "")")
    #expect(info?["store_link"] == "up")
  }

  /// A node waits for the writers' lock while other nodes commit; it took its changes before
  /// it waited, so those that arrived meanwhile waited a whole turn more, and with three nodes
  /// each transaction held half the orders it could have.
  @Test("changes that arrive while a node waits its turn for the writers' lock go into that turn's transaction")
  func changesJoinTheTurn() throws {
    let url = try PostgresShop.withAccounts(in: PostgresCluster.shared.get())
    let (daemon, port) = try PostgresShop.node(url)
    defer { daemon.process.terminate() }
    let info = try PostgresShop.client(port, as: "alice")
    #expect(try info.request("ADD banana 100").isOK)
    let before = try #require(try info.request("INFO store").rows.first)
    // The test holds the lock, as another node's commit would.
    let otherNode = try PostgresShop.holdWritersLock(url)
    let first = try PostgresShop.client(port)
    try first.send("ORDER banana_juice\n")
    try PostgresShop.waitForWriterBehindLock(otherNode)
    let later = try (0..<5).map { _ in try PostgresShop.client(port) }
    for client in later { try client.send("ORDER banana_juice\n") }
    try waitUntil { try info.request("INFO store").rows.first?["changes_waiting"] == "5" }
    try otherNode.execute("COMMIT")
    for client in [first] + later {
      let reply = try client.readReply()
      #expect(reply.isOK, "\(reply.lines)")
    }
    let after = try #require(try info.request("INFO store").rows.first)
    #expect(after["changes_waiting"] == "0")
    #expect(Int(after["commits"] ?? "")! - Int(before["commits"] ?? "")! == 1, "\(after.encoded)")
    #expect(after["largest_commit"] == "6", "\(after.encoded)")
  }

  @Test(
    "kill -9 of a node mid-rush: the others serve on, nothing acknowledged is lost, a keyed retry elsewhere takes nothing twice"
  )
  func nodeKilledMidRush() throws {
    let url = try PostgresShop.withAccounts(in: PostgresCluster.shared.get())
    var nodes = try (0..<3).map { _ in try PostgresShop.node(url) }
    defer { for (daemon, _) in nodes { daemon.process.terminate() } }
    let ports = nodes.map(\.1)
    let alice = try PostgresShop.client(ports[0], as: "alice")
    #expect(try alice.request("ADD banana 590 kiwi 590").isOK)
    // A keyed order through the node that will die, answered before it dies.
    let keyed = try PostgresShop.client(ports[2], as: "alice").request("ORDER banana_juice key=rush-1")
    #expect(keyed.isOK, "\(keyed.lines)")

    let acknowledged = Mutex<[Int]>([])
    let started = Atomic<Int>(0)
    let killing = Atomic<Bool>(false)
    let killed = Mutex<Int32?>(nil)
    let doomed = nodes[2].0
    let killer = Thread {
      while started.load(ordering: .relaxed) < 30 { usleep(1_000) }
      killing.store(true, ordering: .sequentiallyConsistent)
      let status = try? doomed.kill9()
      killed.withLock { $0 = status }
    }
    killer.start()
    together(30) { index in
      let client = try PostgresShop.client(ports[index % 3])
      started.add(1, ordering: .relaxed)
      do {
        let result = try Self.orderUntilEmpty(client, start: index)
        acknowledged.withLock { $0 += result.ids }
      } catch let error as LineClient.Failure
        where index % 3 == 2 && killing.load(ordering: .sequentiallyConsistent) && !error.isReply
      {
        // The killed node's clients lose their connection once it is killed; what they were
        // told before counts. Any other failure, or one before the kill, is the test's.
        acknowledged.withLock { $0 += client.transcript.compactMap(Self.orderID) }
      }
    }
    try waitUntil { killer.isFinished }
    #expect(killed.withLock { $0 } == SIGKILL, "the node was not killed mid-rush")
    let stored = Set(
      try PostgresConnection(PostgresURL(url)).query("SELECT id FROM orders").values.map { Int($0[0]!)! })
    let ids = acknowledged.withLock { $0 }
    #expect(Set(ids).isSubset(of: stored), "every acknowledged order is in the database")
    #expect(try itemsDisagreeingWithLedger(url).isEmpty)
    let final = try levels(url)
    #expect(final["banana"]! < 2 && final["kiwi"]! < 3, "the two surviving nodes served the rush to the end")

    // The keyed order retried through another node answers as the first time and takes nothing.
    let retry = try PostgresShop.client(ports[1], as: "alice")
    #expect(try retry.request("ORDER banana_juice key=rush-1").lines == keyed.lines)
    #expect(try levels(url) == final)
    nodes[2] = try PostgresShop.node(url)
    #expect(try waitForLevel(nodes[2].1, "banana", final["banana"]!), "a restarted node loads the store")
  }

  /// The order id in an `OK order=<n> ...` status line.
  private static func orderID(_ line: String) -> Int? {
    guard line.hasPrefix("OK "), let reply = try? Row(parsing: String(line.dropFirst(3))) else { return nil }
    return reply["order"].flatMap { Int($0) }
  }

  @Test("PostgreSQL restarted under load: UNAVAILABLE while down, recovery without a restart, watchers resynced")
  func databaseRestartsUnderLoad() throws {
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    let url = try PostgresShop.withAccounts(in: cluster)
    let nodes = try (0..<2).map { _ in try PostgresShop.node(url) }
    defer { for (daemon, _) in nodes { daemon.process.terminate() } }
    let ports = nodes.map(\.1)
    let watcher = try PostgresShop.client(ports[0])
    #expect(try watcher.request("WATCH").isOK)
    #expect(try PostgresShop.client(ports[1], as: "alice").request("ADD banana 990").isOK)
    var passed = false
    defer { if !passed { for (daemon, _) in nodes { print("NODELOG\n" + daemon.log) } } }

    let load = OrderLoad(clients: 6, ports: ports, ordering: "ORDER banana_juice", seconds: 120)
    try load.waitForMore(20, timeout: 30)
    try cluster.stop()
    // Changes were refused while the database was down.
    try waitUntil(timeout: 30) { load.unavailable >= 6 }
    // Orders committed before the database went are heard first, then that it went.
    var down = try watcher.readEvent()
    while down["state"] == nil { down = try watcher.readEvent() }
    #expect(down["state"] == "down", "\(down.encoded)")
    let late = try PostgresShop.client(ports[0])
    #expect(try late.request("WATCH").statusFields["store"] == "down", "a watcher that starts now is told too")
    try cluster.start()
    // The nodes take orders again by themselves.
    let recovered = Result { try load.waitForMore(20, timeout: 30) }
    let ids = load.stop()
    try recovered.get()

    let stored = try PostgresShop.orderIDs(url)
    #expect(Set(ids).isSubset(of: stored), "nothing acknowledged was lost")
    #expect(try itemsDisagreeingWithLedger(url).isEmpty)
    // The watcher's last banana level, through the resync, is the true one.
    let final = try levels(url)["banana"]!
    var last: Int?
    var sawUp = false
    while last != final || !sawUp {
      let event = try watcher.readEvent()
      if event["state"] == "up" { sawUp = true }
      if event["item"] == "banana" { last = Int(event["level"]!) }
    }
    #expect(last == final)
    #expect(try PostgresShop.client(ports[0]).request("WATCH kiwi").statusFields["store"] == nil)
    passed = true
  }
}
