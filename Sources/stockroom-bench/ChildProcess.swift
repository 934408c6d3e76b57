import Foundation
import StockroomFixtures
import StockroomSystem
import Synchronization

/// A program the comparison started (a server, one generator run), known by its own pid, so
/// that stopping it can never reach anybody else's process.
///
/// It is started the way the tests start programs (StockroomFixtures' `Subprocess`: posix_spawn, a clean signal
/// mask), because a child that inherits blocked signals would not stop when told.
final class ChildProcess {
  let pid: pid_t
  let path: String
  private var status: Int32? = nil

  /// Every pid started and not yet reaped, so that an interrupted run can stop them all.
  static let running = Mutex(Set<pid_t>())

  init(_ path: String, _ arguments: [String], stdout: String = "/dev/null", stderr: String = "/dev/null")
    throws(BenchError)
  {
    do {
      pid = try Subprocess.start(
        path, arguments, environment: ProcessInfo.processInfo.environment, stdout: stdout, stderr: stderr)
    } catch {
      throw BenchError("\(error)")
    }
    self.path = path
    _ = Self.running.withLock { $0.insert(pid) }
  }

  /// True until the program has ended (it is reaped here, so `kill -0` on a zombie cannot lie).
  var isRunning: Bool {
    guard status == nil else { return false }
    var raw: Int32 = 0
    let reaped = waitpid(pid, &raw, WNOHANG)
    guard reaped == pid else { return reaped == 0 }
    record(raw)
    return false
  }

  /// Waits for the program's end and returns its exit status (128 + signal when killed); after
  /// `seconds`, kills it and returns nil.
  func wait(seconds: Double) -> Int32? {
    let deadline = MonotonicClock.now() + UInt64(seconds * 1e9)
    while isRunning {
      guard MonotonicClock.now() < deadline else {
        kill(pid, SIGKILL)
        reap()
        return nil
      }
      usleep(10_000)
    }
    return status
  }

  /// SIGTERM, then waits for the end; nothing if it has ended already.
  func stop() {
    guard isRunning else { return }
    kill(pid, SIGTERM)
    reap()
  }

  private func reap() {
    var raw: Int32 = 0
    while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
    record(raw)
  }

  private func record(_ raw: Int32) {
    let signal = raw & 0x7F
    status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    _ = Self.running.withLock { $0.remove(pid) }
  }

  /// The program's full path: as given when it holds a slash, else the first in PATH.
  static func find(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    for folder in (path ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }
}
