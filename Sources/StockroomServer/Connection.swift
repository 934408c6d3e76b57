import CStockroomSystem
import StockroomDomain
import StockroomProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One client's socket on the event loop it belongs to: the transport around its
/// `ConnectionCore`.
///
/// It reads into the core, writes what the core gives, sets epoll interest and timers from what
/// the core says, and hands commit and credential completions back to it; what to answer, when,
/// and when to close is the core's to decide.
///
/// Every mutable property is touched only on `loop`'s thread, which is what makes the unchecked
/// `Sendable` sound. The descriptor leaves the loop's epoll set before it is closed, so the loop
/// never reports a number the kernel has reused.
final class Connection: EventLoop.Handler, CommitWaiter, ConnectionHost, @unchecked Sendable {
  /// Whether this connection counts as a client, decided at accept and never by how it ends:
  /// a turned-away peer that resets must not free a client's place.
  enum Admission: Sendable {
    case client
    /// Gets `ERR LIMIT` instead of the greeting and is closed.
    case rejected
  }

  let id: Int
  let peer: String
  let loop: EventLoop
  let admission: Admission
  private let fd: Int32
  private let server: ServerContext
  private var core: ConnectionCore
  private var lingerTimer: EventLoop.TimerID?
  /// The one timer that enforces the idle, line and closing deadlines; it looks at the clock
  /// when it fires and sets itself again, so requests never touch it.
  private var deadlineTimer: EventLoop.TimerID?
  private var deadlineAt: UInt64 = 0
  private var registered = false
  /// Set when a write would block, until the output is out.
  private var writeArmed = false
  /// Our sending side is shut (after the core finished writing).
  private var outputShut = false
  /// The descriptor is closed and the server told; nothing more is done for this connection.
  private var tornDown = false
  /// What the loop's epoll set holds for `fd` now, so unchanged interest costs no system call.
  private var interest: EventLoop.Interest = []
  private var mailbox: EventMailbox?
  private let readBuffer: UnsafeMutableRawBufferPointer

  init(id: Int, fd: Int32, peer: String, server: ServerContext, loop: EventLoop, admission: Admission = .client) {
    self.id = id
    self.fd = fd
    self.peer = peer
    self.server = server
    self.loop = loop
    self.admission = admission
    self.core = ConnectionCore(limits: ConnectionLimits(server.configuration), now: 0)
    self.readBuffer = .allocate(byteCount: 16 * 1024, alignment: 16)
  }

  deinit {
    readBuffer.deallocate()
  }

  /// Greets the client and starts reading; a rejected connection gets `rejection` instead.
  func start(rejection: ProtocolError? = nil) {
    loop.execute { [self] in
      let rejected = admission == .rejected
      core.start(
        rejection: rejected ? rejection ?? ProtocolError(.limit, "server full; try again later") : nil, now: loop.now)
      let wanted: EventLoop.Interest = core.isReadingPaused ? [] : .read
      do throws(Errno) {
        try loop.register(fd, self, interest: wanted)
      } catch {
        closeNow(.cannotWatchSocket(error))
        return
      }
      registered = true
      interest = wanted
      armDeadline()
      drive()
    }
  }

  // MARK: Readiness

  func ready(_ events: UInt32) {
    if events & (sr_epoll_in | sr_epoll_hup | sr_epoll_err) != 0 {
      if !core.isReadingPaused {
        readable()
      } else if events & (sr_epoll_hup | sr_epoll_err) != 0 {
        // epoll reports a hang-up whatever we asked for; with reading paused nobody would
        // look, and the loop would hear of it forever.
        closeNow(core.phase == .draining ? core.closeReason : .clientClosed)
        return
      }
    }
    if events & sr_epoll_out != 0 && !tornDown { drive() }
  }

  /// Shutdown: read no more requests, answer those already taken (after their commit), then
  /// close as after a half-close.
  func shutdownRequested() {
    guard core.phase == .open else { return }
    core.shutdownRequested(now: loop.now, host: self)
    drive()
  }

  /// Every reply written: only the drain before the close (or nothing) is left.
  var isSettled: Bool { core.phase == .draining || core.phase == .closed }

  func loopStopped() {
    closeNow(.serverStopping)
  }

  func commitFinished() {
    if core.commitFinished() { drive() }
  }

  private func workFinished() {
    guard !tornDown else { return }
    core.workFinished(now: loop.now, host: self)
    drive()
  }

  private func deliverEvents() {
    guard core.phase == .open, let mailbox else { return }
    let (events, overflowed, dropped) = mailbox.take()
    if overflowed {
      // Closing drops what was queued too: none of it reaches the client.
      server.handler.stats.eventsDropped.add(events.count + dropped, ordering: .relaxed)
      closeNow(.watcherBehind(events: EventMailbox.capacity))
      return
    }
    core.eventsArrived(events, host: self)
    drive()
  }

  // MARK: Reading and writing

