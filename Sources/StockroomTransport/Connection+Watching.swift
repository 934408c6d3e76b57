import StockroomEngine
import StockroomProtocol

/// A connection as a watcher: its mailbox, the events delivered from it, the watcher places it
/// holds, and the unsent-output budget that may cut it when it falls behind.
extension Connection {
  package func watchChanged(to watching: Set<String>?) -> [EncodedEvent] {
    // The loop task is made once per subscription, not per wake-up: a change watched by many
    // connections would otherwise allocate a closure for each of them. Both closures hold the
    // connection strongly: a weak reference gives it a side table, and then every wake-up and
    // every release of it took the runtime's slow path. The cycle (connection, mailbox, these
    // closures) is broken when the connection stops watching or is torn down, which drops the
    // mailbox here and in the hub; a wake-up still in flight then finds no mailbox.
    let deliver: @Sendable () -> Void = { [self] in deliverEvents() }
    let (mailbox, owed) = server.shop.hub.resubscribe(id, from: mailbox, to: watching) { [loop] in
      loop.execute(deliver)
    }
    self.mailbox = mailbox
    if watching == nil {
      server.handler.watcherPlaces.release(id)
    } else {
      server.handler.watcherPlaces.attach(id) { [self] held in yieldWatcherPlace(held: held) }
    }
    return owed
  }

  private func deliverEvents() {
    guard core.phase == .open, let mailbox else { return }
    let (overflowed, dropped) = mailbox.take(into: &eventBatch)
    // Emptied an event at a time: `removeAll(keepingCapacity:)` costs the general
    // `replaceSubrange`, more than the one or two events a watcher usually takes.
    defer { while !eventBatch.isEmpty { eventBatch.removeLast() } }
    if overflowed {
      // Closing drops what was queued too: none of it reaches the client.
      server.handler.stats.eventsDropped.add(eventBatch.count + dropped, ordering: .relaxed)
      closeNow(.watcherBehind(events: EventMailbox.capacity))
      return
    }
    core.eventsArrived(eventBatch, host: self)
    drive()
  }

  /// Tells the server's budget how far behind this watcher is (`UnsentOutputBudget`), which may
  /// choose it to be cut.
  func reportUnsent() {
    let bytes = core.unsentByteCount()
    // Checked here, before the closure below is made: a watcher that keeps up allocates nothing.
    guard bytes >= server.unsentBudget.threshold else {
      if inBudget { server.unsentBudget.forget(id) }
      inBudget = false
      return
    }
    inBudget = server.unsentBudget.report(id, source: source, bytes: bytes) { [self, loop] in
      loop.execute { [self] in
        core.cutForBudget(total: server.unsentBudget.total, host: self)
        tearDown()
      }
    }
  }

  /// Gives this watcher's place to a watcher from a source holding fewer (every watcher place
  /// was held and this one's source held `held`, the most), as `yieldPlace` does a connection's.
  private func yieldWatcherPlace(held: Int) {
    yield(.watcherPlaceTaken(held: held), reason: "watchers_full", count: ("address_watchers", held))
  }
}
