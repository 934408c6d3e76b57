import StockroomDomain
import StockroomProtocol

/// A change a connection handed to a shared store's writer and has not yet had answered: its
/// reply's place among the connection's replies, written once the writer has applied it.
///
/// A class, though nothing in it changes: it is held in the connection's `HeldReply`, the
/// request's `ReplyWait` and the writer's queue, and inline (129 bytes, its request's mutation
/// and all) it made each of those as large, copied on every request (`ReplyWait`) and every held
/// reply (`HeldReply`, 161 bytes) whether a change was queued or not.
package final class QueuedChange: Sendable {
  package let ticket: ChangeTicket
  /// How its reply is written from the result.
  package let request: ChangeRequest
  /// Counted by command and result once answered.
  package let command: CommandID?

  package init(_ ticket: ChangeTicket, _ request: ChangeRequest, command: CommandID?) {
    self.ticket = ticket
    self.request = request
    self.command = command
  }

  /// Whether it changes an account: until it is answered, no later request may run, since who
  /// a request runs as, and with which role, may depend on it.
  package var changesAccounts: Bool { request.mutation.changesAccounts }
}
