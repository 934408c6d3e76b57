import StockroomDomain

/// What applying this node's mutations to a shared store's cache gave (`SharedWriter.apply`):
/// each one's result, the mutations that changed something (for the change log), their events, and
/// what the other nodes check their replay by.
struct SharedApplication: Sendable {
  var results: [Result<Applied, ShopError>] = []
  /// The mutations that changed the shop, in order; empty when none did.
  var logged: [Mutation] = []
  var events: [StockEvent] = []
  /// The counters before these mutations, so that only those that moved are written.
  let countersBefore: ShopCounters
  /// The shop after them (`ShopDigest`); empty when nothing was logged.
  var digest = ""

  init(countersBefore: ShopCounters) {
    self.countersBefore = countersBefore
  }
}
