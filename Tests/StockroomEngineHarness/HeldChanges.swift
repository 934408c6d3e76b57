import StockroomDomain
import StockroomEngine
import Synchronization

/// A change path whose commits happen when the test says: changes are applied to the shop at
/// once, as the SQLite committer applies them, and each waits on its commit ticket until
/// `commitAll` or `failAll` (but a change to an account, which is committed at once). With it an engine test sees what a connection does while a commit
/// is on its way (a reply held, an event not yet sent) without a disk or a timing.
final class HeldChanges: ChangePath, @unchecked Sendable {
  private struct Held {
    var ticket: CommitTicket
    var events: [StockEvent]
  }

  private let shop: LockedShop
  private let held = Mutex<[Held]>([])

  init(shop: LockedShop) {
    self.shop = shop
  }

  var history: (any ShopHistory)? { nil }
  var commitFigures: CommitFigures? { nil }
  /// The newest change held, as the SQLite committer's newest group is.
  var uncommitted: CommitTicket? { held.withLock { $0.last?.ticket } }

  func start() {}
  func stop() {}

  /// A change to an account is committed at once: the harness makes its accounts with
  /// `Shop.applyAndWait`, which waits for the commit, and the tests hold the shop's changes.
  func submit(_ mutation: Mutation) throws(ShopError) -> SubmittedChange {
    let ticket = CommitTicket()
    let applied = try shop.apply(mutation) { applied, _ in
      if !mutation.changesAccounts { held.withLock { $0.append(Held(ticket: ticket, events: applied.events)) } }
    }
    if mutation.changesAccounts {
      shop.committed(applied.events, settledThrough: nil)
      ticket.complete(.committed)
    }
    return .applied(applied, ticket)
  }

  /// Changes applied and not yet committed.
  var waiting: Int { held.withLock { $0.count } }

  /// Commits every change held, in order: watchers hear of each, then its reply may go.
  func commitAll() {
    for change in take() {
      shop.committed(change.events, settledThrough: nil)
      change.ticket.complete(.committed)
    }
  }

  /// Fails every change held, as a commit the disk refused.
  func failAll(_ failure: CommitFailure) {
    for change in take() { change.ticket.complete(.failed(failure)) }
  }

  private func take() -> [Held] {
    held.withLock { held in
      defer { held = [] }
      return held
    }
  }
}
