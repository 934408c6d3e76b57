import Foundation
import StockroomEngine
import StockroomServer
import Synchronization
import Testing

/// What the engine is promised of the threads the server hands it (`ThreadStarter`,
/// `WorkerThread`), checked through the protocols the engine sees, not through `NamedThread`.
@Suite("The server's thread starter keeps the engine's promises", .timeLimit(.minutes(30)))
struct NamedThreadStarterTests {
  @Test("a thread starts under its name, and returns from start once it runs")
  func startsUnderItsName() throws {
    let thread = NamedThreadStarter().thread(named: "test-starter", quality: .default)
    let name = Mutex<String?>(nil)
    thread.start {
      let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
      name.withLock { $0 = comm?.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
    #expect(thread.join(timeout: .seconds(10)))
    #expect(name.withLock { $0 } == "test-starter")
  }

  @Test("a join on the thread itself returns false at once instead of waiting for itself")
  func joinOnItselfReturns() {
    let thread = NamedThreadStarter().thread(named: "test-self-join", quality: .utility)
    let joined = Mutex<Bool?>(nil)
    thread.start {
      // No time limit: a stop on its own thread must not wait for itself.
      let answer = thread.join(timeout: nil)
      joined.withLock { $0 = answer }
    }
    #expect(thread.join(timeout: .seconds(10)))
    #expect(joined.withLock { $0 } == false)
  }
}
