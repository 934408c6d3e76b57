import Foundation
import StockroomEngine
import StockroomSystem

/// The engine harness's threads, really started, as the server's `NamedThreadStarter` starts
/// them: that one lives in the server target, which the engine's tests do not link.
struct HarnessThreadStarter: ThreadStarter {
  func thread(named name: String, quality: QualityOfService) -> any WorkerThread {
    HarnessThread(thread: NamedThread(name, quality: quality))
  }
}
