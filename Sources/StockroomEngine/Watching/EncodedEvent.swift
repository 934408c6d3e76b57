import StockroomProtocol

/// A watch event with its line already written, once for every watcher: `WatchHub` encodes it
/// as it delivers, and each watching connection copies the bytes into its output instead of
/// encoding the same event again (a change watched by a thousand connections was written a
/// thousand times).
package final class EncodedEvent: Sendable {
  package let event: WatchEvent
  /// The line as anyone sees it.
  private let plain: [UInt8]
  /// The line as staff see it, with who made the change; the plain line where that is the same.
  private let withUser: [UInt8]

  package init(_ event: WatchEvent) {
    self.event = event
    var plain = ReplyEncoder(capacity: 128)
    plain.watchEvent(event, showUser: false)
    self.plain = plain.bytes
    guard case .stock = event else {
      withUser = plain.bytes
      return
    }
    var withUser = ReplyEncoder(capacity: 128)
    withUser.watchEvent(event, showUser: true)
    self.withUser = withUser.bytes
  }

  /// The line for a watcher that may (staff) or may not see who made the change.
  package func line(showUser: Bool) -> [UInt8] {
    showUser ? withUser : plain
  }
}
