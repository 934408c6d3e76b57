import Foundation
import StockroomDomain
import StockroomLogging
import StockroomSystem
import StockroomText
import Synchronization

/// The one shared shop every connection reads and changes, and the path its changes take.
///
/// It holds both and wires nothing after construction: the shop's state behind its lock
/// (`LockedShop`, `locked`) is given to the change path (`ChangePath`) when the path is made, the
/// path calls into it, and the shop answers reads from it and, for history, from the path's
/// journal. (Where the shop is kept, the SQLite file or the PostgreSQL database, is its store.)
package final class Shop: Sendable {
  package let locked: LockedShop
  package let changes: any ChangePath
  /// Makes the background check's thread: the engine starts no thread of its own.
  private let starter: any ThreadStarter
  /// Stamps an account an operator makes, and times the background check.
  private let clock: any EngineClock
  /// The background check's thread (`verifyInBackground`), which holds the database open
  /// while it runs; set only when one was started.
  private let verification = Mutex<(any WorkerThread)?>(nil)

  package var hub: WatchHub { locked.hub }
  /// Fixed for the shop's life, so readable without the lock.
  package var limits: ShopLimits { locked.limits }
  /// Where history (ledger, old orders, receipts) is read; nil in memory.
  package var history: (any ShopHistory)? { changes.history }

  /// A shop whose changes take `changes`, made on `locked`; starts the path's threads. A
  /// background check (`verifyInBackground`) runs on a thread `starter` makes.
  package init(
    locked: LockedShop, changes: any ChangePath, starter: any ThreadStarter,
    clock: any EngineClock = MonotonicEngineClock()
  ) {
    self.locked = locked
    self.changes = changes
    self.starter = starter
    self.clock = clock
    changes.start()
  }

  /// A shop kept in memory only.
  package convenience init(
    _ state: ShopState, starter: any ThreadStarter, clock: any EngineClock = MonotonicEngineClock()
  ) {
    let locked = LockedShop(state)
    self.init(locked: locked, changes: MemoryChanges(shop: locked, clock: clock), starter: starter, clock: clock)
  }

  /// Applies one mutation, or queues it for the shared writer; throws the shop's refusal.
  package func submit(_ mutation: Mutation) throws(ShopError) -> SubmittedChange {
    try changes.submit(mutation)
  }

  /// An event loop has ended a round of work: what it submitted may be committed now.
  package func roundEnded() { changes.roundEnded() }

  /// Throws what a change is answered while the shop refuses changes.
  package func checkWritable() throws(ShopError) { try locked.checkWritable() }

  /// Applies one mutation and waits until it is saved, for a caller that is not an event loop
  /// (a tool or a test making an account); throws when it was refused or not saved.
  package func applyAndWait(_ mutation: Mutation) throws {
    let commit: CommitTicket?
    switch try submit(mutation) {
    case .applied(_, let ticket):
      commit = ticket
    case .queued(let change):
      let answered = Semaphore()
      change.run(done: { answered.signal() })
      answered.wait()
      switch change.result {
      case .applied(_, let ticket)?: commit = ticket
      case .refused(let error)?: throw error
      case .failed(let failure)?: throw failure.reply
      case nil: preconditionFailure("answered only once the writer is done with it")
      }
    }
    guard let commit else { return }
    if case .failed(let failure) = commit.waitForOutcome() { throw failure.reply }
  }

  /// Makes an account from a hash made earlier with `PasswordHash.make`, as an operator does
  /// (`stockroomd user add`, a test's fixture): not self-registered, and saved before it returns.
  package func addAccount(name: String, passwordHash hash: String, role: Role) throws {
    let now = clock.wallTime()
    try applyAndWait(
      .createAccount(
        Account(name: try TextRules.userName(name), role: role, passwordHash: hash, created: now, updated: now),
        selfRegistered: false))
  }

  /// Runs `body` on a consistent view of the shop. Keep it short: the lock is held throughout.
  package func read<T: Sendable, E: Error>(_ body: (borrowing ShopState) throws(E) -> T) throws(E) -> T {
    try locked.read(body)
  }

  package var readOnlyReason: String? { locked.readOnlyReason }

  /// The shared store cannot be reached (never true for memory or SQLite).
  package var linkDown: Bool { locked.linkDown }

  package var accountsGeneration: Int { locked.accountsGeneration }

  /// The receipt of a keyed order already on disk, read there outside the lock.
  package func receipt(of key: OrderKey, orderID: Int) throws -> OrderReceipt {
    guard let history, let receipt = try history.receipt(of: key), receipt.order.id == orderID else {
      throw MissingReceipt(orderID: orderID)
    }
    return receipt
  }

  /// The ledger of one item, newest first, from the database or from memory.
  package func ledger(of item: String, paging: Paging) throws -> (entries: [LedgerEntry], total: Int) {
    if let history { return try history.ledger(of: item, paging: paging) }
    let all = changes.recentLedger(of: item)
    let page = paging.slice(all)
    return (page.items, page.total)
  }

  /// A page of the order history, newest first. The newest orders come from memory, which also
  /// holds those still being committed, so a client always sees its own order; with a database,
  /// the rest of the page comes from the file, where older orders certainly are. (After a
  /// restart memory holds only the orders made since.)
  package func orders(_ paging: Paging) throws -> Page<Order> {
    let (page, kept, newest, made) = locked.read { state in
      (state.orders.page(paging), state.orders.count, state.counters.nextOrderID - 1, state.ordersMade)
    }
    guard let history else { return page }
    let first = (paging.page - 1) * paging.size
    guard first + paging.size > kept else { return Page(items: page.items, paging: paging, total: made) }
    // Ids count up without gaps, so the n-th newest order is `newest - n`; memory holds the
    // newest `kept` of them, and the page's part of those is `page.items`.
    let high = newest - first - page.items.count
    let low = max(1, newest - first - paging.size + 1)
    guard high >= low else { return Page(items: page.items, paging: paging, total: made) }
    let older = try history.orders(from: low, through: high)
    return Page(items: page.items + older, paging: paging, total: made)
  }

  /// A page of `user`'s own orders, newest first: those made since start-up from memory, which
  /// holds every order newer than its oldest, and the older ones from the file.
  package func orders(of user: String, _ paging: Paging) throws -> Page<Order> {
    let (recent, oldest) = locked.read { state in
      (state.orders.newestFirst(of: user), state.orders.oldestID ?? state.counters.nextOrderID)
    }
    let first = (paging.page - 1) * paging.size
    let fromMemory = Array(recent.dropFirst(first).prefix(paging.size))
    guard let history else { return Page(items: fromMemory, paging: paging, total: recent.count) }
    let older = try history.orders(
      of: user, below: oldest, offset: max(0, first - recent.count), limit: paging.size - fromMemory.count)
    return Page(items: fromMemory + older.orders, paging: paging, total: recent.count + older.total)
  }

  /// How many orders `LIST orders` can page through: all of them with a database.
  package func listedOrders(_ state: borrowing ShopState) -> Int {
    history == nil ? state.orders.count : state.ordersMade
  }

  /// Runs the store's whole checks (`ShopHistory.verify`) on a thread of their own, so
  /// that a large shop is serving within a second or two of a restart instead of after them. A
  /// failure refuses writes until the file is repaired and the server restarted; reads go on.
  package func verifyInBackground(logger: Logger) {
    guard let database = history else { return }
    let thread = starter.thread(named: "sr-verify", quality: .utility)
    verification.withLock { $0 = thread }
    thread.start { [weak self, clock] in
      let started = clock.now()
      do {
        try database.verify()
        let elapsed = clock.elapsed(since: started)
        logger.info(
          "verified \(database.location): \(database.kind == .sqlite ? "pages sound, " : "")every item agrees with its ledger verify_ms=\(elapsed.milliseconds)"
        )
      } catch {
        logger.error("\(error); refusing writes: restore a backup, or repair the file and restart")
        self?.locked.markDamaged("the database failed its check: \(error)")
      }
    }
  }

  /// Writes what the change path holds, stops it, and waits for the background check: after
  /// this, once the shop is released, nothing holds the database open, so it can be opened
  /// again in this process (a restart in a test). Called on the change path's own thread, it
  /// does not wait for that thread, which lets the database go once its batch is answered.
  package func stopWriting() {
    changes.stop()
    verification.withLock({ $0 })?.join()
  }
}
