import Foundation

/// Makes the threads the engine runs on: the committer, the shared writer and its feed, the
/// pools' workers, the background check. The engine starts no thread of its own, as
/// SwiftNIO's NIOCore starts none and is handed its threads by NIOPosix: whoever builds the
/// engine (the server, a test) passes one of these in when it makes each part, so which threads
/// exist, and how they are made, is decided in one place outside it.
package protocol ThreadStarter: Sendable {
  /// A thread named `name` (as `top -H`, `perf` and a core dump show it; Linux keeps 15 bytes)
  /// at `quality`, not yet started.
  func thread(named name: String, quality: QualityOfService) -> any WorkerThread
}
