import StockroomDomain
import StockroomEngine
import StockroomSystem

/// What the shared writer hands its flusher, which tells each in the order it was handed.
enum SharedPublication: Sendable {
  /// This node's transaction: told once a barrier has confirmed it on disk.
  case commit(SharedCommit)
  /// Other nodes' changes, read to the durable head: on disk already, told in their turn.
  case replayed([StockEvent])
  /// An attempt that ended without a commit: its reads are let go in their turn, never before
  /// an earlier commit's.
  case ended(CommitTicket, CommitTicket.Outcome)
  /// Signalled once everything handed before it has been told.
  case marker(Semaphore)
}
