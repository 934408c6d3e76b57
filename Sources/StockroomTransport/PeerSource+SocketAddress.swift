import StockroomEngine
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension PeerSource {
  /// An IPv4 address as itself, an IPv6 one as its /64, an IPv4-mapped one as its IPv4 address.
  package init(_ address: SocketAddress) {
    let bytes = withUnsafeBytes(of: address.storage) { raw -> [UInt8] in
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
    self.init(bytes: bytes)
  }
}
