import StockroomDomain
import StockroomProtocol

/// Watch events: written in line with the replies, never ahead of a held one, and a watcher that
/// stops reading them is closed.
extension ConnectionCore {
  /// Events from the watch subscription. A watcher whose unsent output passes the hard limit is
  /// not reading, and is closed.
  package mutating func eventsArrived(_ events: [EncodedEvent], host: some ConnectionHost) {
    guard phase == .open else { return }
    writeEvents(events, host: host)
    if pendingOutputCount + heldBytes > limits.outputHardLimit {
      close(.outputOverflow(bytes: limits.outputHardLimit, events: unsentEventCount), host: host)
    }
  }

  /// Closes a watcher that `UnsentOutputBudget` chose to cut, counting what it loses.
  package mutating func cutForBudget(total: Int, host: some ConnectionHost) {
    guard phase != .closed else { return }
    close(.outputBudget(total: total, events: unsentEventCount), host: host)
  }

  /// Events written for the client whose line it has not begun to receive: what closing now
  /// loses. A line sent in part is not counted (its start may be gone from the buffer).
  var unsentEventCount: Int {
    var count = output.bytes.withUnsafeBytes { Self.eventLines(in: $0, from: outputStart) }
    for reply in held { count += reply.after.withUnsafeBytes { Self.eventLines(in: $0, from: 0) } }
    return count
  }

  /// How many lines of `bytes` that begin at or after `start` are events (`! `).
  static func eventLines(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    var count = 0
    var index = start
    while index + 1 < bytes.count {
      if bytes[index] == UInt8(ascii: "!") && bytes[index + 1] == UInt8(ascii: " ")
        && (index == 0 || bytes[index - 1] == UInt8(ascii: "\n"))
      {
        count += 1
      }
      index += 1
    }
    return count
  }

  mutating func writeEvents(_ events: [EncodedEvent], host: some ConnectionHost) {
    guard !events.isEmpty else { return }
    // Who made a change is staff's to know; everyone else sees the change alone.
    let showUser = host.role(&session) >= .staff
    if held.isEmpty {
      for event in events { output.bytes += event.line(showUser: showUser) }
    } else {
      // An event must not overtake a reply still waiting for its commit.
      scratch.bytes.removeAll(keepingCapacity: true)
      for event in events { scratch.bytes += event.line(showUser: showUser) }
      appendAfterHeld(scratch.bytes)
    }
  }
}
