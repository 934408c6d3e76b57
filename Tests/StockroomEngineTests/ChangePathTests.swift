import Foundation
import StockroomDomain
import StockroomEngine
import StockroomProtocol
import Synchronization
import Testing

@testable import StockroomEngineHarness

/// What a connection does while its change is on the way to the disk, driven through a change
/// path whose commits happen when the test says (`HeldChanges`): no disk, no timing, no socket.
@Suite("A change's reply and its events wait for the commit", .timeLimit(.minutes(30)))
struct ChangePathTests {
  /// An engine whose changes wait for the test, with every account change made so far committed.
  private static func engine() throws -> (EngineHarness, HeldChanges) {
    var made: HeldChanges?
    let engine = try EngineHarness(changes: { shop in
      let path = HeldChanges(shop: shop)
      made = path
      return path
    })
    let held = try #require(made)
    held.commitAll()
    return (engine, held)
  }

  @Test("the reply to a change, and every reply after it, waits until the change is committed")
  func replyWaitsForCommit() throws {
    let (engine, held) = try Self.engine()
    let alice = try engine.client(as: "alice", role: .staff)
    held.commitAll()
    let channel = alice.channel

    try alice.send("ORDER banana_juice\nPING\n")
    #expect(held.waiting == 1, "the order was applied and handed to the path")
    #expect(channel.readNow().isEmpty, "nothing is answered before the commit, not even the PING after it")

    held.commitAll()
    let order = try alice.readReply()
    #expect(order.isOK && order.statusFields["order"] == "1", "\(order.lines)")
    #expect(try alice.readReply().isOK, "the PING's reply follows the order's")
  }

  @Test("Shop.applyAndWait returns once the change is saved, and throws when it is not")
  func applyAndWaitWaitsForTheCommit() throws {
    let (engine, held) = try Self.engine()
    let outcome = Mutex<String?>(nil)
    let thread = Thread {
      do {
        try engine.shop.applyAndWait(.restock(user: "alice", changes: [ItemCount("banana", 5)]))
        outcome.withLock { $0 = "saved" }
      } catch {
        outcome.withLock { $0 = "\(error)" }
      }
    }
    thread.start()
    try waitUntil { held.waiting == 1 }
    held.failAll(CommitFailure(.io, "disk full"))
    try waitUntil { outcome.withLock { $0 } != nil }
    // Before, it returned as soon as the change was applied, and a change (an operator's new
    // account, say) that the disk refused was reported made.
    #expect(outcome.withLock { $0 }?.contains("was not saved") == true, "\(outcome.withLock { $0 } ?? "")")
  }

  @Test("a watcher hears of a change only once it is committed")
  func eventsWaitForCommit() throws {
    let (engine, held) = try Self.engine()
    let alice = try engine.client(as: "alice", role: .staff)
    let bob = try engine.client(as: "bob", role: .customer)
    held.commitAll()
    #expect(try bob.request("WATCH banana").isOK)
    let watcher = bob.channel

    try alice.send("ORDER banana_juice\n")
    #expect(watcher.readNow().isEmpty, "no event before the commit")
    held.commitAll()
    _ = try alice.readReply()
    let event = String(decoding: try watcher.read(), as: UTF8.self)
    #expect(event.hasPrefix("! stock item=banana "), "\(event)")
  }

  @Test("a commit that fails answers its change with the failure, and the connection goes on")
  func failedCommitAnswersTheChange() throws {
    let (engine, held) = try Self.engine()
    let alice = try engine.client(as: "alice", role: .staff)
    held.commitAll()

    try alice.send("ORDER banana_juice\n")
    #expect(alice.channel.readNow().isEmpty)
    held.failAll(CommitFailure(.io, "the test's disk is full"))
    let refused = try alice.readReply()
    #expect(refused.errorCode == .readOnly, "\(refused.lines)")
    #expect(refused.message.contains("the test's disk is full"))
    #expect(try alice.request("PING").isOK)
  }

  @Test("a read on another connection that could show an uncommitted change is answered only once it is committed")
  func readWaitsForTheCommitItCouldSee() throws {
    let (engine, held) = try Self.engine()
    let alice = try engine.client(as: "alice", role: .staff)
    let bob = try engine.client(as: "bob", role: .customer)
    held.commitAll()
    let before = try bob.request("STOCK banana").rows.first?["stock"]

    try alice.send("ORDER banana_juice\n")
    try bob.send("STOCK banana\nPING\n")
    let reader = bob.channel
    #expect(reader.readNow().isEmpty, "the level shown would be one a crash could take back")

    held.commitAll()
    _ = try alice.readReply()
    let after = try bob.readReply().rows.first?["stock"]
    #expect(
      after != nil && after != before,
      "the read shows the order, now that it is saved: \(before ?? "") then \(after ?? "")")
    #expect(try bob.readReply().isOK, "the PING's reply follows the read's")
  }

  @Test("a read that saw a change whose commit then failed is answered with an error, not the lost level")
  func readOfAFailedChangeIsRefused() throws {
    let (engine, held) = try Self.engine()
    let alice = try engine.client(as: "alice", role: .staff)
    let bob = try engine.client(as: "bob", role: .customer)
    held.commitAll()

    try alice.send("ORDER banana_juice\n")
    try bob.send("STOCK banana\n")
    held.failAll(CommitFailure(.io, "the test's disk is full"))
    _ = try alice.readReply()
    let refused = try bob.readReply()
    #expect(refused.errorCode == .readOnly, "\(refused.lines)")
    #expect(refused.message.contains("this read saw a change that could not be saved"), "\(refused.message)")
    #expect(try bob.request("PING").isOK)
  }

  @Test("with every change committed, a read is answered at once")
  func readWithNothingPendingIsAnsweredAtOnce() throws {
    let (engine, held) = try Self.engine()
    let bob = try engine.client(as: "bob", role: .customer)
    held.commitAll()
    try bob.send("STOCK banana\n")
    #expect(held.waiting == 0)
    #expect(bob.channel.readNow().isEmpty == false)
  }
}
