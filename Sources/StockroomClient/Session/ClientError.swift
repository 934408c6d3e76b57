/// Why talking to the server failed, as a sentence for the user.
public struct ClientError: Error, Equatable, CustomStringConvertible, Sendable {
  public enum Kind: Sendable, Equatable {
    /// The server could not be reached at all.
    case unreachable
    /// An open connection ended or failed.
    case closed
    /// The server said no to the connection itself (e.g. ERR LIMIT in the greeting).
    case refused
    /// The server turned the session's LOGIN down (`ERR AUTH`).
    case loginFailed
  }

  public var kind: Kind
  public var message: String
  public var description: String { message }

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }
}
