import StockroomProtocol

extension CommandHandler {
  /// Who is connected. The counts are everyone's to know; the names are staff's, as `user=` in
  /// events is: a customer must not learn when another customer is online.
  package func who(role: Role, out: inout ReplyEncoder) {
    let entries = presence.snapshot
    let present = shop.read { state in
      entries.compactMap { entry -> (name: String, role: Role, watching: Bool)? in
        guard let account = state.accounts[entry.account], account.passwordHash == entry.loginHash else {
          return nil
        }
        return (entry.account, account.role, entry.watching)
      }
    }
    let users = Dictionary(grouping: present, by: \.name)
    if role >= .staff {
      for name in users.keys.sorted() {
        let connections = users[name] ?? []
        out.beginRow(name)
        out.kind(.user)
        out.field("role", connections[0].role.rawValue)
        out.field("connections", connections.count)
        out.field("watching", connections.filter(\.watching).count)
        out.endLine()
      }
    }
    let clients = clientCount()
    out.ok(fields: [
      ("clients", String(clients)), ("guests", String(max(0, clients - present.count))),
      ("users", String(users.count)), ("watchers", String(shop.hub.watcherCount)),
    ])
  }
}
