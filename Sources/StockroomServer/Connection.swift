import CStockroomSystem
import StockroomDomain
import StockroomProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One client: its socket, buffers and session, on the event loop it belongs to.
///
/// Every mutable property is touched only on `loop`'s thread, which is what makes the unchecked
/// `Sendable` sound. The descriptor leaves the loop's epoll set before it is closed, so the loop
/// never reports a number the kernel has reused.
final class Connection: EventLoop.Handler, CommitWaiter, @unchecked Sendable {
  private enum State {
    /// Reading and answering requests.
    case open
    /// Answering no more; closing once unsent output is out.
    case closing
    /// Output is out and our side shut; discarding what the client still sends until it closes.
    case draining
    case closed
  }

  /// Whether this connection counts as a client, decided at accept and never by how it ends:
  /// a turned-away peer that resets must not free a client's place.
  enum Admission: Sendable {
    case client
    /// Gets `ERR LIMIT` instead of the greeting and is closed.
    case rejected
  }

  /// How long a closing connection may take to hand over what it owes (replies waiting for their
  /// commit, output the client has not read) before it is closed anyway.
  static let closingGrace: Duration = .seconds(30)

  let id: Int
  let peer: String
  let loop: EventLoop
  let admission: Admission
  private let fd: Int32
  private let server: ServerContext
  private var lingerTimer: EventLoop.TimerID?
  /// The one timer that enforces the idle, line and closing deadlines; it looks at the clock
  /// when it fires and sets itself again, so requests never touch it.
  private var deadlineTimer: EventLoop.TimerID?
  private var deadlineAt: UInt64 = 0
  /// When the client last sent a byte or took one (the loop's clock).
  private var lastActivity: UInt64 = 0
  /// When the first byte of a request line still missing its LF arrived.
  private var partialLineSince: UInt64?
  private var closingSince: UInt64 = 0
  /// The client shut its sending side: answer what it sent, then close.
  private var inputEnded = false
  private var bytesSeen = false
  private var linesSeen = 0
  private var registered = false
  private var readSuspended = false
  private var writeArmed = false
  /// What the loop's epoll set holds for `fd` now, so unchanged interest costs no system call.
  private var interest: EventLoop.Interest = []
  private var state = State.open
  private var input: [UInt8] = []
  private var inputStart = 0
  /// Where to resume looking for LF, so a long line arriving in pieces is scanned once.
  private var scanFrom = 0
  private var output = ReplyEncoder(capacity: 4096)
  private var outputStart = 0
  /// Replies waiting for their commit, each with what was answered after it, in order.
  private var held: [HeldReply] = []
  /// Password work the next reply waits for; no later request runs until it is done.
  private var awaitingCredential: CredentialTicket?
  private var heldBytes = 0
  /// Where replies are written while earlier ones are held.
  private var scratch = ReplyEncoder(capacity: 1024)
  private var session: Session
  private var mailbox: EventMailbox?
  /// What `Presence` was last told about this connection; nil while it is a guest.
  private var presentAs: Presence.Entry?
  private let readBuffer: UnsafeMutableRawBufferPointer
  private var closeReason = CloseReason.clientClosed

  init(id: Int, fd: Int32, peer: String, server: ServerContext, loop: EventLoop, admission: Admission = .client) {
    self.id = id
    self.fd = fd
    self.peer = peer
    self.server = server
    self.loop = loop
    self.admission = admission
    self.session = Session()
    self.readBuffer = .allocate(byteCount: 16 * 1024, alignment: 16)
  }

  deinit {
    readBuffer.deallocate()
  }

  private var pendingOutput: Int { output.bytes.count - outputStart }

  private struct HeldReply {
    let ticket: CommitTicket
    var reply: [UInt8]
    /// Replies and events that came after it, which must not overtake it.
    var after: [UInt8] = []
  }

  /// Greets the client and starts reading; a rejected connection gets `rejection` instead.
  func start(rejection: ProtocolError? = nil) {
    loop.execute { [self] in
      let rejected = admission == .rejected
      readSuspended = rejected
      do throws(Errno) {
        try loop.register(fd, self, interest: rejected ? [] : .read)
      } catch {
        closeNow(.cannotWatchSocket(error))
        return
      }
      registered = true
      interest = rejected ? [] : .read
      lastActivity = loop.now
      if rejected {
        output.error(rejection ?? ProtocolError(.limit, "server full; try again later"))
        closeReason = .rejected
        state = .closing
        closingSince = loop.now
        armDeadline()
        flush()
        return
      }
      output.ok(
        "stockroomd \(ProtocolVersion.serverVersion) protocol=\(ProtocolVersion.current) ready; type HELP for commands")
      armDeadline()
      flush()
    }
  }

