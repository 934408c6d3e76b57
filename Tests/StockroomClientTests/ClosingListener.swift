import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A port that takes each connection and closes it before any greeting, and notes when: a
/// client's reconnect attempts there fail, and a test can count them and see their spacing.
final class ClosingListener {
  private var fd: Int32

  init(port: UInt16) throws {
    // Close-on-exec, as in SilentListener: a child started meanwhile must not keep the port.
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var one: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
      let error = errno
      close(fd)
      throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EADDRINUSE)
    }
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
      let connection = accept(fd, nil, nil)
      guard connection >= 0 else { continue }
      times.append(Date())
      close(connection)
    }
    return times
  }

  /// Frees the port for a real server.
  func stop() {
    guard fd >= 0 else { return }
    close(fd)
    fd = -1
  }

  deinit { stop() }
}
