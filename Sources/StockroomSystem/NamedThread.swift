import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A thread of the server's own (a committer, a writer, a pool's worker), started under a name
/// that `top -H`, `perf` and a core dump show, and joined when its owner stops.
///
/// Joining is safe from any thread, the joined one included: an owner's last reference can go
/// on its own thread (a commit's waiter that held the last connection, a pool job that held
/// the engine), and a stop that then waited for that thread to end would wait for itself.
/// There `join` returns at once, and the thread ends when its body returns.
package final class NamedThread: Sendable {
  package let name: String
  private let quality: QualityOfService
  /// The thread running the body, once it runs.
  private let runner = Mutex<pthread_t?>(nil)
  /// Signalled once, when the body has returned.
  private let ended = Semaphore()

  /// A thread named `name`, not yet started.
  package init(_ name: String, quality: QualityOfService = .default) {
    self.name = name
    self.quality = quality
  }

  /// Starts `body` on a new thread named `name`, and returns once it runs under that name, so a
  /// server that says it is up has every thread up.
  package static func start(
    _ name: String, quality: QualityOfService = .default, _ body: @escaping @Sendable () -> Void
  ) {
    NamedThread(name, quality: quality).start(body)
  }

  /// Starts `body` on the thread, and returns once it runs under its name. Called once.
  package func start(_ body: @escaping @Sendable () -> Void) {
    let started = Semaphore()
    let thread = Thread { [self] in
      CurrentThread.setName(name)
      runner.withLock { $0 = pthread_self() }
      started.signal()
      body()
      ended.signal()
    }
    thread.qualityOfService = quality
    thread.start()
    started.wait()
  }

  /// Whether the caller is this thread.
  package var isCurrent: Bool {
    runner.withLock { runner in runner.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
  }

  /// Waits until the body has returned, at most `timeout` (nil: however long); true once it
  /// has. Any number of callers may join: each passes the one signal on. Called on the thread
  /// itself, it returns false at once (see above).
  @discardableResult
  package func join(timeout: Duration? = nil) -> Bool {
    guard !isCurrent else { return false }
    if let timeout {
      guard ended.wait(timeout: timeout) else { return false }
    } else {
      ended.wait()
    }
    ended.signal()
    return true
  }
}
