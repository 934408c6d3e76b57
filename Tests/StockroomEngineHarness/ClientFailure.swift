/// Why a test's client could not go on: the connection was lost, or the other end answered, but
/// not as asked. One type for `LineClient` and `EngineClient`, which speak the same protocol.
package struct ClientFailure: Error, CustomStringConvertible {
  package var description: String
  /// The other end answered, but not as asked: unlike a lost connection, never a kill's doing.
  package var isReply = false

  package init(description: String, isReply: Bool = false) {
    self.description = description
    self.isReply = isReply
  }
}
