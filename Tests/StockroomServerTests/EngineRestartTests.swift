import Foundation
import StockroomStorage
import Testing

@testable import StockroomEngineHarness

#if canImport(Glibc)
  import Glibc
#endif

/// A test restarts an engine by letting its last client go and opening the same files again;
/// that works only if letting go really releases the engine and its files, whatever arrived
/// on the client's channel after its last read.
@Suite("An engine let go lets its files go", .timeLimit(.minutes(30)))
struct EngineRestartTests {
  @Test("a completion queued after the client's last read does not keep the engine, or its lock, alive")
  func lateCompletionDoesNotLeak() throws {
    let data = try DataDirectory().addAccount()
    weak var released: EngineHarness?
    do {
      let engine = try EngineHarness(data: data)
      released = engine
      let alice = try engine.client(as: "alice", role: .staff)
      #expect(try alice.request("ORDER banana_juice").isOK)
      // As a commit's or a pool's completion handed back after the test stopped reading: the
      // task holds the channel, which holds the engine.
      let channel = try #require(alice.embedded)
      channel.execute { [channel] in _ = channel.isClosed }
    }
    try Self.expectLetGo(data) { released }
  }

  @Test("a throttled LOGIN still waiting on the clock when its client goes does not keep the engine, or its lock")
  func pendingThrottleDoesNotLeak() throws {
    let data = try DataDirectory().addAccount()
    weak var released: EngineHarness?
    do {
      let engine = try EngineHarness(data: data)
      released = engine
      let client = try engine.client()
      #expect(try client.request("LOGIN nobody wrong-password").errorCode == .auth)
      // The second try waits 250 ms on the engine's clock, which the test never moves: its
      // check holds the channel, which holds the engine.
      try client.send("LOGIN nobody wrong-password\n")
      #expect(try #require(client.embedded).readNow().isEmpty)
      #expect(engine.clock.scheduled == 1)
    }
    try Self.expectLetGo(data) { released }
  }

  /// The engine `released` reads (weakly) is gone, and `data`'s lock free. A pool's thread may
  /// drop its last reference a moment after the test's: wait (bounded), for a leak never ends.
  private static func expectLetGo(_ data: DataDirectory, _ released: () -> EngineHarness?) throws {
    let lock = open(data.path + "/" + ShopDatabase.lockFileName, O_RDONLY | O_CLOEXEC)
    defer { close(lock) }
    try #require(lock >= 0)
    try waitUntil(timeout: 60) { released() == nil && flock(lock, LOCK_EX | LOCK_NB) == 0 }
  }
}
