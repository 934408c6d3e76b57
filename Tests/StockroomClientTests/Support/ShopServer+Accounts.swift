import StockroomClient
import StockroomProtocol
import StockroomServer
import StockroomTransport

extension ShopServer {
  /// The password test accounts get unless a test says otherwise. Tests compare with it and
  /// look for it on screens and in files, and never print it.
  static let password = "open sesame 7"

  /// Makes an account of any role directly in the store, as `stockroomd user add` would.
  func addAccount(_ name: String, password: String = ShopServer.password, role: Role) throws {
    try server.addAccount(name: name, password: password, role: role)
  }

  /// Makes a customer account the way a user would, with REGISTER over the protocol, so the
  /// tests need nothing of the server's insides.
  func register(_ name: String, password: String = ShopServer.password) throws {
    let connection = try Connection.open(host: "127.0.0.1", port: port)
    defer { connection.close() }
    try connection.send("REGISTER " + Quoting.quote(name) + " " + Quoting.quote(password))
    while true {
      guard case .reply(let reply) = try connection.nextItem() else { continue }
      guard reply.isOK else {
        throw ClientProcess.Missing(description: "REGISTER \(name) failed: \(reply.lines.last ?? "")")
      }
      return
    }
  }
}
