import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A listening TCP socket on 127.0.0.1, for the test stand-ins that play a server's port.
enum ListeningSocket {
  /// Binds and listens on `port`; throws the errno as a POSIXError (EADDRINUSE, most often).
  static func open(port: UInt16) throws -> Int32 {
    // Close-on-exec: tmux and clients started meanwhile by other tests would otherwise keep
    // the listening socket open after it is closed here, and a real server could not take the
    // port (`close(_:)` covers a child caught between its fork and its exec).
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
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
      Glibc.close(fd)
      throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EADDRINUSE)
    }
    return fd
  }

  /// Stops listening, then closes: a child spawned by another thread shares the socket until its
  /// exec closes the copy, and without the shutdown the socket would listen on in it meanwhile.
  static func close(_ fd: Int32) {
    shutdown(fd, Int32(SHUT_RDWR))
    Glibc.close(fd)
  }
}
