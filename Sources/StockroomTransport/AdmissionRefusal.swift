import StockroomProtocol

/// Why a connection was turned away at the door, before it was served at all.
package enum AdmissionRefusal: Equatable {
  /// `--max-clients` connections are being served.
  case serverFull(maxClients: Int)
  /// Its address (an IPv6 /64) already has `--max-clients-per-address` of them.
  case addressFull(perAddress: Int)

  /// The `reason=` of the log line.
  package var logReason: String {
    switch self {
    case .serverFull(let maxClients): "max_clients(\(maxClients))"
    case .addressFull(let perAddress): "max_clients_per_address(\(perAddress))"
    }
  }

  /// What the client is told.
  package var error: ProtocolError {
    switch self {
    case .serverFull(let maxClients):
      ProtocolError(.limit, "server full: \(maxClients) clients connected; try again later")
    case .addressFull(let perAddress):
      ProtocolError(.limit, "too many connections from your address: \(perAddress) at once; close one and try again")
    }
  }
}
