#if canImport(Glibc)
  import Glibc
#endif

/// What the test clients share about their sockets to the server on 127.0.0.1.
enum Loopback {
  /// `connect(2)` to 127.0.0.1:`port`: 0, or -1 with `errno` set (EINPROGRESS on a
  /// non-blocking socket still connecting).
  /// Binds `fd` to `host` with a port the kernel picks, so that a connection comes from there.
  static func bind(_ fd: Int32, to host: String) -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr(host)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }

  static func connect(_ fd: Int32, port: UInt16, address host: String = "127.0.0.1") -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr(host)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }

  /// Makes the next close of `fd` send a reset instead of a FIN (SO_LINGER 0), as a crashed or
  /// hostile peer leaves.
  static func resetOnClose(_ fd: Int32) {
    var linger = linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
  }
}
