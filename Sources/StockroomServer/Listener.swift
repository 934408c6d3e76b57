import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A listening TCP socket and the Dispatch source that accepts from it.
final class Listener: @unchecked Sendable {
  let fd: Int32
  let address: SocketAddress
  private let source: any DispatchSourceRead

  /// Binds and listens; `address.port` 0 lets the kernel choose, and `address` then has the real one.
  init(address: SocketAddress, queue: DispatchQueue, accept: @escaping @Sendable (Int32, SocketAddress) -> Void)
    throws(Errno)
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
      try Syscall.retrying { listen(fd, 1024) }
    } catch {
      Glibc.close(fd)
      throw error
    }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.fd = fd
    self.address = SocketAddress(storage: storage)
    let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
    source.setEventHandler {
      // Take every pending connection: one readiness event may stand for many.
      while true {
        var peer = sockaddr_storage()
        var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutablePointer(to: &peer) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            Glibc.accept(fd, $0, &peerLength)
          }
        }
        if client < 0 {
          if errno == EINTR || errno == ECONNABORTED { continue }
          return
        }
        // accept4 is hidden behind _GNU_SOURCE in Glibc's module map; set the flags by hand.
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        guard (try? Syscall.setNonBlocking(client)) != nil else {
          Glibc.close(client)
          continue
        }
        accept(client, SocketAddress(storage: peer))
      }
    }
    source.setCancelHandler { Glibc.close(fd) }
    self.source = source
    source.resume()
  }

  func close() {
    source.cancel()
  }
}
