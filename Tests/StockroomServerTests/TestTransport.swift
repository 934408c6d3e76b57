import StockroomServer
import StockroomTLS
import StockroomTestSupport
import StockroomTransport
import Testing

@testable import StockroomEngineHarness

/// How a test's clients reach the server: the plaintext port, the same protocol on the TLS
/// port (the server's certificate checked against the test CA), or no socket at all: the
/// engine's own bytes through an `EngineHarness`.
enum TestTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case plain
  case tls
  case embedded

  /// A shop whose clients come this way.
  func shop(initialStock: Int? = nil) throws -> any ShopEndpoint {
    switch self {
    case .plain, .tls: try TestServer(initialStock: initialStock, transport: self)
    case .embedded: try EngineHarness(initialStock: initialStock)
    }
  }

  var testDescription: String { rawValue }

  /// The client side for the TLS port: trusts the test CA, checks the host name.
  static func clientContext() throws -> TLSContext {
    try TLSContext.client(caFile: try TestCertificates.shared().ca)
  }

  /// The server's TLS settings with the test certificate, on a port of the kernel's choice.
  static func serverSettings() throws -> TLSSettings {
    let certificates = try TestCertificates.shared()
    var settings = TLSSettings(certificate: certificates.serverCertificate, key: certificates.serverKey)
    settings.port = 0
    return settings
  }
}
