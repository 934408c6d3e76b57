import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A connection that sends nothing, as an idle client does: the server's idle timer closes it,
/// which a test can wait for as a clock the server itself keeps.
final class QuietConnection {
  private let fd: Int32

  init(port: UInt16) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    // The throw runs deinit, which closes the socket; closing it here too could close a
    // descriptor another thread was given in between.
    guard connected == 0 else {
      let error = errno
      throw POSIXError(POSIXErrorCode(rawValue: error) ?? .ECONNREFUSED)
    }
  }

  /// Reads (the greeting, the idle notice) until the server closes, holding the thread; false
  /// if it has not closed after `seconds`.
  func waitForClose(seconds: Double = 20) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let left = max(0, Int32(deadline.timeIntervalSinceNow * 1000))
      var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&pending, 1, left) == 1 else { return false }
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count == 0 || (count < 0 && errno != EINTR) { return true }
    }
  }

  deinit { close(fd) }
}
