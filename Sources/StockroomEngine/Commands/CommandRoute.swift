import StockroomDomain
import StockroomProtocol

/// How the engine answers one command: which handler runs, and what its reply waits for. The
/// kinds are the ways a reply comes, so a reader of `CommandRoutes` sees at a glance which
/// commands change the shop and which make password work. Whether a command writes is the
/// command table's `.write` flag (`CommandSpec.isWrite`), which the write check reads; a test
/// keeps the route kinds in step with it.
package enum CommandRoute: Sendable {
  /// Writes its reply now; it may change this connection's session, never the shop.
  package typealias Answer =
    @Sendable (CommandHandler, Request, Role, inout Session, inout ReplyEncoder) throws -> Void
  /// Writes its reply now, or hands back a read of the database to run off the loop.
  package typealias Read =
    @Sendable (CommandHandler, Request, Role, Session, inout ReplyEncoder) throws -> ReplyWait?
  /// Says what to change; the shop makes the change and the reply is built from what it did.
  package typealias Change = @Sendable (CommandHandler, Request, Role, Session) throws -> ChangeRequest
  /// Starts password work for the credentials pool; its end answers, and may make a change.
  package typealias Credential = @Sendable (CommandHandler, Request, Session) throws -> CredentialTicket

  /// Answers from the connection and the server, never from the shop.
  case answer(Answer)
  /// Answers from the shop in memory: on a shared store it runs once the cache has caught up
  /// (`--reads linearizable`), and its reply waits for the commit of any change it could see.
  case view(Answer)
  /// Like `view`, and may read history from the database off the loop.
  case read(Read)
  case change(Change)
  /// Like `change`, but its handler reads the shop to say what to change (the product it edits,
  /// for its price): it never runs beside changes still queued for a shared store's writer,
  /// which it could miss (`CommandHandler.mustWaitForChanges`).
  case changeFromShop(Change)
  /// Password work whose end changes the shop (a new account, a new hash).
  case passwordChange(Credential)
  /// Password work whose end changes only the session (LOGIN).
  case passwordCheck(Credential)

  /// Whether the reply shows the shop, so it is answered only from a cache that has caught up
  /// and only once every change it could see is saved.
  package var readsShop: Bool {
    switch self {
    case .view, .read: true
    case .answer, .change, .changeFromShop, .passwordChange, .passwordCheck: false
    }
  }
}
