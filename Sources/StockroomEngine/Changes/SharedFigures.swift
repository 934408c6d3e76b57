/// How a node on a store shared by several stands with it, read at one moment for INFO and
/// the metrics page.
package struct SharedFigures: Sendable, Equatable {
  /// How this node names itself in the change log.
  package var node: String
  /// Whether the store answers.
  package var connected: Bool
  /// The last change this node's shop holds.
  package var sequence: Int
  /// Changes taken and not yet sent to the database.
  package var waiting: Int
  /// Changes other nodes committed, replayed here.
  package var replayed: Int
  /// Transactions retried after a serialization conflict.
  package var retries: Int
  /// Times the whole shop was loaded again.
  package var reloads: Int
  /// What a read of the cache waits for (`--reads`).
  package var reads: ReadMode
  /// Reads that waited for the cache to catch up, and the round trips that caught it up: a
  /// burst of reads shares one.
  package var readsWaited: Int
  package var readCatchUps: Int
  /// Reads answered from the cache unconfirmed, while the store could not be reached.
  package var readsUnconfirmed: Int

  package init(
    node: String, connected: Bool, sequence: Int, waiting: Int, replayed: Int, retries: Int, reloads: Int,
    reads: ReadMode, readsWaited: Int, readCatchUps: Int, readsUnconfirmed: Int
  ) {
    self.node = node
    self.connected = connected
    self.sequence = sequence
    self.waiting = waiting
    self.replayed = replayed
    self.retries = retries
    self.reloads = reloads
    self.reads = reads
    self.readsWaited = readsWaited
    self.readCatchUps = readCatchUps
    self.readsUnconfirmed = readsUnconfirmed
  }
}
