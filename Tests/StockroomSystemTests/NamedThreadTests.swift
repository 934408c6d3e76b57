import Foundation
import StockroomSystem
import Synchronization
import Testing

@Suite("A named thread is joined from anywhere, itself included", .timeLimit(.minutes(30)))
struct NamedThreadTests {
  @Test("a join waits for the body, and every joiner hears it")
  func joinWaitsForTheBody() {
    let thread = NamedThread("test-join")
    let gate = Semaphore()
    let finished = Mutex(false)
    thread.start {
      gate.wait()
      finished.withLock { $0 = true }
    }
    #expect(!thread.isCurrent)
    #expect(!thread.join(timeout: .milliseconds(1)), "joined a thread whose body had not returned")
    gate.signal()
    #expect(thread.join())
    #expect(finished.withLock { $0 })
    #expect(thread.join(timeout: .milliseconds(1)), "a second joiner was not told")
  }

  @Test("a join on the thread itself returns at once instead of waiting for itself")
  func joinOnItselfReturns() {
    let thread = NamedThread("test-self")
    let answer = Mutex<(current: Bool, joined: Bool)?>(nil)
    thread.start {
      // No time limit: before, a stop on its own thread waited here for ever.
      let joined = thread.join()
      answer.withLock { $0 = (thread.isCurrent, joined) }
    }
    #expect(thread.join())
    #expect(answer.withLock { $0?.current } == true)
    #expect(answer.withLock { $0?.joined } == false)
  }
}
