#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An IPv4 or IPv6 address and port, for binding and for logging peers.
package struct SocketAddress: Sendable, CustomStringConvertible {
  package var storage: sockaddr_storage

  package init(storage: sockaddr_storage) { self.storage = storage }

  /// Parses a numeric host (`127.0.0.1`, `::1`, `0.0.0.0`); `localhost` means 127.0.0.1.
  package init?(host: String, port: UInt16) {
    let host = host == "localhost" ? "127.0.0.1" : host
    var v4 = sockaddr_in()
    if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
      v4.sin_family = sa_family_t(AF_INET)
      v4.sin_port = port.bigEndian
      self.init(copying: v4)
      return
    }
    var v6 = sockaddr_in6()
    guard inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 else { return nil }
    v6.sin6_family = sa_family_t(AF_INET6)
    v6.sin6_port = port.bigEndian
    self.init(copying: v6)
  }

  /// A `sockaddr_in` or `sockaddr_in6` in the storage that holds either.
  private init<Address>(copying address: Address) {
    var storage = sockaddr_storage()
    withUnsafeBytes(of: address) { bytes in
      withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
    }
    self.storage = storage
  }

  package var family: Int32 { Int32(storage.ss_family) }

  /// Whether only this machine can reach the address: 127.0.0.0/8, ::1, or 127.x mapped into IPv6.
  package var isLoopback: Bool {
    withUnsafeBytes(of: storage) { raw in
      switch family {
      case AF_INET:
        let v4 = raw.load(as: sockaddr_in.self)
        return withUnsafeBytes(of: v4.sin_addr) { $0[0] == 127 }
      case AF_INET6:
        let v6 = raw.load(as: sockaddr_in6.self)
        return withUnsafeBytes(of: v6.sin6_addr) { bytes in
          let loopback = bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
          let mapped =
            bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
          return loopback || mapped
        }
      default: return false
      }
    }
  }

  package var length: socklen_t {
    socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
  }

  package var port: UInt16 {
    withUnsafeBytes(of: storage) { raw in
      family == AF_INET6
        ? UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
        : UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
    }
  }

  package var host: String {
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    withUnsafeBytes(of: storage) { raw in
      if family == AF_INET6 {
        var address = raw.load(as: sockaddr_in6.self).sin6_addr
        _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
      } else {
        var address = raw.load(as: sockaddr_in.self).sin_addr
        _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
      }
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  package var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

  package func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(Errno) -> T) throws(Errno) -> T {
    var copy = storage
    let length = self.length
    return try withUnsafePointer(to: &copy) { pointer throws(Errno) in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Errno) in
        try body(address, length)
      }
    }
  }
}
