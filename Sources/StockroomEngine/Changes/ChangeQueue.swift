/// Where a change, or a read that waits for a shared store, is queued: the shared writer's
/// queue (`StockroomPersistence`), which answers each through its ticket. All a ticket knows of
/// the writer, so that the engine names no type of the persistence target.
package protocol ChangeQueue: AnyObject, Sendable {
  /// Queues a change for the next transaction; its ticket hears the result.
  func enqueue(_ change: ChangeTicket)
  /// Queues a read for the writer's next look at the store; its ticket hears when it may run.
  func enqueue(_ read: ReadIndexTicket)
}
