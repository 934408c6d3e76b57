import StockroomDomain
import StockroomProtocol

/// What a `ConnectionCore` asks of the world around it: answers to requests, waiting for
/// commits and password work, and the server-wide registries a connection appears in.
///
/// The epoll transport is one; the core's tests fake it, so the core needs no socket, no loop
/// and no store. Every call is made synchronously from inside the core's own mutation, so an
/// implementation must not reach back into the core it serves.
package protocol ConnectionHost {
  /// Answers one request line; see `CommandHandler.handle`.
  func handle(_ line: ArraySlice<UInt8>, session: inout Session, out: inout ReplyEncoder) -> ReplyWait?
  /// Turns finished work into its reply; see `CommandHandler.finish`.
  func finish(_ work: PendingWork, session: inout Session, out: inout ReplyEncoder) -> ReplyWait?
  /// The session's role now, which decides whether events name who made a change.
  func role(_ session: inout Session) -> Role
  /// Calls the core's `commitFinished` once `ticket` has an outcome.
  func awaitCommit(_ ticket: CommitTicket)
  /// Runs the work and calls the core's `workFinished` once it is done.
  func run(_ work: PendingWork)
  /// Hands a change to its shared store's writer, and calls the core's `changeAnswered` once
  /// the writer has answered it.
  func submit(_ change: QueuedChange)
  /// Writes the reply to a queued change the writer has answered; see `CommandHandler.answer`.
  func answer(_ change: QueuedChange, session: inout Session, out: inout ReplyEncoder) -> ReplyWait?
  /// Whether the request on `line` must wait for the changes queued on the connection to be
  /// answered; see `CommandHandler.mustWaitForChanges`.
  func mustWaitForChanges(_ line: ArraySlice<UInt8>) -> Bool
  /// Subscribes to what `watching` names (nil: nothing), and returns the events that reached
  /// the old subscription and are still owed to the client.
  func watchChanged(to watching: Set<String>?) -> [EncodedEvent]
  /// Tells WHO's registry what this connection is now; nil when it is a guest or gone.
  func presenceChanged(_ entry: Presence.Entry?)
  /// The client spoke another protocol; it is refused without running anything.
  func refused(_ foreign: ForeignProtocol)
}