  // MARK: Readiness

  func ready(_ events: UInt32) {
    if events & (sr_epoll_in | sr_epoll_hup | sr_epoll_err) != 0 {
      if !readSuspended {
        readable()
      } else if events & (sr_epoll_hup | sr_epoll_err) != 0 {
        // epoll reports a hang-up whatever we asked for; with reading paused nobody would
        // look, and the loop would hear of it forever.
        closeNow(state == .draining ? closeReason : .clientClosed)
        return
      }
    }
    if events & sr_epoll_out != 0 && state != .closed { flush() }
  }

  /// Shutdown: read no more requests, answer those already taken (after their commit), then
  /// close as after a half-close.
  func shutdownRequested() {
    guard state == .open else { return }
    closeReason = .serverStopping
    beginClosing()
    flush()
  }

  /// Every reply written: only the drain before the close (or nothing) is left.
  var isSettled: Bool { state == .draining || state == .closed }

  func loopStopped() {
    closeNow(.serverStopping)
  }

  /// Tells the loop what to wait for, when that has changed.
  private func updateInterest() {
    guard registered else { return }
    // After end of input there is nothing to read, and epoll would report it for ever.
    var wanted: EventLoop.Interest = readSuspended || inputEnded ? [] : .read
    if writeArmed { wanted.insert(.write) }
    guard wanted != interest else { return }
    do {
      try loop.change(fd, interest: wanted)
      interest = wanted
    } catch {
      closeNow(.cannotWatchSocket(error))
    }
  }

