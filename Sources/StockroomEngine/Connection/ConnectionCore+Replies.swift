import StockroomDomain
import StockroomProtocol

/// Writing replies: at once, or held behind the commit they wait for (and everything answered after
/// them with them), until `commitFinished` releases them in order; and the work a reply waits for.
extension ConnectionCore {
  /// Writes one reply, or holds it back behind its commit or behind earlier held replies.
  mutating func write(
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
      } else {
        follow(wait, host: host)
      }
    } else {
      scratch.bytes.removeAll(keepingCapacity: true)
      let wait = reply(&session, &scratch)
      if let behind = wait?.held {
        hold(behind.ticket, behind.kind, reply: scratch.bytes, host: host)
      } else {
        appendAfterHeld(scratch.bytes)
        if let wait { follow(wait, host: host) }
      }
    }
  }

  /// Starts what a reply waits for that is not a commit: work elsewhere, or a change queued for
  /// its writer, which takes its place among the held replies now and is written when answered.
  private mutating func follow(_ wait: ReplyWait, host: some ConnectionHost) {
    switch wait {
    case .work(let work): run(work, host: host)
    case .change(let change):
      held.append(HeldReply(ticket: nil, kind: .change, reply: [], queued: change))
      queuedChanges += 1
      if change.changesAccounts { queuedAccountChanges += 1 }
      host.submit(change)
    case .commit, .durable: preconditionFailure("a commit's wait is held, not followed")
    }
  }

  /// Whether the request on `line` may run while changes are queued for the writer: only one
  /// that cannot depend on them (another change, and none of them changes an account), and
  /// only while fewer than `ConnectionLimits.queuedChanges` wait.
  func mayRunBesideQueuedChanges(_ line: ArraySlice<UInt8>, host: some ConnectionHost) -> Bool {
    queuedAccountChanges == 0 && queuedChanges < limits.queuedChanges && !host.mustWaitForChanges(line)
  }

  /// The writer has answered one or more of the changes queued on this connection: their
  /// replies are written in request order, each then held for its commit as any change's is,
  /// and the requests that waited for them are taken again.
  package mutating func changeAnswered(now: UInt64, host: some ConnectionHost) {
    guard phase != .closed else { return }
    for index in held.indices {
      guard let queued = held[index].queued else { continue }
      // The writer answers a connection's changes in the order they were queued.
      guard queued.ticket.result != nil else { break }
      scratch.bytes.removeAll(keepingCapacity: true)
      let wait = host.answer(queued, session: &session, out: &scratch)
      held[index].queued = nil
      held[index].reply = scratch.bytes
      heldBytes += scratch.bytes.count
      queuedChanges -= 1
      if queued.changesAccounts { queuedAccountChanges -= 1 }
      if let ticket = wait?.held?.ticket {
        held[index].ticket = ticket
        host.awaitCommit(ticket)
      }
    }
    commitFinished()
    notePresence(host: host)
    if let reason = session.closing, phase == .open {
      closeReason = reason
      beginClosing(now: now, host: host)
    } else if phase == .open && isReadingPaused && awaiting == nil {
      isReadingPaused = false
      processInput(now: now, host: host)
    } else if phase == .closing && held.isEmpty && awaiting == nil && pendingOutputCount == 0 {
      finishWriting(host: host)
    }
  }

  mutating func appendAfterHeld(_ bytes: [UInt8]) {
    held[held.count - 1].after += bytes
    heldBytes += bytes.count
  }

  mutating func hold(_ ticket: CommitTicket, _ kind: HeldReply.Kind, reply: [UInt8], host: some ConnectionHost) {
    held.append(HeldReply(ticket: ticket, kind: kind, reply: reply))
    heldBytes += reply.count
    host.awaitCommit(ticket)
  }

  /// Runs work off the loop; its reply is written when it is done, and reading resumes then.
  mutating func run(_ work: PendingWork, host: some ConnectionHost) {
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
    while let outcome = held.first?.outcome {
      // Usually the only one: taken from the end, which moves nothing (`removeFirst` runs the
      // general `replaceSubrange`, about 220 instructions a durable ORDER).
      var first = held.count == 1 ? held.removeLast() : held.removeFirst()
      heldBytes -= first.reply.count + first.after.count
      switch outcome {
      case .committed where output.bytes.isEmpty:
        // Nothing is unsent (the usual case): the output takes the reply's buffer, and the reply
        // the output's empty one, as `write` swapped them to hold it; nothing is copied.
        swap(&output.bytes, &first.reply)
      case .committed:
        output.bytes += first.reply
      case .failed(let failure):
        output.error(first.failed(failure))
      }
      // Mostly nothing was answered behind the reply; appending nothing still costs ~80.
      if !first.after.isEmpty { output.bytes += first.after }
      if spare.capacity < first.reply.capacity && first.reply.capacity <= Self.keptCapacity {
        // `removeAll` runs the general `replaceSubrange` even on an empty array.
        if !first.reply.isEmpty { first.reply.removeAll(keepingCapacity: true) }
        spare = first.reply
      }
      released = true
    }
    return released
  }

  /// Writes `error` where the next reply would go: behind any reply still waiting for its commit.
  mutating func appendError(_ error: ProtocolError) {
    if held.isEmpty {
      output.error(error)
    } else {
      scratch.bytes.removeAll(keepingCapacity: true)
      scratch.error(error)
      appendAfterHeld(scratch.bytes)
    }
  }

  /// Answers with `error`, runs nothing more of what the client sent, and closes.
  mutating func endWith(_ error: ProtocolError, reason: CloseReason, now: UInt64, host: some ConnectionHost) {
    appendError(error)
    closeReason = reason
    input = []
    inputStart = 0
    scanFrom = 0
    partialLineSince = nil
    beginClosing(now: now, host: host)
  }

  mutating func tooLong(now: UInt64, host: some ConnectionHost) {
    endWith(
      ProtocolError(.tooLong, "line longer than \(limits.maxLine) bytes; closing the connection"),
      reason: .lineTooLong, now: now, host: host)
  }

  mutating func refuse(_ foreign: ForeignProtocol, now: UInt64, host: some ConnectionHost) {
    host.refused(foreign)
    endWith(foreign.refusal, reason: .foreignProtocol(foreign), now: now, host: host)
  }

  /// Tells the host when this connection logs in or out, or starts or stops watching.
  mutating func notePresence(host: some ConnectionHost) {
    // A guest that was one: most requests, settled without copying the session's fields into an
    // entry and comparing it.
    if session.account == nil && presentAs == nil { return }
    let now = session.account.map {
      Presence.Entry(account: $0, loginHash: session.loginHash, watching: session.watching != nil)
    }
    guard now != presentAs, phase != .closed else { return }
    presentAs = now
    host.presenceChanged(now)
  }
}
