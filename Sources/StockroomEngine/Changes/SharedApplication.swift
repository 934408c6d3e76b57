import StockroomDomain

/// What applying this node's mutations to a shared store's cache gave (`applyShared`): each
/// one's result, the mutations that changed something (for the change log), their events, and
/// what the other nodes check their replay by.
package struct SharedApplication: Sendable {
  package var results: [ChangeTicket.Result] = []
  /// The mutations that changed the shop, in order; empty when none did.
  package var logged: [Mutation] = []
  package var events: [StockEvent] = []
  /// The counters before these mutations, so that only those that moved are written.
  package let countersBefore: ShopCounters
  /// The shop after them (`ShopDigest`); empty when nothing was logged.
  package var digest = ""

  init(countersBefore: ShopCounters) {
    self.countersBefore = countersBefore
  }
}
