import StockroomSystem
import StockroomTransport

extension ListenAddress {
  /// `--http`'s value: `127.0.0.1:9187`, `[::1]:9187`, or a port alone, which is loopback's
  /// (`9187` is `127.0.0.1:9187`): another machine is reached only when its address is named.
  public init(parsing text: String) throws(OptionProblem) {
    let problem = OptionProblem(
      "takes ADDRESS:PORT with a numeric address ([::1]:PORT for IPv6) and a port from 0 to 65535, not '\(text)'")
    if let port = UInt16(text) {
      self.init(host: "127.0.0.1", port: port)
      return
    }
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
