import StockroomProtocol

/// Who the server says this connection is, read from the replies that say it: LOGIN and
/// REGISTER (`OK login alice role=customer`), WHOAMI (`OK alice role=customer`) and HELLO
/// (`OK hello protocol=2 user=alice role=customer`).
public struct Identity: Sendable, Equatable {
  public var name: String
  public var role: Role
}

extension Identity {
  /// The identity a successful reply to `command` names; nil for a guest, an error, or a
  /// reply that names nobody.
  public init?(reply: Reply, command: String) {
    guard reply.isOK else { return nil }
    let fields = reply.statusFields
    let words = fields.fields.filter { $0.key.isEmpty }.map(\.value)
    let name: String?
    switch command.uppercased() {
    case "LOGIN", "REGISTER": name = words.first == "login" ? words.dropFirst().first : nil
    case "WHOAMI": name = words.first
    case "HELLO": name = fields["user"]
    default: name = nil
    }
    guard let name, let role = fields["role"].flatMap(Role.init(rawValue:)), role != .guest else { return nil }
    self.init(name: name, role: role)
  }
}
