import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A non-blocking TCP socket to the server on 127.0.0.1, with the ways a client can leave:
/// close, half-close, or reset.
final class FuzzSocket {
  enum Received {
    case bytes(ArraySlice<UInt8>)
    case wouldBlock
    /// The server closed its side (FIN).
    case end
    /// The server reset the connection.
    case reset
  }

  let fd: Int32
  private var open = true
  private var chunk = [UInt8](repeating: 0, count: 65536)

  /// Connects, waiting at most `timeout` seconds; nil with `errno` set when it cannot.
  init?(port: UInt16, timeout: Int32 = 10_000) {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    let result = Loopback.connect(fd, port: port)
    // A failed init still runs deinit, which closes the socket: closing it here as well could
    // close a descriptor another thread has been given in between.
    if result != 0 {
      guard errno == EINPROGRESS, wait(for: Int16(POLLOUT), milliseconds: timeout) != 0 else { return nil }
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
      guard error == 0 else {
        errno = error
        return nil
      }
    }
  }

  deinit { if open && fd >= 0 { close(fd) } }

  /// The poll events that happened within `milliseconds`, 0 when none did.
  func wait(for events: Int16, milliseconds: Int32) -> Int16 {
    var entry = pollfd(fd: fd, events: events, revents: 0)
    let result = poll(&entry, 1, milliseconds)
    return result > 0 ? entry.revents : 0
  }

  /// Bytes written, 0 when the socket is full, nil when the server has gone.
  func send(_ bytes: ArraySlice<UInt8>) -> Int? {
    let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    if written >= 0 { return written }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
  }

  func receive() -> Received {
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count > 0 { return .bytes(chunk[..<count]) }
    if count == 0 { return .end }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wouldBlock : .reset
  }

  func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

  /// A reset instead of a FIN, as a crashed or impatient client leaves.
  func reset() {
    guard open else { return }
    Loopback.resetOnClose(fd)
    close(fd)
    open = false
  }

  func closeNow() {
    guard open else { return }
    close(fd)
    open = false
  }
}
