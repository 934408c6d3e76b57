import CStockroomSystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A port that takes each connection and closes it before any greeting, and notes when: a
/// client's reconnect attempts there fail, and a test can count them and see their spacing.
final class ClosingListener {
  private var fd: Int32

  init(port: UInt16) throws {
    fd = try ListeningSocket.open(port: port)
  }

  /// Accepts and closes connections until `count` have come or `seconds` have passed, holding
  /// the thread; returns when each came (fewer than `count` at the deadline).
  func closeAttempts(_ count: Int, seconds: Double = 20) -> [Date] {
    let deadline = Date().addingTimeInterval(seconds)
    var times: [Date] = []
    while times.count < count {
      let left = max(0, Int32(deadline.timeIntervalSinceNow * 1000))
      var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&pending, 1, left) == 1 else { break }
      // Close-on-exec from the start, and shut down before the close: a child another test
      // starts meanwhile would keep the connection open past the close (until its exec), and
      // the client would not see it refused.
      let connection = sr_accept4(fd, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
      guard connection >= 0 else { continue }
      times.append(Date())
      shutdown(connection, Int32(SHUT_RDWR))
      close(connection)
    }
    return times
  }

  /// Frees the port for a real server.
  func stop() {
    guard fd >= 0 else { return }
    ListeningSocket.close(fd)
    fd = -1
  }

  deinit { stop() }
}
