import StockroomProtocol
import StockroomTLS

@testable import StockroomEngineHarness

/// A socket client logged in, as a test starts most of them; logging in itself is the harness's
/// (`LineProtocolClient.logIn`), the same over a socket or an engine's channel.
extension LineClient {
  /// A connection past the greeting, logged in as `user` when given (made first if missing);
  /// with `tls`, `port` is a TLS port.
  static func greeted(
    _ port: UInt16, user: String? = nil, role: Role = .customer, tls: TLSContext? = nil
  ) throws -> LineClient {
    let client = try LineClient(port: port, tls: tls)
    _ = try client.readReply()
    if let user { try client.logIn(user, role: role) }
    return client
  }
}
