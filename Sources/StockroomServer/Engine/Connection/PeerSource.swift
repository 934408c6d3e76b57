#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where a peer connects from, as far as sharing is concerned: its IPv4 address, or the /64 of
/// its IPv6 one (one host is usually given a whole /64, so its addresses count as one). An IPv4
/// address mapped into IPv6 is that IPv4 address. Ports never count.
struct PeerSource: Hashable, Sendable {
  /// Four bytes for IPv4, the first eight of the address for IPv6.
  private let bytes: [UInt8]

  init(_ address: SocketAddress) {
    bytes = withUnsafeBytes(of: address.storage) { raw in
      switch address.family {
      case AF_INET:
        return withUnsafeBytes(of: raw.load(as: sockaddr_in.self).sin_addr) { Array($0) }
      case AF_INET6:
        return withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { v6 in
          let mapped = v6.prefix(10).allSatisfy { $0 == 0 } && v6[10] == 0xFF && v6[11] == 0xFF
          return mapped ? Array(v6[12...]) : Array(v6.prefix(8))
        }
      default:
        return []
      }
    }
  }
}
