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
    let connection = try ServerLink.open(host: "127.0.0.1", port: port)
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

  /// Sends `lines` on one connection, one after another, as a user's own client would, and
  /// answers their replies; stops at the first ERR, which it throws.
  @discardableResult
  func send(_ lines: [String]) throws -> [Reply] {
    let connection = try ServerLink.open(host: "127.0.0.1", port: port)
    defer { connection.close() }
    var replies: [Reply] = []
    for line in lines {
      try connection.send(line)
      while true {
        guard case .reply(let reply) = try connection.nextItem() else { continue }
        guard reply.isOK else {
          throw ClientProcess.Missing(
            description:
              "\(line.split(separator: " ").prefix(2).joined(separator: " ")) failed: \(reply.lines.last ?? "")")
        }
        replies.append(reply)
        break
      }
    }
    return replies
  }
}
