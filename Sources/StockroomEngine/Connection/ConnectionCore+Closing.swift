import StockroomDomain
import StockroomProtocol

/// Closing: answer what was taken, let the last reply out, then drain until the client closes.
extension ConnectionCore {
  /// Shutdown: read no more requests, answer those already taken (after their commit), then
  /// close as after a half-close.
  package mutating func shutdownRequested(now: UInt64, host: some ConnectionHost) {
    guard phase == .open else { return }
    closeReason = .serverStopping
    beginClosing(now: now, host: host)
  }

  mutating func beginClosing(now: UInt64, host: some ConnectionHost) {
    guard phase == .open else { return }
    phase = .closing
    closingSince = now
    isReadingPaused = true
    writeEvents(host.watchChanged(to: nil), host: host)
    if pendingOutputCount == 0 && held.isEmpty && awaiting == nil { finishWriting(host: host) }
  }

  /// The last reply is out: the transport shuts its side, and reads and drops until the client
  /// closes, so the kernel does not answer unread bytes with a reset that could destroy that reply.
  mutating func finishWriting(host: some ConnectionHost) {
    guard phase == .closing else { return }
    phase = .draining
    finishedWriting = true
    // A client that already finished sending has nothing left to drain.
    if hasInputEnded {
      close(closeReason, host: host)
      return
    }
    isReadingPaused = false
  }

  /// Ends the connection at once, for `reason`; whatever is unsent is lost.
  package mutating func close(_ reason: CloseReason, host: some ConnectionHost) {
    guard phase != .closed else { return }
    phase = .closed
    closeReason = reason
    if presentAs != nil { host.presenceChanged(nil) }
    presentAs = nil
  }
}
