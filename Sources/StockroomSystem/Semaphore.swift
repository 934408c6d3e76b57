#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A counting semaphore on a pthread mutex and condition, for threads that wait for work or for
/// each other. The engine waits with it instead of `DispatchSemaphore`, so it needs no Dispatch;
/// a timed wait measures on the monotonic clock, so a changed wall clock cannot stretch it.
package final class Semaphore: @unchecked Sendable {
  // The mutex guards `count`; the condition is signalled once per `signal()`.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var count: Int

  package init(value: Int = 0) {
    count = value
    pthread_mutex_init(mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  package func signal() {
    pthread_mutex_lock(mutex)
    count += 1
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }

  package func wait() {
    pthread_mutex_lock(mutex)
    while count == 0 { pthread_cond_wait(condition, mutex) }
    count -= 1
    pthread_mutex_unlock(mutex)
  }

  /// Waits at most `timeout`; true when signalled, false when the time ran out first.
  @discardableResult
  package func wait(timeout: Duration) -> Bool {
    var deadline = timespec()
    clock_gettime(CLOCK_MONOTONIC, &deadline)
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
    deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
    deadline.tv_nsec = nanoseconds % 1_000_000_000
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    while count == 0 {
      if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
    }
    guard count > 0 else { return false }
    count -= 1
    return true
  }
}
