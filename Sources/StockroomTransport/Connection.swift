import CStockroomSystem
import StockroomDomain
import StockroomEngine
import StockroomProtocol
import StockroomSystem
import StockroomTLS

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
package final class Connection: EventLoop.Handler, CommandHandlerHost, @unchecked Sendable {
  /// Whether this connection counts as a client, decided at accept and never by how it ends:
  /// a turned-away peer that resets must not free a client's place.
  package enum Admission: Sendable {
    case client
    /// Gets `ERR LIMIT` instead of the greeting and is closed.
    case rejected
  }

  package let id: Int
  package let peer: String
  /// Its address as `--max-clients-per-address` counts it.
  package let source: PeerSource
  package let loop: EventLoop
  package var executor: any LoopExecutor { loop }
  package let admission: Admission
  // What is internal rather than private here is shared with `Connection+Watching.swift` and
  // `Connection+Stopping.swift`.
  let fd: Int32
  let server: ConnectionContext
  var core: ConnectionCore
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
  var mailbox: EventMailbox?
  /// Whether the server's unsent-output budget counts this connection now.
  var inBudget = false
  /// The mailbox's events are taken into this buffer and it is emptied after, so the two
  /// buffers trade places and a watcher allocates nothing per change.
  var eventBatch: [EncodedEvent] = []
  /// What the core's bytes go through: the socket, or TLS over it on the TLS port.
  private let stream: any ConnectionStream
  /// Until the handshake is done nothing of the core's is sent, and nothing is read for it.
  private(set) var handshaking: Bool
  private var handshakeTimer: EventLoop.TimerID?
  /// Which readiness a blocked write waits for: writability, or for TLS sometimes a read.
  private var writeWants: EventLoop.Interest = .write
  /// A read of what the stream already holds is queued on the loop.
  private var bufferedReadQueued = false
  /// Where the connection stands between the loop's idle sweeps: the stream's buffers are given
  /// back only after a whole sweep interval without a read or a write, and once.
  private enum Quiet {
    /// Something was read or written since the last sweep.
    case busy
    /// Nothing since the last sweep: the next one may give the buffers back.
    case quiet
    /// Given back, and nothing read or written since.
    case released
  }

  private var quiet = Quiet.busy

  package init(
    id: Int, fd: Int32, peer: SocketAddress, server: ConnectionContext, loop: EventLoop, admission: Admission = .client,
    transport: TransportSecurity = .plaintextLocal, tls: TLSChannel? = nil
  ) {
    self.id = id
    self.fd = fd
    self.peer = peer.description
    self.source = PeerSource(peer)
    self.server = server
    self.loop = loop
    self.admission = admission
    self.core = ConnectionCore(
      limits: server.limits, now: 0, transport: transport, source: source, id: id)
    if let tls {
      stream = TLSStream(fd: fd, channel: tls)
    } else {
      stream = PlainStream(fd: fd)
    }
    handshaking = stream.needsHandshake
  }

  /// Greets the client and starts reading; a rejected connection gets `rejection` instead.
  package func start(rejection: ProtocolError? = nil) {
    loop.execute { [self] in
      let rejected = admission == .rejected
      core.start(
        rejection: rejected ? rejection ?? ProtocolError(.limit, "server full; try again later") : nil, now: loop.now)
      // A TLS client speaks first (its ClientHello); the greeting waits for the handshake.
      let wanted: EventLoop.Interest = core.isReadingPaused && !handshaking ? [] : .read
      do throws(Errno) {
        try loop.register(fd, self, interest: wanted)
      } catch {
        closeNow(.cannotWatchSocket(error))
        return
      }
      registered = true
      interest = wanted
      if stream.holdsIdleBuffers { loop.requestIdleSweeps() }
      if handshaking {
        let limit = server.handshakeTimeout
        handshakeTimer = loop.schedule(after: limit) { [self] in handshakeTimedOut(limit) }
        return
      }
      armDeadline()
      drive()
    }
  }

  // MARK: Readiness

  package func ready(_ readiness: Readiness) {
    quiet = .busy
    if handshaking {
      continueHandshake()
      return
    }
    if !readiness.isDisjoint(with: [.readable, .hangUp]) {
      if !core.isReadingPaused {
        readable()
      } else if readiness.contains(.hangUp) {
        // A hang-up is reported whatever we asked for; with reading paused nobody would
        // look, and the loop would hear of it forever.
        closeNow(core.phase == .draining ? core.closeReason : .clientClosed)
        return
      }
    }
    if readiness.contains(.writable) && !tornDown { drive() }
  }

  /// A TLS connection quiet for a whole sweep interval, with nothing left to send, gives
  /// OpenSSL's record buffers back (about 34 KiB); the next request makes them again. Once a
  /// second at most, so a busy connection never pays for it.
  package func idleSweep() -> Bool {
    guard quiet == .quiet else {
      if quiet == .busy { quiet = .quiet }
      return false
    }
    guard !handshaking, !tornDown, stream.holdsIdleBuffers,
      core.unsentByteCount() == 0
    else { return false }
    // Buffers still holding a record are kept, and asked for again at the next sweep.
    guard stream.releaseIdleBuffers() else { return false }
    quiet = .released
    return true
  }

  package func commitFinished() {
    if core.commitFinished() { drive() }
  }

  package func workFinished() {
    guard !tornDown else { return }
    core.workFinished(now: loop.now, host: self)
    drive()
  }

  package func changeAnswered() {
    guard !tornDown else { return }
    core.changeAnswered(now: loop.now, host: self)
    drive()
  }

  // MARK: Reading and writing

  /// Feeds the core what the stream has, for as long as it takes requests: TLS may hold whole
  /// records the socket no longer shows, so one readiness is read until the stream runs dry.
  private func readable() {
    let readBuffer = loop.readBuffer
    reading: repeat {
      switch stream.read(into: readBuffer) {
      case .bytes(let count):
        core.received(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]), now: loop.now, host: self)
      case .wouldBlock:
        break reading
      case .ended:
        core.inputEnded(now: loop.now, host: self)
        break reading
      case .failed(let reason):
        // After the last reply only the client's goodbye was awaited: the reason stays.
        closeNow(core.phase == .draining ? core.closeReason : reason)
        return
      }
    } while stream.hasBufferedInput && !core.isReadingPaused && core.phase != .closed
    drive()
  }

  /// Writes what the core has for the client until it is out or the socket is full, lets the
  /// core act on a drained output (it may answer lines it had paused on), then brings the
  /// socket in line with the core: shut, closed, interest and deadline.
  func drive() {
    // The descriptor is closed with the connection, and its number may already be someone else's.
    guard !tornDown, !handshaking else { return }
    quiet = .busy
    // Phases are matched by case: `==` on the engine's enum is a call through its Equatable
    // witness, and these run every request.
    writing: while !core.phase.isClosed {
      if core.unsentByteCount() > 0 {
        switch core.withPendingOutput({ stream.write($0) }) {
        case .bytes(let count):
          core.outputSent(count, now: loop.now)
          continue writing
        case .blocked(let wants):
          writeArmed = true
          writeWants = wants
          core.outputBlocked(now: loop.now)
          break writing
        case .failed(let reason):
          closeNow(reason)
          return
        }
      }
      writeArmed = false
      core.outputDrained(now: loop.now, host: self)
      if core.unsentByteCount() == 0 { break }
    }
    settle()
  }

  private func settle() {
    if mailbox != nil || inBudget { reportUnsent() }
    if core.finishedWriting && !outputShut {
      outputShut = true
      stream.shutdownOutput()
      // A stop bounds its own wait (`ServerConfiguration.shutdownGrace`), and closing at two
      // seconds would cut a client still taking its replies from the kernel.
      if core.phase == .draining && core.closeReason != .serverStopping {
        lingerTimer = loop.schedule(after: .seconds(2)) { [self] in closeNow(core.closeReason) }
      }
    }
    switch core.phase {
    case .closed:
      tearDown()
      return
    case .closing: armDeadline()
    case .open, .draining: break
    }
    updateInterest()
    readBuffered()
  }

  /// Tells the loop what to wait for, when that has changed.
  private func updateInterest() {
    guard registered else { return }
    // After end of input there is nothing to read, and epoll would report it for ever.
    var wanted: EventLoop.Interest = core.isReadingPaused || core.hasInputEnded ? [] : .read
    if writeArmed { wanted.insert(writeWants) }
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

  /// Gives this connection's place to a newcomer from a source holding fewer (the server was
  /// full and this one's source held `held`, the most): closed on its loop, told why first when
  /// its socket takes it.
  package func yieldPlace(held: Int) {
    yield(.placeTaken(held: held), reason: "server_full", count: ("address_places", held))
  }

  func yield(_ closing: CloseReason, reason: String, count: (String, Int)) {
    loop.execute { [self] in
      guard !tornDown else { return }
      // Said only between lines: a reply half sent would be cut by it.
      guard !handshaking, core.unsentByteCount() == 0 else { return closeNow(closing) }
      var line = ReplyEncoder(capacity: 160)
      line.beginEvent("closing")
      line.field("reason", reason)
      line.field(named: count.0, count.1)
      line.endLine()
      _ = line.bytes.withUnsafeBytes { stream.write($0) }
      closeNow(closing)
    }
  }

  func closeNow(_ reason: CloseReason) {
    core.close(reason, host: self)
    tearDown()
  }

  func tearDown() {
    guard !tornDown else { return }
    tornDown = true
    server.shop.hub.unsubscribe(id)
    server.handler.watcherPlaces.release(id)
    mailbox = nil
    if inBudget { server.unsentBudget.forget(id) }
    inBudget = false
    if let lingerTimer { loop.cancel(lingerTimer) }
    lingerTimer = nil
    if let deadlineTimer { loop.cancel(deadlineTimer) }
    deadlineTimer = nil
    if let handshakeTimer { loop.cancel(handshakeTimer) }
    handshakeTimer = nil
    registered = false
    loop.close(fd)
    server.connectionClosed(self, core.closeReason)
  }

  // MARK: Handshake

  private func continueHandshake() {
    guard !tornDown else { return }
    switch stream.handshake() {
    case .done(let agreed):
      handshaking = false
      if let handshakeTimer { loop.cancel(handshakeTimer) }
      handshakeTimer = nil
      server.logger.info("tls id=\(id) peer=\(peer) \(agreed)")
      armDeadline()
      drive()
      // The client may have sent its first request with its last handshake message.
      if !tornDown && !core.isReadingPaused && stream.hasBufferedInput { readable() }
    case .wants(let want):
      setInterest(want)
    case .failed(let reason):
      server.logger.warning("tls handshake failed id=\(id) peer=\(peer) reason=\"\(reason)\"")
      closeNow(.tlsFailed(reason))
    case .foreign:
      server.logger.warning("not TLS on the TLS port id=\(id) peer=\(peer); closed without running anything")
      closeNow(.notTLS)
    }
  }

  private func handshakeTimedOut(_ limit: Duration) {
    handshakeTimer = nil
    guard handshaking, !tornDown else { return }
    let seconds = Int(limit.components.seconds)
    server.logger.warning("tls handshake not finished within \(seconds) s id=\(id) peer=\(peer); closed")
    closeNow(.tlsHandshakeTimeout(seconds: seconds))
  }

  /// Requests that arrived while reading was paused can be waiting inside the stream (TLS),
  /// where epoll cannot see them; once the core takes requests again they are read from there.
  private func readBuffered() {
    // Asked first: only TLS ever holds input the socket no longer shows.
    guard stream.hasBufferedInput, !bufferedReadQueued, !tornDown, !handshaking, !core.isReadingPaused,
      !core.hasInputEnded, case .open = core.phase
    else { return }
    bufferedReadQueued = true
    loop.execute { [self] in
      bufferedReadQueued = false
      guard !tornDown, !core.isReadingPaused, core.phase == .open else { return }
      readable()
    }
  }

  private func setInterest(_ wanted: EventLoop.Interest) {
    guard registered, wanted != interest else { return }
    do {
      try loop.change(fd, interest: wanted)
      interest = wanted
    } catch {
      closeNow(.cannotWatchSocket(error))
    }
  }

  // MARK: ConnectionHost (the rest is `CommandHandlerHost`'s)

  package var commandHandler: CommandHandler { server.handler }

  /// `CommandHandlerHost`'s own, but calling the handler where it is stored: through the
  /// `commandHandler` getter every request took a copy of it and retained and released each of
  /// its references (the shop, the stats, the pools, the logger, the clock and the rest).
  package func handle(_ line: ArraySlice<UInt8>, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    server.handler.handle(line, session: &session, out: &out)
  }

  /// The same, for the role a watcher's events are written for: asked once per watcher per
  /// event, where the copy cost about 600 instructions of the 2,400 a watcher took.
  package func role(_ session: inout Session) -> Role {
    server.handler.role(&session)
  }

  package func refused(_ foreign: ForeignProtocol) {
    server.logger.warning(
      "cross-protocol attempt id=\(id) peer=\(peer) protocol=\(foreign.rawValue); closed without running anything")
  }
}
