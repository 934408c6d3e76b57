import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A port that takes connections and never says anything: the kernel completes each handshake
/// into the backlog and nobody accepts, so a client waiting for a greeting waits forever.
final class SilentListener {
  private var fd: Int32

  init(port: UInt16) throws {
    fd = try ListeningSocket.open(port: port)
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
    ListeningSocket.close(fd)
    fd = -1
  }

  deinit { stop() }
}
