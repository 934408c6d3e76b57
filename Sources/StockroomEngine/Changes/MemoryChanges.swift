import StockroomDomain
import Synchronization

/// The change path of a shop kept in memory only: each change is applied and answered at once,
/// with nothing to wait for.
package final class MemoryChanges: ChangePath {
  private let shop: LockedShop
  /// Stamps the ledger kept in memory.
  private let clock: any EngineClock
  /// The recent ledger, for STOCKTAKE, since there is no database to read it from.
  private let ledger = Mutex(LedgerLog())

  package init(shop: LockedShop, clock: any EngineClock) {
    self.shop = shop
    self.clock = clock
  }

  package var history: (any ShopHistory)? { nil }
  package var commitFigures: CommitFigures? { nil }
  /// Applied and answered at once: nothing is ever waiting to be saved.
  package var uncommitted: CommitTicket? { nil }

  package func start() {}

  /// Keeps the change in the ledger and wakes its watchers while the shop's lock is held, since
  /// changes from every loop thread come here: they reach the ledger and watchers in the order
  /// they were made.
  package func submit(_ mutation: Mutation) throws(ShopError) -> SubmittedChange {
    let now = clock.wallTime()
    var wake: [EventMailbox] = []
    let applied = try shop.apply(mutation) { applied, _ in
      ledger.withLock { ledger in
        for event in applied.events { ledger.append(LedgerEntry(event, at: now)) }
      }
      wake = shop.hub.deliver(applied.events)
    }
    for mailbox in wake { mailbox.notify() }
    return .applied(applied, nil)
  }

  package func recentLedger(of item: String) -> [LedgerEntry] {
    ledger.withLock { $0.entries(of: item) }
  }

  package func stop() {}
}
