import Foundation
import StockroomDomain
import StockroomLogging
import StockroomStorage
import StockroomSystem
import StockroomText
import Synchronization

/// The one shared shop every connection reads and changes.
///
/// A `Mutex` around the plain `ShopState` value makes every command atomic against every other
/// at about the cost of an uncontended lock; an actor would cost a task hop per request. All
/// changes arrive as `Mutation` values: through `apply`, the narrow door the committer stands
/// at, when this node's shop is the authority (memory, SQLite); through the shared writer
/// (`SharedWriter`, the `…Shared` methods here) when a PostgreSQL store shared by several
/// nodes is, and this shop is its cache. Nothing here does I/O while holding the lock.
package final class Store: Sendable {
  private struct Guarded {
    var shop: ShopState
    var writability = Writability.writable
    /// Set when the file failed its whole-file check: what writability returns to once a
    /// passing failure is over, since only a person can end this one.
    var damage: String?
    /// The recent ledger, for STOCKTAKE when there is no database.
    var ledger = LedgerLog()
  }

  private let state: Mutex<Guarded>
  /// Grows whenever an account is made, changed or removed (or the shop is read back), so a
  /// session can keep its role between requests and notice the moment it may be stale.
  private let accountGeneration = Atomic<Int>(0)
  package let hub = WatchHub()
  /// Fixed for the store's life, so readable without the lock.
  package let limits: ShopLimits
  /// nil when the shop lives in memory only, or in a shared store.
  package let committer: Committer?
  /// Set when the shop lives in a store shared by several nodes.
  package let writer: SharedWriter?
  private let reload: (@Sendable () throws -> ShopState)?
  /// Signalled once the background check (`verifyInBackground`), which holds the database
  /// open, is over; set only when one was started.
  private let verification = Mutex<StockroomSystem.Semaphore?>(nil)

  /// Where history (ledger, old orders, receipts) is read; nil in memory.
  package var journal: (any ShopJournal)? { committer?.database ?? writer?.database }

  /// A shop that is a cache of the shared store `writer` writes, holding its changes through
  /// `sequence`.
  package init(_ shop: ShopState, writer: SharedWriter, sequence: Int) {
    self.limits = shop.limits
    self.state = Mutex(Guarded(shop: shop))
    self.committer = nil
    self.writer = writer
    self.reload = nil
    writer.start(store: self, sequence: sequence)
  }

  package init(_ shop: ShopState, committer: Committer? = nil, reload: (@Sendable () throws -> ShopState)? = nil) {
    self.limits = shop.limits
    self.state = Mutex(Guarded(shop: shop))
    self.committer = committer
    self.writer = nil
    self.reload = reload
    guard let committer else { return }
    committer.deliver = { [hub] events in
      for mailbox in hub.deliver(events) { mailbox.notify() }
    }
    committer.onFailure = { [weak self] failure in self?.commitFailed(failure) ?? true }
    committer.onRecovery = { [weak self] in self?.recovered() ?? true }
    committer.onSettled = { [weak self] newest in self?.state.withLock { $0.shop.settleReceipts(through: newest) } }
    committer.start()
  }

  /// Applies one mutation atomically. Without a database, its watchers are woken at once and
  /// there is nothing to wait for; with one, the change is queued for the next group commit and
  /// the ticket says when it is safe to acknowledge.
  package func apply(_ mutation: Mutation) throws(ShopError) -> (Applied, CommitTicket?) {
    precondition(writer == nil, "a shared store's changes go through its writer")
    let now = Date()
    let (applied, wake, ticket): (Applied, [EventMailbox], CommitTicket?) = try state.withLock {
      state throws(ShopError) in
      if let refusal = state.writability.refusal { throw refusal }
      let applied = try state.shop.apply(mutation)
      switch applied.outcome {
      case .accountSaved, .accountDeleted: accountGeneration.add(1, ordering: .releasing)
      default: break
      }
      guard let committer else {
        for event in applied.events { state.ledger.append(LedgerEntry(event, at: now)) }
        return (applied, hub.deliver(applied.events), nil)
      }
      if case .reordered = applied.outcome {
        // Already on disk: nothing to write and nothing to wait for.
        return (applied, [], nil)
      }
      if case .ordered(_, repeated: true) = applied.outcome {
        // The first attempt may still be on its way to the disk: answer when it is there.
        return (applied, [], committer.enqueue(events: []) { _ in })
      }
      let levels = applied.events.map { state.shop.level(of: $0.item) }
      let counters = state.shop.counters
      let ticket = committer.enqueue(events: applied.events) { batch in
        batch.record(applied, levels: levels, counters: counters, at: now)
      }
      return (applied, [], ticket)
    }
    for mailbox in wake { mailbox.notify() }
    return (applied, ticket)
  }

  /// Throws what `apply` would for a store refusing changes, so a change bound for the shared
  /// writer is refused at once rather than after a trip through its queue.
  package func checkWritable() throws(ShopError) {
    try state.withLock { state throws(ShopError) in
      if let refusal = state.writability.refusal { throw refusal }
    }
  }

  /// Applies one mutation and waits until it is saved, for a caller that is not an event loop
  /// (a tool or a test making an account); throws when it was refused or not saved.
  package func applyAndWait(_ mutation: Mutation) throws {
    guard let writer else {
      // Saved by the next commit, as any change is.
      _ = try apply(mutation)
      return
    }
    try checkWritable()
    let done = Semaphore()
    let ticket = ChangeTicket(ChangeRequest(mutation) { _, _, _ in })
    ticket.run(writer: writer, done: { done.signal() })
    done.wait()
    switch ticket.result {
    case .applied?, nil: return
    case .refused(let error)?: throw error
    case .failed(let failure)?: throw failure.reply
    }
  }

  /// Runs `body` on a consistent view of the shop. Keep it short: the lock is held throughout.
  /// Makes an account from a hash made earlier with `PasswordHash.make`, as an operator does
  /// (`stockroomd user add`, a test's fixture): not self-registered, and saved before it returns.
  package func addAccount(name: String, passwordHash hash: String, role: Role) throws {
    let now = Date()
    try applyAndWait(
      .createAccount(
        Account(name: try TextRules.userName(name), role: role, passwordHash: hash, created: now, updated: now),
        selfRegistered: false))
  }

  package func read<T: Sendable, E: Error>(_ body: (borrowing ShopState) throws(E) -> T) throws(E) -> T {
    try state.withLock { state throws(E) in try body(state.shop) }
  }

  package var readOnlyReason: String? { state.withLock { $0.writability.reason } }

  /// The shared store cannot be reached (never true for memory or SQLite).
  package var linkDown: Bool { state.withLock { $0.writability.isUnreachable } }

  package var accountsGeneration: Int { accountGeneration.load(ordering: .acquiring) }

  /// The receipt of a keyed order already on disk, read there outside the lock.
  package func receipt(of key: OrderKey, orderID: Int) throws -> OrderReceipt {
    guard let journal, let receipt = try journal.receipt(of: key), receipt.order.id == orderID else {
      throw StorageError("the receipt of order \(orderID) is missing from the database")
    }
    return receipt
  }

  /// The ledger of one item, newest first, from the database or from memory.
  package func ledger(of item: String, paging: Paging) throws -> (entries: [LedgerEntry], total: Int) {
    if let journal { return try journal.ledger(of: item, paging: paging) }
    let all = state.withLock { $0.ledger.entries(of: item) }
    let page = paging.slice(all)
    return (page.items, page.total)
  }

  /// A page of the order history, newest first. The newest orders come from memory, which also
  /// holds those still being committed, so a client always sees its own order; with a database,
  /// the rest of the page comes from the file, where older orders certainly are. (After a
  /// restart memory holds only the orders made since.)
  package func orders(_ paging: Paging) throws -> Page<Order> {
    let (page, kept, newest, made) = state.withLock { state in
      (
        state.shop.orders.page(paging), state.shop.orders.count, state.shop.counters.nextOrderID - 1,
        state.shop.ordersMade
      )
    }
    guard let journal else { return page }
    let first = (paging.page - 1) * paging.size
    guard first + paging.size > kept else { return Page(items: page.items, paging: paging, total: made) }
    // Ids count up without gaps, so the n-th newest order is `newest - n`; memory holds the
    // newest `kept` of them, and the page's part of those is `page.items`.
    let high = newest - first - page.items.count
    let low = max(1, newest - first - paging.size + 1)
    guard high >= low else { return Page(items: page.items, paging: paging, total: made) }
    let older = try journal.orders(from: low, through: high)
    return Page(items: page.items + older, paging: paging, total: made)
  }

  /// A page of `user`'s own orders, newest first: those made since start-up from memory, which
  /// holds every order newer than its oldest, and the older ones from the file.
  package func orders(of user: String, _ paging: Paging) throws -> Page<Order> {
    let (recent, oldest) = state.withLock { state in
      (state.shop.orders.newestFirst(of: user), state.shop.orders.oldestID ?? state.shop.counters.nextOrderID)
    }
    let first = (paging.page - 1) * paging.size
    let fromMemory = Array(recent.dropFirst(first).prefix(paging.size))
    guard let journal else { return Page(items: fromMemory, paging: paging, total: recent.count) }
    let older = try journal.orders(
      of: user, below: oldest, offset: max(0, first - recent.count), limit: paging.size - fromMemory.count)
    return Page(items: fromMemory + older.orders, paging: paging, total: recent.count + older.total)
  }

  /// How many orders `LIST orders` can page through: all of them with a database.
  package func listedOrders(_ shop: borrowing ShopState) -> Int {
    journal == nil ? shop.orders.count : shop.ordersMade
  }

  /// Runs the store's whole checks (`ShopJournal.verify`) on a thread of their own, so
  /// that a large shop is serving within a second or two of a restart instead of after them. A
  /// failure refuses writes until the file is repaired and the server restarted; reads go on.
  package func verifyInBackground(logger: Logger) {
    guard let database = journal else { return }
    let finished = StockroomSystem.Semaphore()
    verification.withLock { $0 = finished }
    let thread = Thread { [weak self] in
      defer { finished.signal() }
      CurrentThread.setName("sr-verify")
      let started = ContinuousClock.now
      do {
        try database.verify()
        let elapsed = ContinuousClock.now - started
        logger.info(
          "verified \(database.location): \(database.kind == .sqlite ? "pages sound, " : "")every item agrees with its ledger verify_ms=\(elapsed.milliseconds)"
        )
      } catch {
        logger.error("\(error); refusing writes: restore a backup, or repair the file and restart")
        self?.state.withLock { state in
          let damage = "the database failed its check: \(error)"
          state.damage = damage
          // A passing failure keeps its place (and its read-back); recovering from it lands here.
          if state.writability == .writable { state.writability = .damaged(damage) }
        }
      }
    }
    thread.qualityOfService = .utility
    thread.start()
  }

  /// Writes what the committer or shared writer holds, stops it, and waits for the background
  /// check: after this, once the store is released, nothing holds the database open, so it can
  /// be opened again in this process (a restart in a test).
  package func stopWriting() {
    committer?.stop()
    writer?.stop()
    guard let finished = verification.withLock({ $0 }) else { return }
    finished.wait()
    finished.signal()
  }

  /// A commit failed: fail whatever was queued after it and go back to what the disk holds, so
  /// the shop in memory never runs ahead of the disk; an I/O failure also refuses writes until
  /// the disk takes them again. Returns false when the disk could not be read back: then the shop
  /// in memory is not what the disk holds, and writes stay refused (rather than exiting, which
  /// would stop reads too) until a reload works.
  private func commitFailed(_ failure: CommitFailure) -> Bool {
    let reloaded = Result { try reload?() }
    return state.withLock { state in
      committer?.failPending(CommitFailure(failure.kind, "an earlier change could not be saved: \(failure.message)"))
      switch failure.kind {
      case .io: state.writability = .diskFailing(failure.message)
      case .unreachable: state.writability = .unreachable(failure.message)
      case .logic: break
      }
      switch reloaded {
      case .success(let shop?):
        state.shop = shop
        accountGeneration.add(1, ordering: .releasing)
      case .success(nil): break
      case .failure(let error):
        state.writability = .unreadable(
          "the shop could not be read back from the disk after a failed commit: \(error)",
          unreachable: state.writability.isUnreachable)
        return false
      }
      return true
    }
  }

  /// Writing works again; a shop that could not be read back after a failure is read now.
  private func recovered() -> Bool {
    let readBack = state.withLock { $0.writability.needsReadBack }
    let reloaded = readBack ? Result { try reload?() } : .success(nil)
    return state.withLock { state in
      switch reloaded {
      case .success(let shop):
        if let shop {
          state.shop = shop
          accountGeneration.add(1, ordering: .releasing)
        }
        state.writability = state.damage.map(Writability.damaged) ?? .writable
        return true
      case .failure(let error):
        state.writability = .unreadable(
          "the shop could not be read back from the disk after a failed commit: \(error)",
          unreachable: state.writability.isUnreachable)
        return false
      }
    }
  }

  // MARK: The shared writer's side (its thread only)

  /// Applies this node's mutations to the cache, in order, while the shared writer holds the
  /// store's writers' lock; returns each one's result, the rows and log entry of those that
  /// changed something (nil when none did), their events and the newest order among them.
  package func applyShared(_ mutations: [Mutation]) -> (
    results: [ChangeTicket.Result], change: PreparedChange?, events: [StockEvent], newestOrder: Int?
  ) {
    let now = Date()
    return state.withLock { state in
      let before = state.shop.counters
      var batch = JournalBatch()
      var results: [ChangeTicket.Result] = []
      var logged: [Mutation] = []
      var events: [StockEvent] = []
      for mutation in mutations {
        do throws(ShopError) {
          let applied = try state.shop.apply(mutation)
          results.append(.applied(applied))
          switch applied.outcome {
          case .reordered, .ordered(_, repeated: true):
            // A retried keyed order changes nothing: its first attempt is already in the store.
            continue
          case .accountSaved, .accountDeleted: accountGeneration.add(1, ordering: .releasing)
          default: break
          }
          let levels = applied.events.map { state.shop.level(of: $0.item) }
          batch.record(applied, levels: levels, counters: state.shop.counters, at: now)
          logged.append(mutation)
          events += applied.events
        } catch {
          results.append(.refused(error))
        }
      }
      guard !logged.isEmpty else { return (results, nil, [], nil) }
      let digest = ShopDigest.of(state.shop, after: events)
      return (
        results, PreparedChange(batch: batch, mutations: logged, digest: digest, countersBefore: before), events,
        batch.receipts.last?.order.id
      )
    }
  }

  /// This node's change committed: watchers hear of it, and its keyed receipts can be read from
  /// the store from now on.
  package func committedShared(events: [StockEvent], settledThrough newestOrder: Int?) {
    let wake = state.withLock { state in
      if let newestOrder { state.shop.settleReceipts(through: newestOrder) }
      return hub.deliver(events)
    }
    for mailbox in wake { mailbox.notify() }
  }

  /// Replays a change another node committed, and tells watchers. Throws when the replay does
  /// not end where it ended on that node: the cache has diverged and must be loaded again.
  package func replayShared(_ record: ChangeRecord) throws {
    let wake = try state.withLock { state throws -> [EventMailbox] in
      var events: [StockEvent] = []
      for mutation in record.mutations {
        let applied = try state.shop.apply(mutation)
        switch applied.outcome {
        case .accountSaved, .accountDeleted: accountGeneration.add(1, ordering: .releasing)
        default: break
        }
        events += applied.events
      }
      guard ShopDigest.of(state.shop, after: events) == record.digest else {
        throw StorageError("replaying change \(record.sequence) from \(record.node) did not give what it gave there")
      }
      // Already in the store, so their receipts are read there.
      state.shop.settleReceipts(through: state.shop.counters.nextOrderID - 1)
      return hub.deliver(events)
    }
    for mailbox in wake { mailbox.notify() }
  }

  /// The shop as loaded from the store again: watchers get a `cause=resync` event for every
  /// item whose level is not what they were last told.
  package func replaceShared(_ shop: ShopState) {
    let wake = state.withLock { state in
      let old = state.shop
      state.shop = shop
      accountGeneration.add(1, ordering: .releasing)
      var events: [StockEvent] = []
      for item in Set(old.stock.keys).union(shop.stock.keys).sorted() {
        let was = old.level(of: item)?.current ?? 0
        let now = shop.level(of: item)?.current ?? 0
        guard was != now else { continue }
        events.append(
          StockEvent(item: item, name: shop.displayName(of: item), level: now, change: now - was, cause: .resync))
      }
      return hub.deliver(events)
    }
    for mailbox in wake { mailbox.notify() }
  }

  /// The store cannot be reached: changes are refused, reads go on from the cache, and
  /// watchers are told their levels may go stale.
  package func sharedLinkLost(_ reason: String) {
    let wake = state.withLock { state in
      state.writability = .unreachable(reason)
      return hub.announce(.down(reason: reason))
    }
    for mailbox in wake { mailbox.notify() }
  }

  /// The store answers again and the cache was loaded from it (resync events already sent).
  package func sharedLinkRestored() {
    let wake = state.withLock { state in
      state.writability = state.damage.map(Writability.damaged) ?? .writable
      return hub.announce(.up)
    }
    for mailbox in wake { mailbox.notify() }
  }
}
