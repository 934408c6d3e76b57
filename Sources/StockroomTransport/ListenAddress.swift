import StockroomSystem

/// A numeric address and port to listen on, written `127.0.0.1:9187`, `[::1]:9187` or
/// `localhost:9187`, as `--metrics` takes it.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
  public var host: String
  public var port: UInt16

  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  package var socketAddress: SocketAddress? { SocketAddress(host: host, port: port) }

  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
