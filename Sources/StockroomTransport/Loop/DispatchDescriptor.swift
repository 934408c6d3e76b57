import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One descriptor's Dispatch read and write sources on a `dispatch` loop's queue.
///
/// epoll reports a hang-up or an error even on a descriptor the loop is not reading, and a
/// connection waiting (for a password check, a commit, its client to read) is closed by it at
/// once. Dispatch has no such source, so while the loop does not want input the read source keeps
/// running and each event is checked with poll(): a hang-up or error is told as epoll's
/// `Readiness.hangUp`; input (or its end) waiting unread suspends the source until input is
/// wanted again, since it would fire for it again and again. A suspended source hears nothing,
/// so until then poll() looks for a hang-up every `hangUpCheckInterval`: without it a client
/// that reset with requests still unread (behind a LOGIN waiting out its throttle, say) held its
/// place among --max-clients until that work was done, seconds later, and a busy server turned
/// away new clients for dead ones. A hang-up that comes while reading is told once by
/// libdispatch; the loop's `HangUpSweep` looks for it after reads, and it is then told again
/// for as long as input is read (see `hungUpWhileReading`).
///
/// A descriptor closed while Dispatch still watches it is the hazard here: Dispatch stops
/// watching it later, by number, and by then the number may belong to a new connection. Dispatch's
/// documentation asks for the close in the cancel handler, so the loop closes a descriptor only
/// here, once every source on it has been cancelled (`retire`). (The libdispatch on this machine
/// was seen to cope with an earlier close in EventLoopTests.closeAndReopen; a platform's need
/// not.) Touched only on the loop's queue, which is what makes the unchecked `Sendable` sound.
package final class DispatchDescriptor: @unchecked Sendable {
  package let fd: Int32
  /// The loop's stamp for this registration, so an event from an earlier registration of the
  /// same descriptor is dropped, as epoll's loop does with its data word.
  package let generation: UInt32
  private let queue: DispatchQueue
  /// Told what the descriptor is ready for, as `EventLoop.Handler.ready` takes it.
  private let onEvent: (DispatchDescriptor, Readiness) -> Void
  /// Told once every source is gone (and the descriptor closed, if it was to be).
  private let onRetired: (DispatchDescriptor) -> Void
  private var reader: (any DispatchSourceProtocol)?
  private var writer: (any DispatchSourceProtocol)?
  /// Whether the loop wants input events (else the read source only watches for a hang-up).
  private var reading = false
  private var readerRunning = false
  private var writing = false
  /// Sources cancelled whose cancel handler has not run yet.
  private var cancelling = 0
  private var closesWhenCancelled = false
  private var isRetired = false
  /// A look for a hang-up is queued (`checkForHangUp`), so at most one is.
  private var hangUpCheckQueued = false
  /// Where a read is noted, for a look for a hang-up after it.
  private let sweep: HangUpSweep
  /// Noted in `sweep`'s list since its last look, so that a descriptor is there once.
  package var awaitsSweep = false

  /// How soon a hang-up behind unread input is noticed: epoll's loop notices at once; a poll()
  /// per paused descriptor this often costs next to nothing.
  package static let hangUpCheckInterval: DispatchTimeInterval = .milliseconds(100)

  package init(
    fd: Int32, generation: UInt32, queue: DispatchQueue, sweep: HangUpSweep,
    onEvent: @escaping (DispatchDescriptor, Readiness) -> Void, onRetired: @escaping (DispatchDescriptor) -> Void
  ) {
    self.fd = fd
    self.generation = generation
    self.queue = queue
    self.sweep = sweep
    self.onEvent = onEvent
    self.onRetired = onRetired
  }

  /// What the loop wants told: input, output or both; without input, the read source still
  /// watches for a hang-up (see above).
  package func watch(read: Bool, write: Bool) {
    if reading && !read {
      // A hang-up that came with the input just read raised no new event: look once, after
      // the turn that stopped reading.
      queue.async { [self] in
        if !reading && !isRetired && hungUp() { onEvent(self, .hangUp) }
      }
    }
    reading = read
    if let reader {
      if read && !readerRunning {
        reader.resume()
        readerRunning = true
      }
    } else {
      let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
      source.setEventHandler { [self] in readerFired() }
      reader = source
      source.resume()
      readerRunning = true
    }
    if write != writing {
      writing = write
      writer = switched(writer, on: write, telling: .writable) {
        DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
      }
    }
  }

  private func readerFired() {
    if reading {
      // No poll() here, one a request: the sweep looks for a hang-up left behind by this read.
      sweep.note(self)
      onEvent(self, .readable)
      return
    }
    if hungUp() {
      onEvent(self, .hangUp)
      return
    }
    reader?.suspend()
    readerRunning = false
    queueHangUpCheck()
  }

  /// The sweep saw a hang-up after a read. libdispatch told of it once, if at all; epoll's loop
  /// is level-triggered and tells it again, and so does this, until the input is read to its end
  /// (the handler then closes, or stops reading).
  package func hungUpWhileReading() {
    guard reading, !isRetired else { return }
    onEvent(self, [.readable, .hangUp])
    queue.async { [weak self] in self?.hungUpWhileReading() }
  }

  private func queueHangUpCheck() {
    guard !hangUpCheckQueued else { return }
    hangUpCheckQueued = true
    // Weak: a retired descriptor is let go by the loop, and a late check has nothing to do.
    queue.asyncAfter(deadline: .now() + Self.hangUpCheckInterval) { [weak self] in self?.checkForHangUp() }
  }

  /// While input waits unread with its source suspended: a hang-up is told as epoll would tell it.
  private func checkForHangUp() {
    hangUpCheckQueued = false
    // Reading again, the source is running and tells of a hang-up itself.
    guard !isRetired, !readerRunning, reader != nil else { return }
    // A handler that stays registered after a hang-up hears of it again, as with epoll.
    if hungUp() { onEvent(self, .hangUp) }
    queueHangUpCheck()
  }

  /// Whether poll() says hang-up or error, as epoll would: a reset or a closed connection, not a
  /// half-close (whose end of input waits to be read like any input).
  private func hungUp() -> Bool {
    var probe = pollfd(fd: fd, events: 0, revents: 0)
    return poll(&probe, 1, 0) == 1 && probe.revents & Int16(POLLHUP | POLLERR) != 0
  }

  /// `source` resumed or suspended; made by `make` when first wanted, its events told to the
  /// loop as `interest`.
  private func switched(
    _ source: (any DispatchSourceProtocol)?, on: Bool, telling readiness: Readiness,
    make: () -> any DispatchSourceProtocol
  ) -> (any DispatchSourceProtocol)? {
    if let source {
      if on { source.resume() } else { source.suspend() }
      return source
    }
    guard on else { return nil }
    let made = make()
    made.setEventHandler { [self] in onEvent(self, readiness) }
    made.resume()
    return made
  }

  /// Cancels every source; with `closing`, closes the descriptor once they are all gone. This
  /// object is done with afterwards: a registration of the same descriptor makes a new one.
  package func retire(closing: Bool) {
    guard !isRetired else { return }
    isRetired = true
    closesWhenCancelled = closing
    var sources: [(any DispatchSourceProtocol, running: Bool)] = []
    if let reader { sources.append((reader, readerRunning)) }
    if let writer { sources.append((writer, writing)) }
    reader = nil
    writer = nil
    cancelling = sources.count
    guard cancelling > 0 else {
      finishRetiring()
      return
    }
    for (source, running) in sources {
      // The handlers hold this object (and through `onEvent` the loop); a cancelled source drops
      // them once its cancel handler has run.
      source.setCancelHandler { [self] in
        cancelling -= 1
        if cancelling == 0 { finishRetiring() }
      }
      source.cancel()
      // A suspended source never runs its cancel handler, and releasing one traps.
      if !running { source.resume() }
    }
  }

  /// For a descriptor still retiring without closing (`EventLoop.deregister`): close it too,
  /// once its sources are gone.
  package func closeWhenRetired() {
    closesWhenCancelled = true
  }

  private func finishRetiring() {
    if closesWhenCancelled { _ = Glibc.close(fd) }
    onRetired(self)
  }
}
