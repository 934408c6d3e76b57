import Foundation
import StockroomStorage
import StockroomTestSupport
import Synchronization
import Testing

/// PostgreSQL itself crashing under load (`pg_ctl stop -m immediate`: every server process
/// quits at once, and what sat in its log buffers unwritten is gone), over and over, with two
/// nodes taking orders. A node's commit does not wait for the flush (so the writers' lock is not
/// held through it); what makes an order safe to acknowledge is the flush the node forces after
/// it, and this is the test that fails when a node answers before that.
@Suite(.serialized)
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

    let acknowledged = Mutex<[Int]>([])
    let stop = Atomic<Bool>(false)
    let load = Thread {
      together(8, seconds: 600) { index in
        let client = try PostgresShop.client(ports[index % 2])
        while !stop.load(ordering: .relaxed) {
          let reply = try client.request("ORDER banana")
          if reply.isOK {
            acknowledged.withLock { $0.append(Int(reply.statusFields["order"]!)!) }
          } else if reply.errorCode == .unavailable {
            usleep(20_000)
          } else {
            throw LineClient.Failure(description: "\(reply.lines)")
          }
        }
      }
    }
    load.start()
    for _ in 1...5 {
      let before = acknowledged.withLock { $0.count }
      try waitUntil(timeout: 120) { acknowledged.withLock { $0.count } >= before + 300 }
      try cluster.stop()
      try cluster.start()
    }
    let before = acknowledged.withLock { $0.count }
    let recovered = Result { try waitUntil(timeout: 120) { acknowledged.withLock { $0.count } >= before + 300 } }
    stop.store(true, ordering: .relaxed)
    while !load.isFinished { usleep(10_000) }
    try recovered.get()

    let ids = acknowledged.withLock { $0 }
    let stored = Set(
      try PostgresConnection(PostgresURL(url)).query("SELECT id FROM orders").values.map { Int($0[0]!)! })
    let lost = Set(ids).subtracting(stored)
    #expect(lost.isEmpty, "\(lost.count) of \(ids.count) acknowledged orders lost: \(lost.sorted().prefix(10))")
    #expect(Set(ids).count == ids.count, "no order id acknowledged twice")
  }
}
