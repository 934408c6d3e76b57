/// Work a reply waits for off the event loop, during which the connection takes no further
/// request: the next one may depend on its outcome (who is logged in, what the stock is).
package enum PendingWork: Sendable {
  case credential(CredentialTicket)
  case change(ChangeTicket)
  case read(ReadTicket)
}
