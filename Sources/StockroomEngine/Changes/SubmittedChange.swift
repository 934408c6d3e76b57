import StockroomDomain

/// Where a submitted change is: applied already (and, with a disk, on its way to it), or queued
/// for a writer that applies it later and answers through its ticket.
package enum SubmittedChange: Sendable {
  /// Applied to the shop; the reply waits for the commit ticket when there is one.
  case applied(Applied, CommitTicket?)
  /// Queued for the shared writer: the connection answers nothing more until the ticket is done.
  case queued(ChangeTicket)
}
