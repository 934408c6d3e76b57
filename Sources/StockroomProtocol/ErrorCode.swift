/// The fixed set of error codes a server may put after `ERR`.
///
/// Clients branch on the code, people read the message; the code set only grows.
public enum ErrorCode: String, Sendable, CaseIterable, Hashable {
  case syntax = "SYNTAX"
  case unknown = "UNKNOWN"
  case args = "ARGS"
  case notFound = "NOTFOUND"
  case shortage = "SHORTAGE"
  case invalid = "INVALID"
  case denied = "DENIED"
  case tooLong = "TOOLONG"
  case limit = "LIMIT"
  case readOnly = "READONLY"
  case unavailable = "UNAVAILABLE"
  case `internal` = "INTERNAL"
  case foreignProtocol = "PROTOCOL"
  case timeout = "TIMEOUT"
  case auth = "AUTH"
  case noAuth = "NOAUTH"
  case exists = "EXISTS"

  /// One line for Protocol.md and HELP.
  public var meaning: String {
    switch self {
    case .syntax: "the line could not be split into words: unbalanced quote, bad escape, invalid UTF-8"
    case .unknown: "no such command or subcommand"
    case .args: "wrong number of arguments, or an option the command does not take"
    case .notFound: "no such item, category, section, product, diary entry or INFO section"
    case .shortage: "not enough stock; nothing was taken"
    case .invalid: "a value is out of range or malformed: quantity, price, name, page"
    case .denied:
      "logged in, but this account's role may not do this, or the product is another seller's; or a password "
        + "sent in clear from another machine (protected mode)"
    case .tooLong: "the request line is longer than the server's limit; the connection is closed"
    case .limit: "a server limit was reached: clients, products, diary entries, order keys"
    case .readOnly:
      "the server cannot save changes (disk full, I/O error) and refuses writes until it can; reads still work"
    case .unavailable:
      "the database the shop is kept in cannot be reached; nothing was changed, and the server reconnects by itself"
    case .internal: "the server failed; the request was not applied"
    case .foreignProtocol:
      "the connection began in another protocol (HTTP, RESP, TLS); nothing was run and the connection is closed"
    case .timeout: "a request line did not arrive whole in time; the connection is closed"
    case .auth:
      "wrong name or password (the same answer for both), or too many failed attempts; failures are slowed down"
    case .noAuth: "this needs a login: LOGIN <name> <password>, or REGISTER to make an account"
    case .exists: "an account of that name already exists"
    }
  }
}
