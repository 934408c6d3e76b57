import StockroomEngine
import StockroomSystem

/// A connection while the server stops: it answers what it took, and counts as settled only
/// once its client's kernel holds every reply.
extension Connection {
  /// Shutdown: read no more requests, answer those already taken (after their commit), then
  /// close as after a half-close.
  package func shutdownRequested() {
    // Nothing is owed to a client still in its handshake: it has not been greeted.
    if handshaking {
      closeNow(.serverStopping)
      return
    }
    guard core.phase == .open else { return }
    core.shutdownRequested(now: loop.now, host: self)
    drive()
  }

  /// Every reply written and taken by the client's kernel: only the drain before the close (or
  /// nothing) is left. A reply handed to our kernel is not enough: the stop's close, with the
  /// client's input still arriving or unread, makes the kernel answer with a reset that throws
  /// away what it had yet to send (ShutdownTests.repliesInTheKernelOutliveTheStop).
  package var isSettled: Bool {
    switch core.phase {
    case .closed: true
    case .draining: core.hasInputEnded || ((try? Syscall.unacknowledgedByteCount(fd)) ?? 0) == 0
    case .open, .closing: false
    }
  }

  package func loopStopped() {
    closeNow(.serverStopping)
  }
}
