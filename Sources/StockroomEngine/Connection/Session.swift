import StockroomProtocol
import StockroomText

/// What one connection remembers between its requests.
package struct Session: Sendable {
  /// The name orders and events carry for a connection that is not logged in.
  package static let guestName = "guest"

  /// The account this connection logged in as; nil for a guest.
  package var account: String? = nil
  /// The password hash the account had at login. Every hash has a salt of its own, so an account
  /// removed and made again, or given a new password, has another one: this connection then is
  /// a guest. (Not the creation time: a time read back from the database is not always the very
  /// same `Date`, and the shop is read back after a failed commit.)
  package var loginHash: String? = nil
  /// The account's role as last read, and the shop's account generation it was read at: a role
  /// changed or an account removed by an admin takes effect on the next request.
  package var cachedRole: (role: Role, generation: Int)? = nil
  /// Failed LOGIN and PASSWD attempts on this connection; each slows the next, and too many close it.
  package var failedLogins = 0
  /// nil when not watching; an empty set means every item.
  package var watching: Set<String>? = nil
  /// Set by QUIT, or by too many failed logins: close once the reply is out.
  package var closing: CloseReason? = nil
  /// The command whose reply waits for work elsewhere (a password, a shared store's commit), to
  /// be counted by its result when that is done.
  package var pendingCommand: CommandID? = nil
  /// The words of the last request, kept for their array's capacity: the next line is split
  /// into it (`CommandHandler.handle`), so a request allocates no array of words.
  package var words: [Word] = []
  /// Whether a password sent here could be read on the way (protected mode).
  package let transport: TransportSecurity
  /// Where the client connects from, for the login throttle and the credential pool's fairness;
  /// nil where there is no socket (tests of the core alone).
  package let source: PeerSource?
  /// The connection's number among the server's, for the places it takes (a watcher's); nil
  /// where there is no server (tests of the core alone).
  package let connectionID: Int?

  package init(transport: TransportSecurity = .plaintextLocal, source: PeerSource? = nil, connectionID: Int? = nil) {
    self.transport = transport
    self.source = source
    self.connectionID = connectionID
  }

  /// The name this connection acts under: its account's, or `guest`.
  package var user: String { account ?? Self.guestName }
}
