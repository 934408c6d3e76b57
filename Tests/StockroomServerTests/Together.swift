import Foundation
import Synchronization
import Testing

/// Runs `body` on `count` threads at once (real threads: Dispatch would run two at a time on two
/// cores) and waits up to `seconds` for all of them; every error is recorded as an issue.
func together(_ count: Int, seconds: Int = 120, _ body: @escaping @Sendable (Int) throws -> Void) {
  let failures = Mutex<[String]>([])
  let group = DispatchGroup()
  for index in 0..<count {
    group.enter()
    let thread = Thread {
      defer { group.leave() }
      do { try body(index) } catch { failures.withLock { $0.append("\(index): \(error)") } }
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
  #expect(group.wait(timeout: .now() + .seconds(seconds)) == .success, "threads did not finish")
  let all = failures.withLock { $0 }
  #expect(all.isEmpty, "\(all)")
}
