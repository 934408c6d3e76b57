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
  package internal(set) var phase = ConnectionPhase.open
  package internal(set) var closeReason = CloseReason.clientClosed
  package internal(set) var session: Session
  /// Set once the last reply is out: the transport shuts its sending side.
  package internal(set) var finishedWriting = false
  /// The client shut its sending side: answer what it sent, then close.
  package internal(set) var hasInputEnded = false
  /// No request is taken while set (backpressure, a request waiting behind pending work,
  /// closing); the bytes the client sends meanwhile wait in the kernel.
  package internal(set) var isReadingPaused = false
  /// When the client last sent a byte or took one.
  package internal(set) var lastActivity: UInt64
  /// When the first byte of a request line still missing its LF arrived.
  package internal(set) var partialLineSince: UInt64?
  /// Since when output has been waiting with none of it taken: the socket was full then, and
  /// the client has read nothing since.
  package internal(set) var outputStalledSince: UInt64?
  var closingSince: UInt64 = 0
  var bytesSeen = false
  var linesSeen = 0
  var input: [UInt8] = []
  var inputStart = 0
  /// Where to resume looking for LF, so a long line arriving in pieces is scanned once.
  var scanFrom = 0
  /// Grows with what the connection is sent and keeps what a steady client needs, so its requests
  /// allocate nothing; an idle one holds no more than its last replies took (see `keptCapacity`).
  var output = ReplyEncoder(capacity: 0)
  var outputStart = 0
  /// Replies waiting for their commit, each with what was answered after it, in order.
  var held: [HeldReply] = []
  /// The buffer of a held reply that has gone out, kept for the next reply to be held in: a
  /// durable change one at a time then moves buffers between the output and the hold instead of
  /// allocating one per request.
  var spare: [UInt8] = []
  package internal(set) var heldBytes = 0
  /// Work the next reply waits for (password work, a read of the database); no later request
  /// runs until it is done.
  package internal(set) var awaiting: PendingWork?
  /// Changes queued for a shared store's writer and not yet answered (each has its place in
  /// `held`), and how many of them change an account.
  package internal(set) var queuedChanges = 0
  var queuedAccountChanges = 0
  /// Where replies are written while earlier ones are held.
  var scratch = ReplyEncoder(capacity: 0)
  /// Input and output buffers up to this size are kept once drained, for the next request; a
  /// larger one (a burst, a long listing) is returned, so a connection that goes quiet after it
  /// does not hold it.
  static let keptCapacity = 16 * 1024
  /// What the host was last told about this connection's presence; nil while it is a guest.
  var presentAs: Presence.Entry?

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

  mutating func processInput(now: UInt64, host: some ConnectionHost) {
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
      if queuedChanges > 0 && !mayRunBesideQueuedChanges(line, host: host) {
        // It could show or depend on a change the writer has not answered yet: it waits,
        // unread, until the writer has (`changeAnswered`).
        isReadingPaused = true
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
}