  private func readable() {
    let count: Int
    do {
      count = try Syscall.read(fd, into: readBuffer)
    } catch {
      if error.isWouldBlock { return }
      closeNow(.readFailed(error))
      return
    }
    if count == 0 {
      core.inputEnded(now: loop.now, host: self)
    } else {
      core.received(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]), now: loop.now, host: self)
    }
    drive()
  }

  /// Writes what the core has for the client until it is out or the socket is full, lets the
  /// core act on a drained output (it may answer lines it had paused on), then brings the
  /// socket in line with the core: shut, closed, interest and deadline.
  private func drive() {
    // The descriptor is closed with the connection, and its number may already be someone else's.
    guard !tornDown else { return }
    writing: while core.phase != .closed {
      if core.pendingOutputCount > 0 {
        let result = core.withPendingOutput { bytes in
          Result { () throws(Errno) in try Syscall.write(fd, bytes) }
        }
        switch result {
        case .success(let count):
          core.outputSent(count, now: loop.now)
          continue writing
        case .failure(let error):
          if error.isWouldBlock {
            writeArmed = true
            core.outputBlocked()
            break writing
          }
          closeNow(.writeFailed(error))
          return
        }
      }
      writeArmed = false
      core.outputDrained(now: loop.now, host: self)
      if core.pendingOutputCount == 0 { break }
    }
    settle()
  }

  private func settle() {
    if core.finishedWriting && !outputShut {
      outputShut = true
      Glibc.shutdown(fd, Int32(SHUT_WR))
      if core.phase == .draining {
        lingerTimer = loop.schedule(after: .seconds(2)) { [self] in closeNow(core.closeReason) }
      }
    }
    if core.phase == .closed {
      tearDown()
      return
    }
    if core.phase == .closing { armDeadline() }
    updateInterest()
  }

  /// Tells the loop what to wait for, when that has changed.
  private func updateInterest() {
    guard registered else { return }
    // After end of input there is nothing to read, and epoll would report it for ever.
    var wanted: EventLoop.Interest = core.isReadingPaused || core.hasInputEnded ? [] : .read
    if writeArmed { wanted.insert(.write) }
    guard wanted != interest else { return }
    do {
      try loop.change(fd, interest: wanted)
      interest = wanted
    } catch {
      closeNow(.cannotWatchSocket(error))
    }
  }

  // MARK: Deadlines

  /// Sets the deadline timer for the core's next deadline, unless it already fires by then.
  private func armDeadline() {
    guard let deadline = core.nextDeadline(now: EventLoop.clock()) else { return }
    if let deadlineTimer {
      guard deadline < deadlineAt else { return }
      loop.cancel(deadlineTimer)
    }
    deadlineAt = deadline
    deadlineTimer = loop.schedule(at: deadline) { [self] in
      deadlineTimer = nil
      deadlineReached()
    }
  }

  private func deadlineReached() {
    let before = core.phase
    core.deadlineReached(now: EventLoop.clock(), host: self)
    if core.phase != before { drive() }
    if !tornDown { armDeadline() }
  }

  // MARK: Closing

  private func closeNow(_ reason: CloseReason) {
    core.close(reason, host: self)
    tearDown()
  }

  private func tearDown() {
    guard !tornDown else { return }
    tornDown = true
    server.store.hub.unsubscribe(id)
    mailbox = nil
    if let lingerTimer { loop.cancel(lingerTimer) }
    lingerTimer = nil
    if let deadlineTimer { loop.cancel(deadlineTimer) }
    deadlineTimer = nil
    if registered { loop.deregister(fd) }
    registered = false
    Glibc.close(fd)
    server.connectionClosed(self, core.closeReason)
  }

  // MARK: ConnectionHost

  func handle(_ line: ArraySlice<UInt8>, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    server.handler.handle(line, session: &session, out: &out)
  }

  func finish(_ work: PendingWork, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    server.handler.finish(work, session: &session, out: &out)
  }

  func role(_ session: inout Session) -> Role {
    server.handler.role(&session)
  }

  func awaitCommit(_ ticket: CommitTicket) {
    ticket.notify(self)
  }

  func run(_ work: PendingWork) {
    switch work {
    case .credential(let ticket):
      ticket.run(on: loop, pool: server.handler.credentials) { [weak self] in self?.workFinished() }
    case .change(let ticket):
      guard let writer = server.store.writer else { preconditionFailure("changes wait only on a shared store") }
      ticket.run(on: loop, writer: writer) { [weak self] in self?.workFinished() }
    }
  }

  func watchChanged(to watching: Set<String>?) -> [WatchEvent] {
    let old = mailbox
    if let watching {
      let mailbox = EventMailbox(filter: watching.isEmpty ? nil : watching) { [weak self] in
        guard let self else { return }
        self.loop.execute { self.deliverEvents() }
      }
      self.mailbox = mailbox
      // Replaces the old mailbox in one step, so every change lands in one or the other.
      server.store.hub.subscribe(id, mailbox)
    } else if old != nil {
      server.store.hub.unsubscribe(id)
      mailbox = nil
    }
    // Changes that reached the old mailbox came first and are still owed to the client.
    return old?.take().events ?? []
  }

  func presenceChanged(_ entry: Presence.Entry?) {
    server.handler.presence.update(id, entry)
  }

  func refused(_ foreign: ForeignProtocol) {
    server.logger.warning(
      "cross-protocol attempt id=\(id) peer=\(peer) protocol=\(foreign.rawValue); closed without running anything")
  }
}
