import StockroomDomain
import StockroomProtocol

/// What the transport sends: the unsent output, what the client took of it, and resuming requests
/// once it has taken everything.
extension ConnectionCore {
  /// Bytes written but not yet sent.
  package var pendingOutputCount: Int { output.bytes.count - outputStart }

  /// `pendingOutputCount` for a transport that holds its core in a class property, where a
  /// non-mutating call from another module copies the whole core (retaining everything in it)
  /// to make the call: mutating, though it changes nothing, so the core is reached in place.
  package mutating func unsentByteCount() -> Int { pendingOutputCount }

  /// Lends the unsent output to `body`, which writes what it can and reports it to `outputSent`.
  /// Mutating though it changes nothing, as `unsentByteCount` is.
  package mutating func withPendingOutput<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
  {
    try output.bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[outputStart...])) }
  }

  /// The client took `count` bytes of the pending output.
  package mutating func outputSent(_ count: Int, now: UInt64) {
    precondition(count <= pendingOutputCount, "sent more than was pending")
    outputStart += count
    if count > 0 {
      lastActivity = now
      outputStalledSince = nil
    }
  }

  /// The client takes no more for now: what it took is forgotten once there is enough of it.
  package mutating func outputBlocked(now: UInt64) {
    if outputStalledSince == nil { outputStalledSince = now }
    if outputStart >= 64 * 1024 {
      output.bytes.removeSubrange(..<outputStart)
      outputStart = 0
    }
  }

  /// Every pending byte is out: requests paused by backpressure are taken again (their lines are
  /// already buffered), and a closing connection with nothing more owed finishes writing.
  package mutating func outputDrained(now: UInt64, host: some ConnectionHost) {
    precondition(pendingOutputCount == 0, "output drained with bytes pending")
    outputStalledSince = nil
    output.bytes.removeAll(keepingCapacity: output.bytes.capacity <= Self.keptCapacity)
    outputStart = 0
    switch phase {
    case .open:
      if isReadingPaused {
        isReadingPaused = false
        processInput(now: now, host: host)
      }
    case .closing:
      if held.isEmpty && awaiting == nil { finishWriting(host: host) }
    case .draining, .closed:
      break
    }
  }

  /// Everything pending, as a client that reads at once would receive it, including what the
  /// requests it unblocks produce.
  package mutating func takeOutput(now: UInt64, host: some ConnectionHost) -> [UInt8] {
    var taken: [UInt8] = []
    while phase != .closed {
      let count = pendingOutputCount
      withPendingOutput { taken += $0 }
      outputSent(count, now: now)
      outputDrained(now: now, host: host)
      if pendingOutputCount == 0 { break }
    }
    return taken
  }
}
