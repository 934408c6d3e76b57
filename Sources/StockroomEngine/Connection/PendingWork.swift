import StockroomProtocol

/// Work a reply waits for off the event loop, during which the connection takes no further
/// request: the next one may depend on its outcome (who is logged in, what the stock is).
package enum PendingWork: Sendable {
  case credential(CredentialTicket)
  case read(ReadTicket)
  /// A read of a shared store's cache, run once the cache has caught up with the store.
  case readIndex(ReadIndexTicket, Request)
}
