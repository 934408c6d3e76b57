import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs one `FuzzScript` against the server over real TCP and checks what came back.
struct FuzzConnection {
  let script: FuzzScript
  let port: UInt16

  /// How long a connection waiting for the server may see nothing arrive before it calls the
  /// server stuck. Far above any reply time on a loaded machine; reached only by a lost reply.
  static let stallSeconds: TimeInterval = 60

  func run() -> FuzzOutcome {
    var outcome = FuzzOutcome()
    outcome.connections[script.behaviour] = 1
    if script.behaviour == .flood {
      flood(&outcome)
      return outcome
    }
    guard let socket = FuzzSocket(port: port) else {
      outcome.problems.append("\(script.label): cannot connect: errno \(errno)")
      return outcome
    }
    let behaviour = script.behaviour
    let payload = script.payload
    let reads = behaviour != .silent && !(behaviour == .resetter && script.linesBeforeReset == 0)
    let sendLimit = behaviour == .resetter ? script.resetAfterBytes : payload.count
    let sentinel: String? =
      if case .sentinel(let text) = script.expectation.ending { "OK " + text } else { nil }
    var audit = ReplyAudit()
    var pending: [UInt8] = []
    var linesRead = 0
    var sent = 0
    var sendFailed = false
    var ended = false
    var wasReset = false
    var shutDown = false
    var stalled = false
    var lastProgress = Date()
    var cuts = script.cuts[...]

    loop: while true {
      let allSent = sent >= sendLimit || sendFailed
      switch behaviour {
      case .reader:
        if ended || audit.greeting == .full || (sentinel != nil && audit.lastStatus == sentinel) { break loop }
        // After QUIT or a line over the limit the server must also close; after a line of
        // another protocol it may go on, and one reply to that line is all there is to wait for.
        if case .mayClose = script.expectation.ending, audit.replies >= script.expectation.expectedReplies {
          break loop
        }
      case .halfCloser: if ended { break loop }
      case .silent: if allSent { break loop }
      case .resetter: if allSent && (linesRead >= script.linesBeforeReset || ended || !reads) { break loop }
      case .flood: break loop
      }
      if behaviour == .halfCloser && allSent && !shutDown {
        socket.shutdownWrite()
        shutDown = true
      }
      var wanted: Int16 = 0
      if !allSent { wanted |= Int16(POLLOUT) }
      if reads && !ended { wanted |= Int16(POLLIN) }
      let ready = socket.wait(for: wanted, milliseconds: 100)
      if ready == 0 {
        let quiet = Date().timeIntervalSince(lastProgress)
        // A silent client is done once the server stops taking its input (backpressure);
        // a resetter does not wait long for lines it only meant to glance at.
        if behaviour == .silent && quiet > 0.3 { break loop }
        if behaviour == .resetter && quiet > 2 { break loop }
        if quiet > Self.stallSeconds {
          stalled = true
          break loop
        }
        continue
      }
      if ready & Int16(POLLOUT | POLLERR | POLLHUP) != 0 && !allSent {
        while let cut = cuts.first, cut <= sent { cuts.removeFirst() }
        let end = min(cuts.first ?? sendLimit, sendLimit)
        if let written = socket.send(payload[sent..<end]) {
          sent += written
          if written > 0 { lastProgress = Date() }
        } else {
          sendFailed = true
        }
      }
      if reads && ready & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        switch socket.receive() {
        case .bytes(let bytes):
          lastProgress = Date()
          pending += bytes
          var start = 0
          while let lf = Self.lineFeed(in: pending, from: start) {
            audit.feed(pending[start..<lf])
            linesRead += 1
            start = lf + 1
          }
          pending.removeSubrange(..<start)
        case .wouldBlock: continue
        case .end: ended = true
        case .reset:
          ended = true
          wasReset = true
        }
      }
    }
    if behaviour == .resetter { socket.reset() } else { socket.closeNow() }
    outcome.bytesSent = sent
    outcome.linesSent = Self.lineFeeds(in: payload[..<sent])
    outcome.problems += audit.problems.map { "\(script.label) (\(behaviour)): \($0)" }
    guard behaviour.countsReplies else { return outcome }
    // Only the server's end of the stream can cut a line: a reader that stops on its own at the
    // last reply may hold the start of an event line still streaming to it.
    if ended && !pending.isEmpty {
      outcome.problems.append("\(script.label) (\(behaviour)): a last line without LF: \(FuzzText.describe(pending))")
    }
    outcome.events = audit.events
    outcome.replies = audit.replies
    switch audit.greeting {
    case nil:
      outcome.problems.append(
        "\(script.label) (\(behaviour)): no greeting and no ERR LIMIT; the server \(ended ? "closed" : "said nothing")")
      return outcome
    case .full:
      outcome.rejected = 1
      return outcome
    case .ready: break
    }
    outcome.countedLines = script.expectation.lines.count
    if let problem = verdict(audit, ended: ended, wasReset: wasReset, stalled: stalled, sent: sent) {
      outcome.problems.append("\(script.label) (\(behaviour)): \(problem)")
    }
    if case .sentinel = script.expectation.ending {} else { outcome.closedEarly = 1 }
    return outcome
  }

  /// The index of the first LF at or after `start`; memchr, since the tests run unoptimized.
  private static func lineFeed(in bytes: [UInt8], from start: Int) -> Int? {
    bytes.withUnsafeBufferPointer { buffer in
      guard start < buffer.count, let base = buffer.baseAddress,
        let found = memchr(base + start, 0x0A, buffer.count - start)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }

  /// How many LFs `bytes` holds; memchr, as `lineFeed(in:from:)`.
  private static func lineFeeds(in bytes: ArraySlice<UInt8>) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      guard var at = buffer.baseAddress else { return 0 }
      let end = at + buffer.count
      var count = 0
      while at < end, let found = memchr(at, 0x0A, end - at) {
        count += 1
        at = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
      }
      return count
    }
  }

  /// Why the replies do not match the lines sent, or nil when they do.
  private func verdict(_ audit: ReplyAudit, ended: Bool, wasReset: Bool, stalled: Bool, sent: Int) -> String? {
    let expectation = script.expectation
    let replies = audit.replies
    let how =
      stalled
      ? "then nothing for \(Int(Self.stallSeconds)) s"
      : wasReset ? "then the server reset the connection" : ended ? "then the server closed" : "and no more"
    let sentAll = sent == script.payload.count ? "" : " (only \(sent) of \(script.payload.count) bytes could be sent)"
    func missing() -> String {
      let line = replies < expectation.lines.count ? FuzzText.describe(expectation.lines[replies]) : "none"
      return
        "\(replies) replies to \(expectation.lines.count) lines, \(how)\(sentAll); last status \(FuzzText.describe(Array(audit.lastStatus.utf8).prefix(120))); first unanswered line \(line)"
    }
    if let reply = audit.tooLongReply {
      if case .closes(let index, .tooLong) = expectation.ending {
        // Protocol.md §5: replies to earlier requests are sent first.
        if reply != index + 1 {
          return
            "ERR TOOLONG came as reply \(reply), ahead of replies to earlier lines (the long one is line \(index + 1)): \(missing())"
        }
      } else {
        let line = expectation.lines[min(reply, expectation.lines.count) - 1]
        return "ERR TOOLONG as reply \(reply), for a line of \(line.count) bytes: \(missing())"
      }
    }
    switch expectation.ending {
    case .sentinel(let text):
      if replies == expectation.lines.count && audit.lastStatus == "OK " + text {
        return script.behaviour == .halfCloser && !ended ? "every reply, but the server never closed" : nil
      }
      return missing()
    case .closes(let index, let kind):
      let closingStatus =
        kind == .quit ? audit.lastStatus == "OK bye" : audit.lastStatus.utf8.starts(with: "ERR TOOLONG ".utf8)
      if replies == index + 1 && closingStatus && ended { return nil }
      return
        "expected \(index + 1) replies ending in \(kind == .quit ? "OK bye" : "ERR TOOLONG") and a close: \(missing())"
    case .mayClose(let index, .otherProtocol):
      // Its answer, if any, is an error, and the last: an earlier one after it is out of order.
      if replies == index + 1 && audit.lastStatus.utf8.starts(with: "ERR ".utf8) { return nil }
      if replies == index && ended { return nil }
      return "a line of another protocol at \(index + 1): \(missing())"
    case .mayClose(let index, .passwordAttempt):
      // Answered whether it fails or not (ReplyAudit has checked the status line's form).
      if replies == index + 1 { return nil }
      return "the fifth LOGIN or PASSWD at \(index + 1): \(missing())"
    }
  }

  /// A burst of connections, most of them gone before the server has greeted them.
  private func flood(_ outcome: inout FuzzOutcome) {
    var sockets: [(FuzzSocket, FuzzScript.FloodAction)] = []
    for action in script.floodActions {
      guard let socket = FuzzSocket(port: port) else {
        outcome.problems.append("\(script.label) (flood): cannot connect: errno \(errno)")
        break
      }
      switch action {
      case .reset: socket.reset()
      case .pingThenReset:
        _ = socket.send(Array("PING\n".utf8)[...])
        socket.reset()
      case .greetingThenReset, .close: sockets.append((socket, action))
      }
    }
    for (socket, action) in sockets {
      if action == .greetingThenReset {
        // The first line only: a greeting or ERR LIMIT, never nothing.
        var audit = ReplyAudit()
        var pending: [UInt8] = []
        let deadline = Date().addingTimeInterval(Self.stallSeconds)
        reading: while audit.greeting == nil && Date() < deadline {
          guard socket.wait(for: Int16(POLLIN), milliseconds: 100) != 0 else { continue }
          switch socket.receive() {
          case .bytes(let bytes):
            pending += bytes
            if let lf = pending.firstIndex(of: 0x0A) { audit.feed(pending[..<lf]) }
          case .wouldBlock: continue
          case .end, .reset: break reading
          }
        }
        if audit.greeting == nil {
          outcome.problems.append("\(script.label) (flood): a connection got neither a greeting nor ERR LIMIT")
        }
        if audit.greeting == .full { outcome.rejected += 1 }
        outcome.problems += audit.problems.map { "\(script.label) (flood): \($0)" }
        socket.reset()
      } else {
        socket.closeNow()
      }
    }
  }
}
