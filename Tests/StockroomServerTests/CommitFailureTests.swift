import Foundation
import StockroomProtocol
import StockroomStorage
import Testing

@Suite("A commit that the database refuses")
struct CommitFailureTests {
  @Test("a constraint violation fails that change with INTERNAL, and the shop stays writable and consistent")
  func constraintIsNotReadOnly() throws {
    let data = try DataDirectory().addAccount()
    // Each block is one run of the engine on the file; leaving it stops the committer, as a
    // server's stop does, so the next is a restart.
    do {
      let alice = try EngineHarness(data: data).client(as: "alice", role: .staff)
      #expect(try alice.request("ORDER banana_juice").statusFields["order"] == "1")
    }
    // A row the database refuses at commit time, as a conflicting hand-made row would: the
    // server's start-up checks cannot see it, so it meets it only while running. An order's
    // commit writes one record to the commit log, so that is where the refusal goes: mallory's
    // orders only, not her restocks.
    try SQLiteDatabase(path: data.database).execute(
      """
      CREATE TRIGGER refuse_mallory BEFORE INSERT ON commit_log
      WHEN instr(NEW.record, CAST('mallory' AS BLOB)) > 0 AND instr(NEW.record, CAST('_juice' AS BLOB)) > 0
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;
      """)

    do {
      let log = try LogCapture()
      let engine = try EngineHarness(data: data, logger: log.logger)
      let mallory = try engine.client(as: "mallory", role: .staff)
      let alice = try engine.client(as: "alice", role: .staff)
      let kiwiBefore = try alice.request("STOCK kiwi").rows[0]["stock"]
      let refused = try mallory.request("ORDER kiwi_juice")
      #expect(refused.errorCode == .internal, "\(refused.lines)")
      #expect(refused.lines.last?.contains("refused by the test") == true)
      #expect(log.waitFor(" ERROR commit of 1 changes refused by the database"), "\(log.text)")

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
      // Everything the failure logged came before the replies read after it.
      let logged = log.text
      #expect(!logged.contains("refusing writes until the disk accepts them"), "\(logged)")
    }
    let again = try EngineHarness(data: data).client(as: "alice", role: .staff)
    #expect(try again.request("INFO").rows[0]["orders"] == "2")
    #expect(try again.request("STOCKTAKE kiwi").rows[0]["balances"] == "yes")
  }
}
