import StockroomDomain
import StockroomProtocol

/// The timeouts: an idle client, a request line too slow to arrive, a watcher not reading, a
/// closing connection whose owed output is not taken.
extension ConnectionCore {
  /// A watcher waits for events, and a reply waiting for its commit is the server's to finish:
  /// neither is the client being idle.
  var isIdleCandidate: Bool { session.watching == nil && held.isEmpty && awaiting == nil }

  var idleTimeout: UInt64 { UInt64(limits.idleTimeout) * 1_000_000_000 }
  var lineTimeout: UInt64 { UInt64(limits.lineTimeout) * 1_000_000_000 }

  /// When this connection counts as idle, if it can now.
  var idleDeadline: UInt64? {
    idleTimeout > 0 && isIdleCandidate ? lastActivity + idleTimeout : nil
  }

  var watchTimeout: UInt64 { UInt64(limits.watchTimeout) * 1_000_000_000 }

  /// When a watcher that is not taking its output is closed, if it is one.
  var watchDeadline: UInt64? {
    guard watchTimeout > 0, session.watching != nil, let since = outputStalledSince else { return nil }
    return since + watchTimeout
  }

  /// When the request line being received must be whole, if one is.
  var lineDeadline: UInt64? {
    guard lineTimeout > 0, let since = partialLineSince else { return nil }
    return since + lineTimeout
  }

  var closingDeadline: UInt64 {
    let grace = limits.closingGrace.components
    return closingSince + UInt64(grace.seconds) * 1_000_000_000 + UInt64(grace.attoseconds / 1_000_000_000)
  }

  /// When the connection must next be looked at (with `deadlineReached`), or nil when nothing can
  /// expire.
  package func nextDeadline(now: UInt64) -> UInt64? {
    switch phase {
    case .open:
      // What cannot expire now may by a timeout from now (a line starts, a watcher unwatches,
      // a watcher's socket fills).
      let idle = idleTimeout > 0 ? idleDeadline ?? now + idleTimeout : nil
      let line = lineTimeout > 0 ? lineDeadline ?? now + lineTimeout : nil
      let watch = watchTimeout > 0 ? watchDeadline ?? now + watchTimeout : nil
      return [idle, line, watch].compactMap { $0 }.min()
    case .closing:
      return closingDeadline
    case .draining, .closed:
      return nil
    }
  }

  /// Closes what has expired by `now`: a request line too slow to arrive, a watcher that stopped
  /// reading, an idle client, a closing connection whose owed output was not taken.
  package mutating func deadlineReached(now: UInt64, host: some ConnectionHost) {
    switch phase {
    case .open:
      if let deadline = lineDeadline, now >= deadline {
        endWith(
          ProtocolError(
            .timeout, "request line not finished within \(limits.lineTimeout) s; closing the connection"),
          reason: .lineTimeout(seconds: limits.lineTimeout), now: now, host: host)
        return
      }
      if let deadline = watchDeadline, now >= deadline {
        // Its socket is full, so a closing event would not reach it either: closed at once.
        close(.watcherNotReading(seconds: limits.watchTimeout, events: unsentEventCount), host: host)
        return
      }
      if let deadline = idleDeadline, now >= deadline {
        // Not a reply, since nothing was asked: an event line says why, and clients that do not
        // know it ignore it.
        output.beginEvent("closing")
        output.field("reason", "idle")
        output.field("idle_seconds", limits.idleTimeout)
        output.endLine()
        closeReason = .idle(seconds: limits.idleTimeout)
        beginClosing(now: now, host: host)
      }
    case .closing:
      if now >= closingDeadline {
        close(.closingTimedOut(seconds: Int(limits.closingGrace.components.seconds)), host: host)
      }
    case .draining, .closed:
      break
    }
  }
}
