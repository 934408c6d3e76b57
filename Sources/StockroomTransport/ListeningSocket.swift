import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A non-blocking TCP socket bound and listening, as the client port, the TLS port and the
/// metrics port each need one.
package enum ListeningSocket {
  /// The descriptor and the address it is bound to: `address` with port 0 gets the kernel's
  /// choice, read back here.
  package static func open(_ address: SocketAddress, backlog: Int32) throws(Errno) -> (fd: Int32, bound: SocketAddress)
  {
    let fd = try Syscall.retrying {
      socket(
        address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }
    do {
      try Syscall.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
      _ = try address.withSockaddr { pointer, length throws(Errno) in
        try Syscall.retrying { bind(fd, pointer, length) }
      }
      try Syscall.retrying { listen(fd, backlog) }
    } catch {
      close(fd)
      throw error
    }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, SocketAddress(storage: storage))
  }
}
