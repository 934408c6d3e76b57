import Foundation
import StockroomProtocol
import StockroomStorage
import Testing

@Suite("A commit that the database refuses")
struct CommitFailureTests {
  @Test("a constraint violation fails that change with INTERNAL, and the shop stays writable and consistent")
  func constraintIsNotReadOnly() throws {
    let data = try DataDirectory().addAccount()
    var (daemon, port) = try data.start()
    defer { daemon.process.terminate() }
    #expect(
      try LineClient.greeted(port, user: "alice", role: .staff).request("ORDER banana_juice").statusFields["order"]
        == "1")
    daemon.process.terminate()
    _ = try daemon.waitForExit()
    // A row the database refuses at commit time, as a conflicting hand-made row would: the
    // server's start-up checks cannot see it, so it meets it only while running.
    try SQLiteDatabase(path: data.database).execute(
      """
      CREATE TRIGGER refuse_mallory BEFORE INSERT ON orders WHEN NEW.user = 'mallory'
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;
      """)

    (daemon, port) = try data.start()
    let mallory = try LineClient.greeted(port, user: "mallory", role: .staff)
    let alice = try LineClient.greeted(port, user: "alice", role: .staff)
    let kiwiBefore = try alice.request("STOCK kiwi").rows[0]["stock"]
    let refused = try mallory.request("ORDER kiwi_juice")
    #expect(refused.errorCode == .internal, "\(refused.lines)")
    #expect(refused.lines.last?.contains("refused by the test") == true)
    try waitUntil { daemon.log.contains(" ERROR commit of 1 changes refused by the database") }

    let info = try alice.request("INFO").rows[0]
    // The shop was read back from the disk; who is logged in is not lost with it.
    #expect(info["user"] == "alice" && info["role"] == "staff", "\(info)")
    #expect(info["read_only"] == "no")
    #expect(info["orders"] == "1")
    #expect(try alice.request("STOCK kiwi").rows[0]["stock"] == kiwiBefore, "nothing of the refused order stayed")
    let next = try alice.request("ORDER kiwi_juice")
    #expect(next.statusFields["order"] == "2", "\(next.lines)")
    #expect(try mallory.request("ADD kiwi 3").isOK, "other writes from the same user go on")
    #expect(try alice.request("STOCKTAKE kiwi").rows[0]["balances"] == "yes")
    #expect(try alice.request("INFO").rows[0]["read_only"] == "no")
    let log = try daemon.logThroughStop()
    #expect(!log.contains("refusing writes until the disk accepts them"), "\(log)")
    #expect(try daemon.waitForExit() == 0)
    (daemon, port) = try data.start()
    let again = try LineClient.greeted(port, user: "alice", role: .staff)
    #expect(try again.request("INFO").rows[0]["orders"] == "2")
    #expect(try again.request("STOCKTAKE kiwi").rows[0]["balances"] == "yes")
  }
}
