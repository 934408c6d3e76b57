import StockroomSystem
import StockroomTransport

extension ListenAddress {
  /// `--metrics`' value: `127.0.0.1:9187`, `[::1]:9187` or `localhost:9187`.
  public init(parsing text: String) throws(OptionProblem) {
    let problem = OptionProblem(
      "takes ADDRESS:PORT with a numeric address ([::1]:PORT for IPv6) and a port from 0 to 65535, not '\(text)'")
    guard let colon = text.lastIndex(of: ":") else { throw problem }
    var host = String(text[..<colon])
    if host.hasPrefix("[") && host.hasSuffix("]") {
      host = String(host.dropFirst().dropLast())
    } else if host.contains(":") {
      throw problem
    }
    guard let port = UInt16(text[text.index(after: colon)...]), SocketAddress(host: host, port: port) != nil else {
      throw problem
    }
    self.init(host: host, port: port)
  }
}
