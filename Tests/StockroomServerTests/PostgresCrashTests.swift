import Foundation
import StockroomStorage
import StockroomTestSupport
import Testing

/// PostgreSQL itself crashing under load (`pg_ctl stop -m immediate`: every server process
/// quits at once, and what sat in its log buffers unwritten is gone), over and over, with two
/// nodes taking orders. A node's commit does not wait for the flush (so the writers' lock is not
/// held through it); what makes an order safe to acknowledge is the flush the node forces after
/// it, and this is the test that fails when a node answers before that.
@Suite(.serialized, .timeLimit(.minutes(20)))
struct PostgresCrashTests {
  @Test("PostgreSQL crashed and restarted five times under load through two nodes: nothing acknowledged is lost")
  func databaseCrashesUnderLoad() throws {
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    let url = try PostgresShop.withAccounts(in: cluster)
    let nodes = try (0..<2).map { _ in try PostgresShop.node(url) }
    defer { for (daemon, _) in nodes { daemon.process.terminate() } }
    let ports = nodes.map(\.1)
    #expect(try PostgresShop.client(ports[0], as: "alice").request("ADD banana 1000000").isOK)

    var passed = false
    defer { if !passed { for (daemon, _) in nodes { print("NODELOG\n" + daemon.log) } } }
    let load = OrderLoad(clients: 8, ports: ports, ordering: "ORDER banana", seconds: 600)
    for _ in 1...5 {
      try load.waitForMore(300, timeout: 120)
      try cluster.stop()
      try cluster.start()
    }
    let recovered = Result { try load.waitForMore(300, timeout: 120) }
    let ids = load.stop()
    try recovered.get()

    let stored = try PostgresShop.orderIDs(url)
    let lost = Set(ids).subtracting(stored)
    #expect(lost.isEmpty, "\(lost.count) of \(ids.count) acknowledged orders lost: \(lost.sorted().prefix(10))")
    #expect(Set(ids).count == ids.count, "no order id acknowledged twice")
    passed = true
  }
}
