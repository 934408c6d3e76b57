import Foundation
import StockroomProtocol
import StockroomStorage
import Testing

@testable import StockroomEngineHarness

@Suite("A commit that the database refuses", .timeLimit(.minutes(30)))
struct CommitFailureTests {
  /// A shop with alice's order 1 in it, whose file then refuses mallory's rows by a trigger
  /// `when` the new row of `table` is hers: a conflicting hand-made row, which the server's
  /// start-up checks cannot see, so it meets it only while running. Each engine run on the
  /// file stops its committer when it ends, as a server's stop does, so the next is a restart.
  private func shopRefusingMallory(on table: String, when condition: String) throws -> DataDirectory {
    let data = try DataDirectory().addAccount()
    do {
      let alice = try EngineHarness(data: data).client(as: "alice", role: .staff)
      #expect(try alice.request("ORDER banana_juice").statusFields["order"] == "1")
    }
    try SQLiteDatabase(path: data.database).execute(
      """
      CREATE TRIGGER refuse_mallory BEFORE INSERT ON \(table) WHEN \(condition)
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;
      """)
    return data
  }

  @Test("a constraint violation fails that change with INTERNAL, and the shop stays writable and consistent")
  func constraintIsNotReadOnly() throws {
    // A row the database refuses at commit time. An order's commit writes one record to the
    // commit log, so that is where the refusal goes: mallory's orders only, not her restocks.
    let data = try shopRefusingMallory(
      on: "commit_log",
      when: "instr(NEW.record, CAST('mallory' AS BLOB)) > 0 AND instr(NEW.record, CAST('_juice' AS BLOB)) > 0")

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
      // Everything the failure logged came before the replies read after it; the marker shows
      // it has all come through the log's pipe, so the line's absence is not just its delay.
      try log.caughtUp()
      let logged = log.text
      #expect(!logged.contains("refusing writes until the disk accepts them"), "\(logged)")
    }
    let again = try EngineHarness(data: data).client(as: "alice", role: .staff)
    #expect(try again.request("INFO").rows[0]["orders"] == "2")
    #expect(try again.request("STOCKTAKE kiwi").rows[0]["balances"] == "yes")
  }

  @Test("a row the tables refuse is met at the fold: the order stays acknowledged, history reads answer INTERNAL")
  func refusedAtTheFold() throws {
    // The order table refuses mallory's rows; her order's commit writes only the commit log,
    // which takes it.
    let data = try shopRefusingMallory(on: "orders", when: "NEW.user = 'mallory'")
    do {
      let log = try LogCapture()
      let engine = try EngineHarness(data: data, logger: log.logger)
      let mallory = try engine.client(as: "mallory", role: .staff)
      let ordered = try mallory.request("ORDER kiwi_juice")
      #expect(ordered.statusFields["order"] == "2", "\(ordered.lines)")
      let stocktake = try mallory.request("STOCKTAKE kiwi")
      #expect(stocktake.errorCode == .internal, "\(stocktake.lines)")
      #expect(log.waitFor(" ERROR folding the commit log into the tables failed"), "\(log.text)")
      #expect(try mallory.request("INFO").rows[0]["orders"] == "2", "the order stays made")
    }
    // While the conflict remains, a start refuses the file, naming it and SQLite's message;
    // once it is repaired, the start folds the order in.
    let refused = #expect(throws: StorageError.self) { try EngineHarness(data: data) }
    let message = refused?.description ?? ""
    #expect(message.contains(data.database) && message.contains("refused by the test"), "\(message)")
    try SQLiteDatabase(path: data.database).execute("DROP TRIGGER refuse_mallory")
    let again = try EngineHarness(data: data).client(as: "alice", role: .staff)
    #expect(try again.request("INFO").rows[0]["orders"] == "2")
    #expect(try again.request("STOCKTAKE kiwi").rows.contains { $0["order"] == "2" })
  }
}
