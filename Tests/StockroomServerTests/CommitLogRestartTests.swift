import Foundation
import StockroomStorage
import Synchronization
import Testing

/// A server killed with records in its commit log, that no fold had written into the tables yet,
/// loses none of them: the next start folds them before it loads, and the orders, the ledger, the
/// counters and the keyed receipts they hold all answer as if the tables had held them.
@Suite("kill -9 with commits in the commit log", .serialized, .timeLimit(.minutes(30)))
struct CommitLogRestartTests {
  /// How many records the log holds, read from the file as the killed server left it.
  private func unfolded(_ data: DataDirectory) throws -> (log: Int, orders: Int) {
    let file = try SQLiteDatabase(path: data.database, readOnly: true)
    return (
      try file.scalar("SELECT count(*) FROM commit_log") ?? -1, try file.scalar("SELECT count(*) FROM orders") ?? -1
    )
  }

  @Test("orders acknowledged into the commit log are all there, once, after kill -9 and a restart")
  func killedWithRecordsInTheLog() throws {
    let data = try DataDirectory().addAccount()
    var (daemon, port) = try data.start(["--initial-stock", "100000", "--fsync", "always"])
    // A kill can fall just after a fold, with nothing in the log; a few rounds make sure that at
    // least one kill leaves records there, and every round checks what it left.
    var replayed = 0
    var before = 0
    for round in 1...5 where replayed == 0 {
      let acknowledged = Atomic<Int>(0)
      let stop = Atomic<Bool>(false)
      let orderer = try LineClient.greeted(port, user: "carol")
      let done = DispatchSemaphore(value: 0)
      Thread {
        defer { done.signal() }
        var next = 0
        while !stop.load(ordering: .relaxed) {
          next += 1
          guard let reply = try? orderer.request("ORDER banana_juice key=r\(round)-\(next)"), reply.isOK else { return }
          acknowledged.store(next, ordering: .relaxed)
        }
      }.start()
      try waitUntil(timeout: 120) { acknowledged.load(ordering: .relaxed) >= 50 }
      #expect(try daemon.kill9() == SIGKILL)
      stop.store(true, ordering: .relaxed)
      #expect(done.wait(timeout: .now() + 30) == .success)
      let acked = acknowledged.load(ordering: .relaxed)
      let left = try unfolded(data)
      if left.log > 0 { replayed += 1 }

      (daemon, port) = try data.start(["--initial-stock", "100000", "--fsync", "always"])
      let staff = try LineClient.greeted(port, user: "sam", role: .staff)
      let made = Int(try staff.request("INFO").rows[0]["orders"] ?? "") ?? -1
      // Every acknowledged order; the one in flight at the kill may or may not have been made.
      #expect(made >= before + acked && made <= before + acked + 1, "round \(round): \(made) made, \(acked) acked")
      before = made
      let stock = try staff.request("STOCK banana").rows[0]["stock"]
      #expect(stock == String(100_000 - 2 * made), "round \(round): \(made) orders made, banana at \(stock ?? "?")")
      #expect(try staff.request("STOCKTAKE banana").rows[0]["balances"] == "yes")
      #expect(try unfolded(data).log == 0, "the start folded the log")
      // The last acknowledged keyed order answers its retry with its first answer, from the
      // receipt the fold wrote, and takes nothing again.
      let retried = try LineClient.greeted(port, user: "carol").request("ORDER banana_juice key=r\(round)-\(acked)")
      #expect(retried.isOK, "\(retried.lines)")
      #expect(try staff.request("STOCK banana").rows[0]["stock"] == stock, "a retry takes nothing")
    }
    #expect(replayed > 0, "no kill left records in the commit log: the replay was not exercised")
  }
}
