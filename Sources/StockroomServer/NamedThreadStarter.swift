import Foundation
import StockroomEngine
import StockroomSystem

/// The threads a running server's engine is given (`ThreadStarter`), really started: each a
/// `NamedThread`, so it shows under its name in `top -H`, `perf` and a core dump, and a join on
/// its own thread returns at once. The engine starts none itself: the server, and a
/// test's engine harness, make one of these and hand it to every part that runs a thread.
package struct NamedThreadStarter: ThreadStarter {
  package init() {}

  package func thread(named name: String, quality: QualityOfService) -> any WorkerThread {
    NamedThread(name, quality: quality)
  }
}
