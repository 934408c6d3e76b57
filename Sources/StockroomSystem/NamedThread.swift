import Foundation

/// A thread of the server's own (a committer, a writer, a loop), started under a name that
/// `top -H`, `perf` and a core dump show.
package enum NamedThread {
  /// Starts `body` on a new thread named `name`, and returns once it runs under that name, so a
  /// server that says it is up has every thread up.
  package static func start(
    _ name: String, quality: QualityOfService = .default, _ body: @escaping @Sendable () -> Void
  ) {
    let started = Semaphore()
    let thread = Thread {
      CurrentThread.setName(name)
      started.signal()
      body()
    }
    thread.qualityOfService = quality
    thread.start()
    started.wait()
  }
}