  // MARK: Reading

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
      guard state == .open, !inputEnded else {
        closeNow(state == .draining ? closeReason : .clientClosed)
        return
      }
      // A half-close means "no more requests", not "stop answering": a script that sends and
      // then shuts its side (nc -N, nc -q) still gets every reply, after its commit.
      inputEnded = true
      updateInterest()
      processInput()
      flush()
      return
    }
    lastActivity = loop.now
    switch state {
    case .open:
      let chunk = UnsafeRawBufferPointer(rebasing: readBuffer[..<count])
      if !bytesSeen {
        bytesSeen = true
        if let foreign = ForeignProtocol.detect(firstBytes: chunk) {
          refuse(foreign)
          flush()
          return
        }
      }
      input.append(contentsOf: chunk)
      processInput()
      flush()
    case .draining, .closing, .closed:
      // After the last reply nothing more is read into memory; it is dropped as it arrives.
      return
    }
  }

  private func processInput() {
    let maxLine = server.configuration.maxLine
    while state == .open {
      if awaitingCredential != nil {
        // Who the next request runs as may depend on the pending LOGIN; it waits, unread.
        pauseReading()
        break
      }
      if pendingOutput + heldBytes >= server.configuration.outputHighWater {
        // Backpressure: answer no more until this client reads what it asked for.
        pauseReading()
        break
      }
      let lineEnd: Int
      if let lf = input[scanFrom...].firstIndex(of: UInt8(ascii: "\n")) {
        lineEnd = lf
      } else if inputEnded && inputStart < input.count {
        // The last line of a client that finished sending needs no LF to count.
        lineEnd = input.count
      } else {
        scanFrom = input.count
        if inputStart < input.count && partialLineSince == nil { partialLineSince = loop.now }
        // A CR may be waiting for its LF in the next read; it does not count toward the limit.
        let pendingCR = input.last == UInt8(ascii: "\r") ? 1 : 0
        if input.count - inputStart - pendingCR > maxLine { tooLong() }
        break
      }
      partialLineSince = nil
      var end = lineEnd
      if end > inputStart && input[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      if end - inputStart > maxLine {
        tooLong()
        break
      }
      let line = input[inputStart..<end]
      if let foreign = ForeignProtocol.detect(line: line, isFirst: linesSeen == 0) {
        refuse(foreign)
        break
      }
      linesSeen += 1
      let watchingBefore = session.watching
      answer(line)
      inputStart = min(lineEnd + 1, input.count)
      scanFrom = inputStart
      if session.watching != watchingBefore { watchChanged() }
      notePresence()
      if let reason = session.closing {
        closeReason = reason
        beginClosing()
      }
    }
    if inputEnded && state == .open && inputStart == input.count && !readSuspended && awaitingCredential == nil {
      closeReason = .inputEnded
      beginClosing()
    }
    if inputStart == input.count {
      input.removeAll(keepingCapacity: input.capacity <= 256 * 1024)
      inputStart = 0
      scanFrom = 0
    } else if inputStart >= 64 * 1024 {
      input.removeSubrange(..<inputStart)
      scanFrom -= inputStart
      inputStart = 0
    }
  }

  /// Answers one request line. A reply that waits for a commit is held back, and so is
  /// everything after it, so replies leave in request order and only once they are true on disk.
  private func answer(_ line: ArraySlice<UInt8>) {
    write { handler, session, out in handler.handle(line, session: &session, out: &out) }
  }

  /// Writes one reply, or holds it back behind its commit or behind earlier held replies.
  private func write(_ reply: (CommandHandler, inout Session, inout ReplyEncoder) -> ReplyWait?) {
    if held.isEmpty {
      let mark = output.bytes.count
      switch reply(server.handler, &session, &output) {
      case nil: return
      case .credential(let ticket): runCredential(ticket)
      case .commit(let ticket):
        hold(ticket, reply: Array(output.bytes[mark...]))
        output.bytes.removeSubrange(mark...)
      }
    } else {
      scratch.bytes.removeAll(keepingCapacity: true)
      switch reply(server.handler, &session, &scratch) {
      case .commit(let ticket): hold(ticket, reply: scratch.bytes)
      case .credential(let ticket): runCredential(ticket)
      case nil:
        held[held.count - 1].after += scratch.bytes
        heldBytes += scratch.bytes.count
      }
    }
  }

  /// Runs password work; its reply is written when it is done, and reading resumes then.
  private func runCredential(_ ticket: CredentialTicket) {
    awaitingCredential = ticket
    ticket.run(on: loop, pool: server.handler.credentials) { [weak self] in self?.credentialFinished() }
  }

  private func credentialFinished() {
    guard state != .closed, let ticket = awaitingCredential else { return }
    awaitingCredential = nil
    write { handler, session, out in handler.finish(ticket, session: &session, out: &out) }
    notePresence()
    if let reason = session.closing, state == .open {
      closeReason = reason
      beginClosing()
    } else if state == .open {
      resumeReading()
      processInput()
    } else if state == .closing && held.isEmpty && pendingOutput == 0 {
      finishWriting()
    }
    flush()
  }

  private func hold(_ ticket: CommitTicket, reply: [UInt8]) {
    held.append(HeldReply(ticket: ticket, reply: reply))
    heldBytes += reply.count
    ticket.notify(self)
  }

  func commitFinished() {
    releaseHeld()
  }

  /// Moves every reply whose commit has finished, in order, to the output: the reply itself when
  /// the change is saved, an error in its place when it is not.
  private func releaseHeld() {
    guard state != .closed else { return }
    var released = false
    while let first = held.first, let outcome = first.ticket.outcome {
      switch outcome {
      case .committed:
        output.bytes += first.reply
      case .failed(let failure):
        output.error(failure.reply)
      }
      output.bytes += first.after
      heldBytes -= first.reply.count + first.after.count
      held.removeFirst()
      released = true
    }
    if released { flush() }
  }

  /// Writes `error` where the next reply would go: behind any reply still waiting for its commit.
  private func appendError(_ error: ProtocolError) {
    if held.isEmpty {
      output.error(error)
    } else {
      scratch.bytes.removeAll(keepingCapacity: true)
      scratch.error(error)
      held[held.count - 1].after += scratch.bytes
      heldBytes += scratch.bytes.count
    }
  }

  /// Answers with `error`, runs nothing more of what the client sent, and closes.
  private func endWith(_ error: ProtocolError, reason: CloseReason) {
    appendError(error)
    closeReason = reason
    input = []
    inputStart = 0
    scanFrom = 0
    partialLineSince = nil
    beginClosing()
  }

  private func tooLong() {
    endWith(
      ProtocolError(.tooLong, "line longer than \(server.configuration.maxLine) bytes; closing the connection"),
      reason: .lineTooLong)
  }

  private func refuse(_ foreign: ForeignProtocol) {
    server.logger.warning(
      "cross-protocol attempt id=\(id) peer=\(peer) protocol=\(foreign.rawValue); closed without running anything")
    endWith(foreign.refusal, reason: .foreignProtocol(foreign))
  }

  private func pauseReading() {
    guard !readSuspended else { return }
    readSuspended = true
    updateInterest()
  }

  private func resumeReading() {
    guard readSuspended else { return }
    readSuspended = false
    updateInterest()
  }

  /// Tells WHO's registry when this connection logs in or out, or starts or stops watching.
  private func notePresence() {
    let now = session.account.map {
      Presence.Entry(account: $0, loginHash: session.loginHash, watching: session.watching != nil)
    }
    guard now != presentAs, state != .closed else { return }
    presentAs = now
    server.handler.presence.update(id, now)
  }

  // MARK: Events

  private func watchChanged() {
    let old = mailbox
    if let watching = session.watching {
      let mailbox = EventMailbox(filter: watching.isEmpty ? nil : watching) { [weak self] in
        guard let self else { return }
        self.loop.execute { self.deliverEvents() }
      }
      self.mailbox = mailbox
      // Replaces the old mailbox in one step, so every change lands in one or the other.
      server.store.hub.subscribe(id, mailbox)
    } else {
      server.store.hub.unsubscribe(id)
      mailbox = nil
    }
    // Changes that reached the old mailbox came first and are still owed to the client.
    if let old { writeEvents(old.take().events) }
  }

  private func deliverEvents() {
    guard state == .open, let mailbox else { return }
    let (events, overflowed) = mailbox.take()
    if overflowed {
      closeNow(.watcherBehind(events: EventMailbox.capacity))
      return
    }
    writeEvents(events)
    if pendingOutput + heldBytes > server.configuration.outputHardLimit {
      closeNow(.outputOverflow(bytes: server.configuration.outputHardLimit))
      return
    }
    flush()
  }

  private func writeEvents(_ events: [StockEvent]) {
    guard !events.isEmpty else { return }
    // Who made a change is staff's to know; everyone else sees the change alone.
    let showUser = server.handler.role(&session) >= .staff
    if held.isEmpty {
      Self.encode(events, showUser: showUser, into: &output)
    } else {
      // An event must not overtake a reply still waiting for its commit.
      scratch.bytes.removeAll(keepingCapacity: true)
      Self.encode(events, showUser: showUser, into: &scratch)
      held[held.count - 1].after += scratch.bytes
      heldBytes += scratch.bytes.count
    }
  }

  private static func encode(_ events: [StockEvent], showUser: Bool, into output: inout ReplyEncoder) {
    for event in events {
      output.beginEvent("stock")
      output.field("item", event.item)
      output.field("name", event.name)
      output.field("level", event.level)
      output.field("change", CommandHandler.signed(event.change))
      output.field("cause", event.cause.name)
      if let order = event.cause.orderID { output.field("order", order) }
      if showUser { output.field("user", event.cause.user) }
      output.endLine()
    }
  }

  // MARK: Writing

  private func flush() {
    // The descriptor is closed with the connection, and its number may already be someone else's.
    guard state != .closed else { return }
    while outputStart < output.bytes.count {
      let result = output.bytes.withUnsafeBytes { bytes in
        Result { () throws(Errno) in try Syscall.write(fd, UnsafeRawBufferPointer(rebasing: bytes[outputStart...])) }
      }
      let written: Int
      switch result {
      case .success(let count): written = count
      case .failure(let error):
        if error.isWouldBlock {
          armWriting()
          if outputStart >= 64 * 1024 {
            output.bytes.removeSubrange(..<outputStart)
            outputStart = 0
          }
          return
        }
        closeNow(.writeFailed(error))
        return
      }
      outputStart += written
      if written > 0 { lastActivity = loop.now }
    }
    output.bytes.removeAll(keepingCapacity: output.bytes.capacity <= 256 * 1024)
    outputStart = 0
    disarmWriting()
    switch state {
    case .open:
      if readSuspended {
        resumeReading()
        // Lines that arrived while paused are already buffered; answer them now.
        processInput()
        if pendingOutput > 0 { flush() }
      }
    case .closing:
      if held.isEmpty && awaitingCredential == nil { finishWriting() }
    case .draining, .closed:
      break
    }
  }

  private func armWriting() {
    guard !writeArmed, state != .closed else { return }
    writeArmed = true
    updateInterest()
  }

  private func disarmWriting() {
    guard writeArmed else { return }
    writeArmed = false
    updateInterest()
  }

  // MARK: Closing

  private func beginClosing() {
    guard state == .open else { return }
    state = .closing
    closingSince = loop.now
    armDeadline()
    pauseReading()
    if let mailbox {
      writeEvents(mailbox.take().events)
      server.store.hub.unsubscribe(id)
      self.mailbox = nil
    }
    if pendingOutput == 0 && held.isEmpty && awaitingCredential == nil { finishWriting() }
  }

  /// The last reply is out: shut our side, and read and drop until the client closes, so the
  /// kernel does not answer its unread bytes with a reset that could destroy that reply.
  private func finishWriting() {
    guard state == .closing else { return }
    state = .draining
    Glibc.shutdown(fd, Int32(SHUT_WR))
    // A client that already finished sending has nothing left to drain.
    if inputEnded {
      closeNow(closeReason)
      return
    }
    lingerTimer = loop.schedule(after: .seconds(2)) { [self] in closeNow(closeReason) }
    resumeReading()
  }

  // MARK: Deadlines

  /// A watcher waits for events, and a reply waiting for its commit is the server's to finish:
  /// neither is the client being idle.
  private var isIdleCandidate: Bool { session.watching == nil && held.isEmpty && awaitingCredential == nil }

  private var idleTimeout: UInt64 { UInt64(server.configuration.idleTimeout) * 1_000_000_000 }
  private var lineTimeout: UInt64 { UInt64(server.configuration.lineTimeout) * 1_000_000_000 }

  /// When this connection counts as idle, if it can now.
  private var idleDeadline: UInt64? {
    idleTimeout > 0 && isIdleCandidate ? lastActivity + idleTimeout : nil
  }

  /// When the request line being received must be whole, if one is.
  private var lineDeadline: UInt64? {
    guard lineTimeout > 0, let since = partialLineSince else { return nil }
    return since + lineTimeout
  }

  private var closingDeadline: UInt64 { closingSince + EventLoop.nanoseconds(Self.closingGrace) }

  /// When the connection must next be looked at, or nil when nothing can expire.
  private func nextDeadline() -> UInt64? {
    switch state {
    case .open:
      // What cannot expire now may by a timeout from now (a line starts, a watcher unwatches).
      let now = EventLoop.clock()
      let idle = idleTimeout > 0 ? idleDeadline ?? now + idleTimeout : nil
      let line = lineTimeout > 0 ? lineDeadline ?? now + lineTimeout : nil
      return [idle, line].compactMap { $0 }.min()
    case .closing:
      return closingDeadline
    case .draining, .closed:
      return nil
    }
  }

  /// Sets the deadline timer for `nextDeadline()`, unless it already fires by then.
  private func armDeadline() {
    guard let deadline = nextDeadline() else { return }
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
    let configuration = server.configuration
    let now = EventLoop.clock()
    switch state {
    case .open:
      if let deadline = lineDeadline, now >= deadline {
        endWith(
          ProtocolError(
            .timeout,
            "request line not finished within \(configuration.lineTimeout) s; closing the connection"),
          reason: .lineTimeout(seconds: configuration.lineTimeout))
        flush()
        return
      }
      if let deadline = idleDeadline, now >= deadline {
        // Not a reply, since nothing was asked: an event line says why, and clients that do not
        // know it ignore it.
        output.beginEvent("closing")
        output.field("reason", "idle")
        output.field("idle_seconds", configuration.idleTimeout)
        output.endLine()
        closeReason = .idle(seconds: configuration.idleTimeout)
        beginClosing()
        flush()
        return
      }
    case .closing:
      if now >= closingDeadline {
        closeNow(.closingTimedOut(seconds: Int(Self.closingGrace.components.seconds)))
        return
      }
    case .draining, .closed:
      return
    }
    armDeadline()
  }

  // MARK: Closing now

  private func closeNow(_ reason: CloseReason) {
    guard state != .closed else { return }
    state = .closed
    closeReason = reason
    server.store.hub.unsubscribe(id)
    mailbox = nil
    if presentAs != nil { server.handler.presence.update(id, nil) }
    presentAs = nil
    if let lingerTimer { loop.cancel(lingerTimer) }
    lingerTimer = nil
    if let deadlineTimer { loop.cancel(deadlineTimer) }
    deadlineTimer = nil
    if registered { loop.deregister(fd) }
    registered = false
    Glibc.close(fd)
    server.connectionClosed(self, closeReason)
  }
}
