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

  let id: Int
  let peer: String
  let loop: EventLoop
  private let fd: Int32
  private let server: ServerContext
  private var lingerTimer: EventLoop.TimerID?
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
  private var heldBytes = 0
  /// Where replies are written while earlier ones are held.
  private var scratch = ReplyEncoder(capacity: 1024)
  private var session: Session
  private var mailbox: EventMailbox?
  private let readBuffer: UnsafeMutableRawBufferPointer
  private var closeReason = "client closed"

  init(id: Int, fd: Int32, peer: String, server: ServerContext, loop: EventLoop) {
    self.id = id
    self.fd = fd
    self.peer = peer
    self.server = server
    self.loop = loop
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

  /// Greets the client and starts reading. `rejection` turns the connection away instead.
  func start(rejection: ProtocolError? = nil) {
    loop.execute { [self] in
      readSuspended = rejection != nil
      do {
        try loop.register(fd, self, interest: rejection == nil ? .read : [])
      } catch {
        closeNow("cannot watch the socket: \(error)")
        return
      }
      registered = true
      interest = rejection == nil ? .read : []
      if let rejection {
        output.error(rejection)
        closeReason = "rejected: \(rejection.message)"
        state = .closing
        flush()
        return
      }
      output.ok(
        "stockroomd \(ProtocolVersion.serverVersion) protocol=\(ProtocolVersion.current) ready; type HELP for commands")
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
        closeNow(state == .draining ? closeReason : "client closed")
        return
      }
    }
    if events & sr_epoll_out != 0 && state != .closed { flush() }
  }

  func loopStopped() {
    closeNow("server stopping")
  }

  /// Tells the loop what to wait for, when that has changed.
  private func updateInterest() {
    guard registered else { return }
    var wanted: EventLoop.Interest = readSuspended ? [] : .read
    if writeArmed { wanted.insert(.write) }
    guard wanted != interest else { return }
    do {
      try loop.change(fd, interest: wanted)
      interest = wanted
    } catch {
      closeNow("cannot watch the socket: \(error)")
    }
  }

  // MARK: Reading

  private func readable() {
    let count: Int
    do {
      count = try Syscall.read(fd, into: readBuffer)
    } catch {
      if error.isWouldBlock { return }
      closeNow("read failed: \(error)")
      return
    }
    if count == 0 {
      closeNow(state == .draining ? closeReason : "client closed")
      return
    }
    switch state {
    case .open:
      input.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
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
      if pendingOutput + heldBytes >= server.configuration.outputHighWater {
        // Backpressure: answer no more until this client reads what it asked for.
        pauseReading()
        break
      }
      guard let lf = input[scanFrom...].firstIndex(of: UInt8(ascii: "\n")) else {
        scanFrom = input.count
        // A CR may be waiting for its LF in the next read; it does not count toward the limit.
        let pendingCR = input.last == UInt8(ascii: "\r") ? 1 : 0
        if input.count - inputStart - pendingCR > maxLine { tooLong() }
        break
      }
      var end = lf
      if end > inputStart && input[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      if end - inputStart > maxLine {
        tooLong()
        break
      }
      let watchingBefore = session.watching
      answer(input[inputStart..<end])
      inputStart = lf + 1
      scanFrom = inputStart
      if session.watching != watchingBefore { watchChanged() }
      if session.wantsClose {
        closeReason = "client quit"
        beginClosing()
      }
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
    if held.isEmpty {
      let mark = output.bytes.count
      guard let ticket = server.handler.handle(line, session: &session, out: &output) else { return }
      hold(ticket, reply: Array(output.bytes[mark...]))
      output.bytes.removeSubrange(mark...)
    } else {
      scratch.bytes.removeAll(keepingCapacity: true)
      if let ticket = server.handler.handle(line, session: &session, out: &scratch) {
        hold(ticket, reply: scratch.bytes)
      } else {
        held[held.count - 1].after += scratch.bytes
        heldBytes += scratch.bytes.count
      }
    }
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

  private func tooLong() {
    output.error(
      ProtocolError(.tooLong, "line longer than \(server.configuration.maxLine) bytes; closing the connection"))
    closeReason = "line too long"
    input = []
    inputStart = 0
    scanFrom = 0
    beginClosing()
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
      closeNow("watcher fell \(EventMailbox.capacity) events behind")
      return
    }
    writeEvents(events)
    if pendingOutput + heldBytes > server.configuration.outputHardLimit {
      closeNow("unsent output passed \(server.configuration.outputHardLimit) bytes; client is not reading")
      return
    }
    flush()
  }

  private func writeEvents(_ events: [StockEvent]) {
    guard !events.isEmpty else { return }
    if held.isEmpty {
      Self.encode(events, into: &output)
    } else {
      // An event must not overtake a reply still waiting for its commit.
      scratch.bytes.removeAll(keepingCapacity: true)
      Self.encode(events, into: &scratch)
      held[held.count - 1].after += scratch.bytes
      heldBytes += scratch.bytes.count
    }
  }

  private static func encode(_ events: [StockEvent], into output: inout ReplyEncoder) {
    for event in events {
      output.beginEvent("stock")
      output.field("item", event.item)
      output.field("level", event.level)
      output.field("change", CommandHandler.signed(event.change))
      output.field("cause", event.cause.name)
      if let order = event.cause.orderID { output.field("order", order) }
      output.field("user", event.cause.user)
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
        closeNow("write failed: \(error)")
        return
      }
      outputStart += written
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
      if held.isEmpty { finishWriting() }
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
    pauseReading()
    if let mailbox {
      writeEvents(mailbox.take().events)
      server.store.hub.unsubscribe(id)
      self.mailbox = nil
    }
    if pendingOutput == 0 && held.isEmpty { finishWriting() }
  }

  /// The last reply is out: shut our side, and read and drop until the client closes, so the
  /// kernel does not answer its unread bytes with a reset that could destroy that reply.
  private func finishWriting() {
    guard state == .closing else { return }
    state = .draining
    Glibc.shutdown(fd, Int32(SHUT_WR))
    lingerTimer = loop.schedule(after: .seconds(2)) { [self] in closeNow(closeReason) }
    resumeReading()
  }

  private func closeNow(_ reason: String) {
    guard state != .closed else { return }
    state = .closed
    closeReason = reason
    server.store.hub.unsubscribe(id)
    mailbox = nil
    if let lingerTimer { loop.cancel(lingerTimer) }
    lingerTimer = nil
    if registered { loop.deregister(fd) }
    registered = false
    Glibc.close(fd)
    server.connectionClosed(self, closeReason)
  }
}
