/// Where a peer connects from, as far as sharing is concerned: its IPv4 address, or the /64 of
/// its IPv6 one (one host is usually given a whole /64, so its addresses count as one). An IPv4
/// address mapped into IPv6 is that IPv4 address. Ports never count. The transport makes it
/// from a socket address.
package struct PeerSource: Hashable, Sendable {
  /// Four bytes for IPv4, the first eight of the address for IPv6.
  private let bytes: [UInt8]

  package init(bytes: [UInt8]) {
    self.bytes = bytes
  }
}
