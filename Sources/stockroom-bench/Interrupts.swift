import Dispatch
import Foundation

/// Ctrl-C, SIGTERM or SIGHUP in the middle of a comparison: stop the servers and generator this
/// run started, by their own pids, and remove the work folder, as the script's EXIT trap did.
/// (The PostgreSQL cluster has a watchdog of its own, which stops it when this process ends.)
final class Interrupts {
  private let sources: [any DispatchSourceSignal]

  init(workdir: String) {
    sources = [SIGINT, SIGTERM, SIGHUP].map { number in
      // Ignored as a signal, so that only the source sees it; children start with defaults.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        Interrupts.stopChildren(workdir: workdir)
        exit(128 + number)
      }
      source.resume()
      return source
    }
  }

  /// Every child still running gets SIGTERM and is waited for; then the work folder goes.
  static func stopChildren(workdir: String) {
    let pids = ChildProcess.running.withLock { $0 }
    for pid in pids {
      kill(pid, SIGTERM)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    try? FileManager.default.removeItem(atPath: workdir)
  }
}
