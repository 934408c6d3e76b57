import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A port that takes connections and never says anything: the kernel completes each handshake
/// into the backlog and nobody accepts, so a client waiting for a greeting waits forever.
final class SilentListener {
  private var fd: Int32

  init(port: UInt16) throws {
    // Close-on-exec: tmux and clients started meanwhile by other tests would otherwise keep
    // the listening socket open after stop(), and the real server could not take the port.
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

  /// Waits until a connection is waiting in the backlog (the listening socket is readable),
  /// so a test knows a client's attempt has reached the port; false after `seconds`.
  func waitForConnection(seconds: Int32 = 20) -> Bool {
    var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&pending, 1, seconds * 1000) == 1
  }

  /// Frees the port for a real server; the connections waiting in the backlog are reset.
  func stop() {
    guard fd >= 0 else { return }
    close(fd)
    fd = -1
  }

  deinit { stop() }
}
