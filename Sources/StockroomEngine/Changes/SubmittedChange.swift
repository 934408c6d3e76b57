import StockroomDomain

/// Where a submitted change is: applied already (memory, SQLite), or queued for a shared
/// store's writer, which applies it in its next transaction and answers through the ticket. The
/// reply is the same either way: written from the `Applied` result, then held until the commit
/// ticket says the change is on disk.
package enum SubmittedChange: Sendable {
  /// Applied to the shop; the reply waits for the commit ticket when there is one.
  case applied(Applied, CommitTicket?)
  /// Queued for the shared writer, which answers `.applied` with its commit ticket.
  case queued(ChangeTicket)
}
