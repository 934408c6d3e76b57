import StockroomDomain
import StockroomProtocol

/// Everything one connection decides, as a value: bytes in, bytes out.
///
/// It frames request lines, runs them through its host, holds a reply that waits for its commit
/// (and everything answered after it, replies and events alike) so replies leave in request order
/// and only once they are true on disk, stops taking lines while output is backed up, and says
/// when and why the connection closes. It touches no socket, loop or clock: the transport feeds
/// it what it read and the time, writes what it gives, and acts on its `phase`, `isReadingPaused`
/// and `nextDeadline`.
package struct ConnectionCore {
  package let limits: ConnectionLimits
  package private(set) var phase = ConnectionPhase.open
  package private(set) var closeReason = CloseReason.clientClosed
  package private(set) var session: Session
  /// Set once the last reply is out: the transport shuts its sending side.
  package private(set) var finishedWriting = false
  /// The client shut its sending side: answer what it sent, then close.
  package private(set) var hasInputEnded = false
  /// No request is taken while set (backpressure, a request waiting behind pending work,
  /// closing); the bytes the client sends meanwhile wait in the kernel.
  package private(set) var isReadingPaused = false
  /// When the client last sent a byte or took one.
  package private(set) var lastActivity: UInt64
  /// When the first byte of a request line still missing its LF arrived.
  package private(set) var partialLineSince: UInt64?
  /// Since when output has been waiting with none of it taken: the socket was full then, and
  /// the client has read nothing since.
  package private(set) var outputStalledSince: UInt64?
  private var closingSince: UInt64 = 0
  private var bytesSeen = false
  private var linesSeen = 0
  private var input: [UInt8] = []
  private var inputStart = 0
  /// Where to resume looking for LF, so a long line arriving in pieces is scanned once.
  private var scanFrom = 0
  /// Grows with what the connection is sent and keeps what a steady client needs, so its requests
  /// allocate nothing; an idle one holds no more than its last replies took (see `keptCapacity`).
  private var output = ReplyEncoder(capacity: 0)
  private var outputStart = 0
  /// Replies waiting for their commit, each with what was answered after it, in order.
  private var held: [HeldReply] = []
  /// The buffer of a held reply that has gone out, kept for the next reply to be held in: a
  /// durable change one at a time then moves buffers between the output and the hold instead of
  /// allocating one per request.
  private var spare: [UInt8] = []
  package private(set) var heldBytes = 0
  /// Work the next reply waits for (password work, a change on a shared store); no later
  /// request runs until it is done.
  package private(set) var awaiting: PendingWork?
  /// Where replies are written while earlier ones are held.
  private var scratch = ReplyEncoder(capacity: 0)
  /// Input and output buffers up to this size are kept once drained, for the next request; a
  /// larger one (a burst, a long listing) is returned, so a connection that goes quiet after it
  /// does not hold it.
  private static let keptCapacity = 16 * 1024
  /// What the host was last told about this connection's presence; nil while it is a guest.
  private var presentAs: Presence.Entry?

  package init(
    limits: ConnectionLimits, now: UInt64, transport: TransportSecurity = .plaintextLocal, source: PeerSource? = nil,
    id: Int? = nil
  ) {
    self.limits = limits
    self.lastActivity = now
    self.session = Session(transport: transport, source: source, connectionID: id)
  }

  /// Greets the client; a turned-away one gets `rejection` instead and is closed once it is out.
  package mutating func start(rejection: ProtocolError?, now: UInt64) {
    lastActivity = now
    if let rejection {
      output.error(rejection)
      closeReason = .rejected
      phase = .closing
      closingSince = now
      isReadingPaused = true
      return
    }
    output.ok(
      "stockroomd \(ProtocolVersion.serverVersion) protocol=\(ProtocolVersion.current) ready; type HELP for commands")
  }

  // MARK: Input

  /// Bytes the client sent. After the last reply they are dropped as they arrive.
  package mutating func received(_ bytes: UnsafeRawBufferPointer, now: UInt64, host: some ConnectionHost) {
    lastActivity = now
    guard phase == .open else { return }
    if !bytesSeen {
      bytesSeen = true
      if let foreign = ForeignProtocol.detect(firstBytes: bytes) {
        refuse(foreign, now: now, host: host)
        return
      }
    }
    input.append(contentsOf: bytes)
    processInput(now: now, host: host)
  }

  package mutating func received(_ bytes: [UInt8], now: UInt64, host: some ConnectionHost) {
    bytes.withUnsafeBytes { received($0, now: now, host: host) }
  }

  /// The client shut its sending side, or closed.
  package mutating func inputEnded(now: UInt64, host: some ConnectionHost) {
    guard phase == .open, !hasInputEnded else {
      close(phase == .draining ? closeReason : .clientClosed, host: host)
      return
    }
    // A half-close means "no more requests", not "stop answering": a script that sends and
    // then shuts its side (nc -N, nc -q) still gets every reply, after its commit.
    hasInputEnded = true
    processInput(now: now, host: host)
  }

  private mutating func processInput(now: UInt64, host: some ConnectionHost) {
    let maxLine = limits.maxLine
    while phase == .open {
      if awaiting != nil {
        // Who the next request runs as may depend on a pending LOGIN, what it reads on a
        // pending change: it waits, unread. Reading stops only once such a request is here, so
        // a client with one request in flight costs no change of epoll interest per request
        // (two system calls), and one that sends more meanwhile holds at most one read more.
        if inputStart < input.count { isReadingPaused = true }
        break
      }
      if pendingOutputCount + heldBytes >= limits.outputHighWater {
        // Backpressure: answer no more until this client reads what it asked for.
        isReadingPaused = true
        break
      }
      let lineEnd: Int
      if let lf = input[scanFrom...].firstIndex(of: UInt8(ascii: "\n")) {
        lineEnd = lf
      } else if hasInputEnded && inputStart < input.count {
        // The last line of a client that finished sending needs no LF to count.
        lineEnd = input.count
      } else {
        scanFrom = input.count
        if inputStart < input.count && partialLineSince == nil { partialLineSince = now }
        // A CR may be waiting for its LF in the next read; it does not count toward the limit.
        let pendingCR = input.last == UInt8(ascii: "\r") ? 1 : 0
        if input.count - inputStart - pendingCR > maxLine { tooLong(now: now, host: host) }
        break
      }
      partialLineSince = nil
      var end = lineEnd
      if end > inputStart && input[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      if end - inputStart > maxLine {
        tooLong(now: now, host: host)
        break
      }
      let line = input[inputStart..<end]
      if let foreign = ForeignProtocol.detect(line: line, isFirst: linesSeen == 0) {
        refuse(foreign, now: now, host: host)
        break
      }
      linesSeen += 1
      let watchingBefore = session.watching
      write(host: host) { session, out in host.handle(line, session: &session, out: &out) }
      inputStart = min(lineEnd + 1, input.count)
      scanFrom = inputStart
      if session.watching != watchingBefore { writeEvents(host.watchChanged(to: session.watching), host: host) }
      notePresence(host: host)
      if let reason = session.closing {
        closeReason = reason
        beginClosing(now: now, host: host)
      }
    }
    if hasInputEnded && phase == .open && inputStart == input.count && !isReadingPaused && awaiting == nil {
      closeReason = .inputEnded
      beginClosing(now: now, host: host)
    }
    if inputStart == input.count {
      input.removeAll(keepingCapacity: input.capacity <= Self.keptCapacity)
      inputStart = 0
      scanFrom = 0
    } else if inputStart >= 64 * 1024 {
      input.removeSubrange(..<inputStart)
      scanFrom -= inputStart
      inputStart = 0
    }
  }

  // MARK: Replies

  /// Writes one reply, or holds it back behind its commit or behind earlier held replies.
  private mutating func write(
    host: some ConnectionHost, _ reply: (inout Session, inout ReplyEncoder) -> ReplyWait?
  ) {
    if held.isEmpty {
      let mark = output.bytes.count
      // The usual reply waits for nothing, and leaves at once without a look at the cases.
      guard let wait = reply(&session, &output) else { return }
      if let behind = wait.held, mark == 0 {
        // The output is this reply alone: the hold takes its buffer, and the output the spare.
        var reply = spare
        spare = []
        swap(&reply, &output.bytes)
        hold(behind.ticket, behind.kind, reply: reply, host: host)
      } else if let behind = wait.held {
        hold(behind.ticket, behind.kind, reply: Array(output.bytes[mark...]), host: host)
        output.bytes.removeSubrange(mark...)
      } else if case .work(let work) = wait {
        run(work, host: host)
      }
    } else {
      scratch.bytes.removeAll(keepingCapacity: true)
      let wait = reply(&session, &scratch)
      if let behind = wait?.held {
        hold(behind.ticket, behind.kind, reply: scratch.bytes, host: host)
      } else {
        appendAfterHeld(scratch.bytes)
        if case .work(let work) = wait { run(work, host: host) }
      }
    }
  }

  private mutating func appendAfterHeld(_ bytes: [UInt8]) {
    held[held.count - 1].after += bytes
    heldBytes += bytes.count
  }

  private mutating func hold(_ ticket: CommitTicket, _ kind: HeldReply.Kind, reply: [UInt8], host: some ConnectionHost)
  {
    held.append(HeldReply(ticket: ticket, kind: kind, reply: reply))
    heldBytes += reply.count
    host.awaitCommit(ticket)
  }

  /// Runs work off the loop; its reply is written when it is done, and reading resumes then.
  private mutating func run(_ work: PendingWork, host: some ConnectionHost) {
    awaiting = work
    host.run(work)
  }

  /// The pending work is done: its reply is written, and requests are taken again.
  package mutating func workFinished(now: UInt64, host: some ConnectionHost) {
    guard phase != .closed, let work = awaiting else { return }
    awaiting = nil
    write(host: host) { session, out in host.finish(work, session: &session, out: &out) }
    notePresence(host: host)
    if let reason = session.closing, phase == .open {
      closeReason = reason
      beginClosing(now: now, host: host)
    } else if phase == .open {
      isReadingPaused = false
      processInput(now: now, host: host)
    } else if phase == .closing && held.isEmpty && pendingOutputCount == 0 {
      finishWriting(host: host)
    }
  }

  /// Moves every reply whose commit has finished, in order, to the output: the reply itself when
  /// the change is saved, an error in its place when it is not. True when any moved.
  @discardableResult
  package mutating func commitFinished() -> Bool {
    guard phase != .closed else { return false }
    var released = false
    while let outcome = held.first?.ticket.outcome {
      var first = held.removeFirst()
      switch outcome {
      case .committed:
        output.bytes += first.reply
      case .failed(let failure):
        output.error(first.failed(failure))
      }
      output.bytes += first.after
      heldBytes -= first.reply.count + first.after.count
      if spare.capacity < first.reply.capacity && first.reply.capacity <= Self.keptCapacity {
        first.reply.removeAll(keepingCapacity: true)
        spare = first.reply
      }
      released = true
    }
    return released
  }

  /// Writes `error` where the next reply would go: behind any reply still waiting for its commit.
  private mutating func appendError(_ error: ProtocolError) {
    if held.isEmpty {
      output.error(error)
    } else {
      scratch.bytes.removeAll(keepingCapacity: true)
      scratch.error(error)
      appendAfterHeld(scratch.bytes)
    }
  }

  /// Answers with `error`, runs nothing more of what the client sent, and closes.
  private mutating func endWith(_ error: ProtocolError, reason: CloseReason, now: UInt64, host: some ConnectionHost) {
    appendError(error)
    closeReason = reason
    input = []
    inputStart = 0
    scanFrom = 0
    partialLineSince = nil
    beginClosing(now: now, host: host)
  }

  private mutating func tooLong(now: UInt64, host: some ConnectionHost) {
    endWith(
      ProtocolError(.tooLong, "line longer than \(limits.maxLine) bytes; closing the connection"),
      reason: .lineTooLong, now: now, host: host)
  }

  private mutating func refuse(_ foreign: ForeignProtocol, now: UInt64, host: some ConnectionHost) {
    host.refused(foreign)
    endWith(foreign.refusal, reason: .foreignProtocol(foreign), now: now, host: host)
  }

  /// Tells the host when this connection logs in or out, or starts or stops watching.
  private mutating func notePresence(host: some ConnectionHost) {
    let now = session.account.map {
      Presence.Entry(account: $0, loginHash: session.loginHash, watching: session.watching != nil)
    }
    guard now != presentAs, phase != .closed else { return }
    presentAs = now
    host.presenceChanged(now)
  }

  // MARK: Events

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
  private var unsentEventCount: Int {
    var count = output.bytes.withUnsafeBytes { Self.eventLines(in: $0, from: outputStart) }
    for reply in held { count += reply.after.withUnsafeBytes { Self.eventLines(in: $0, from: 0) } }
    return count
  }

  /// How many lines of `bytes` that begin at or after `start` are events (`! `).
  private static func eventLines(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
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

  private mutating func writeEvents(_ events: [EncodedEvent], host: some ConnectionHost) {
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

  // MARK: Output

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

  // MARK: Closing

  /// Shutdown: read no more requests, answer those already taken (after their commit), then
  /// close as after a half-close.
  package mutating func shutdownRequested(now: UInt64, host: some ConnectionHost) {
    guard phase == .open else { return }
    closeReason = .serverStopping
    beginClosing(now: now, host: host)
  }

  private mutating func beginClosing(now: UInt64, host: some ConnectionHost) {
    guard phase == .open else { return }
    phase = .closing
    closingSince = now
    isReadingPaused = true
    writeEvents(host.watchChanged(to: nil), host: host)
    if pendingOutputCount == 0 && held.isEmpty && awaiting == nil { finishWriting(host: host) }
  }

  /// The last reply is out: the transport shuts its side, and reads and drops until the client
  /// closes, so the kernel does not answer unread bytes with a reset that could destroy that reply.
  private mutating func finishWriting(host: some ConnectionHost) {
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

  // MARK: Deadlines

  /// A watcher waits for events, and a reply waiting for its commit is the server's to finish:
  /// neither is the client being idle.
  private var isIdleCandidate: Bool { session.watching == nil && held.isEmpty && awaiting == nil }

  private var idleTimeout: UInt64 { UInt64(limits.idleTimeout) * 1_000_000_000 }
  private var lineTimeout: UInt64 { UInt64(limits.lineTimeout) * 1_000_000_000 }

  /// When this connection counts as idle, if it can now.
  private var idleDeadline: UInt64? {
    idleTimeout > 0 && isIdleCandidate ? lastActivity + idleTimeout : nil
  }

  private var watchTimeout: UInt64 { UInt64(limits.watchTimeout) * 1_000_000_000 }

  /// When a watcher that is not taking its output is closed, if it is one.
  private var watchDeadline: UInt64? {
    guard watchTimeout > 0, session.watching != nil, let since = outputStalledSince else { return nil }
    return since + watchTimeout
  }

  /// When the request line being received must be whole, if one is.
  private var lineDeadline: UInt64? {
    guard lineTimeout > 0, let since = partialLineSince else { return nil }
    return since + lineTimeout
  }

  private var closingDeadline: UInt64 {
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
