/// An error as it travels on the wire: a code from the fixed set and a message for people.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
  public var code: ErrorCode
  public var message: String

  public init(_ code: ErrorCode, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "ERR \(code.rawValue) \(message)" }
}
