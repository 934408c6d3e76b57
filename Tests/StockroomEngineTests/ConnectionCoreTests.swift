import StockroomDomain
import StockroomEngine
import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

/// The connection core alone, the way SwiftNIO's `EmbeddedChannel` tests a handler: bytes in,
/// bytes out, commits completed by hand and a clock that moves only when the test says so.
@Suite("Connection core: framing, reply order, backpressure and closing without a socket", .timeLimit(.minutes(30)))
struct ConnectionCoreTests {
  private static let second: UInt64 = 1_000_000_000

  /// A started core whose greeting has been taken.
  private func started(
    maxLine: Int = 64, highWater: Int = 1 << 20, idle: Int = 600, lineTimeout: Int = 30, host: FakeConnectionHost
  ) -> ConnectionCore {
    let limits = ConnectionLimits(
      maxLine: maxLine, outputHighWater: highWater, outputHardLimit: 8 << 20, idleTimeout: idle,
      lineTimeout: lineTimeout)
    var core = ConnectionCore(limits: limits, now: 0)
    core.start(rejection: nil, now: 0)
    let greeting = text(core.takeOutput(now: 0, host: host))
    #expect(greeting.hasPrefix("OK stockroomd "))
    return core
  }

  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  private func send(_ string: String, to core: inout ConnectionCore, at now: UInt64 = 0, host: FakeConnectionHost) {
    core.received(Array(string.utf8), now: now, host: host)
  }

  private func take(_ core: inout ConnectionCore, at now: UInt64 = 0, host: FakeConnectionHost) -> String {
    text(core.takeOutput(now: now, host: host))
  }

  private func errorLine(_ error: ProtocolError) -> String {
    var encoder = ReplyEncoder()
    encoder.error(error)
    return text(encoder.bytes)
  }

  @Test("pipelined changes are answered in request order when the second commits before the first")
  func pipelinedRepliesInOrder() {
    let host = FakeConnectionHost()
    var core = started(host: host)
    send("ORDER a\nORDER b\nPING c\n", to: &core, host: host)
    #expect(host.lines == ["ORDER a", "ORDER b", "PING c"])
    #expect(host.awaited.count == 2)
    #expect(take(&core, host: host) == "")

    host.tickets["b"]!.complete(.committed)
    let releasedEarly = core.commitFinished()
    #expect(!releasedEarly)
    #expect(take(&core, host: host) == "")

    host.tickets["a"]!.complete(.committed)
    let released = core.commitFinished()
    #expect(released)
    #expect(take(&core, host: host) == "OK ordered a\nOK ordered b\nOK c\n")
    #expect(core.heldBytes == 0)
  }

  @Test(
    "a released reply goes out whole both into an empty output (taking its buffer) and behind unsent output, and a buffer reused after it holds nothing of it"
  )
  func releasedRepliesReuseBuffers() {
    let host = FakeConnectionHost()
    var core = started(host: host)
    for round in 0..<3 {
      // Nothing unsent: the held reply's buffer becomes the output.
      send("ORDER a\(round)\n", to: &core, host: host)
      host.tickets["a\(round)"]!.complete(.committed)
      core.commitFinished()
      #expect(take(&core, host: host) == "OK ordered a\(round)\n")
      // A reply not yet taken: the released one is appended behind it.
      send("PING p\(round)\nORDER b\(round)\nPING q\(round)\n", to: &core, host: host)
      host.tickets["b\(round)"]!.complete(.committed)
      core.commitFinished()
      #expect(take(&core, host: host) == "OK p\(round)\nOK ordered b\(round)\nOK q\(round)\n")
      #expect(core.heldBytes == 0)
    }
  }

  @Test("a change whose commit failed is answered with the failure, in its place")
  func failedCommitInPlace() {
    let host = FakeConnectionHost()
    var core = started(host: host)
    send("ORDER a\nORDER b\n", to: &core, host: host)
    let failure = CommitFailure(.io, "disk full")
    host.tickets["a"]!.complete(.failed(failure))
    host.tickets["b"]!.complete(.committed)
    core.commitFinished()
    #expect(take(&core, host: host) == errorLine(failure.reply) + "OK ordered b\n")
  }

  @Test("an event arriving while a reply waits for its commit is written after that reply")
  func eventBehindHeldReply() {
    let host = FakeConnectionHost()
    var core = started(host: host)
    send("WATCH\nORDER a\n", to: &core, host: host)
    #expect(host.subscriptions == [[]])
    #expect(take(&core, host: host) == "OK watching\n")

    let event = StockEvent(
      item: "banana", name: "Banana", level: 4, change: -1, cause: .order(id: 7, user: "ann"))
    core.eventsArrived([EncodedEvent(.stock(event))], host: host)
    #expect(take(&core, host: host) == "")

    host.tickets["a"]!.complete(.committed)
    core.commitFinished()
    #expect(
      take(&core, host: host)
        == "OK ordered a\n! stock item=banana name=Banana level=4 change=-1 cause=order order=7\n")

    // With nothing held, an event goes out at once; staff also see who made the change.
    host.role = .staff
    core.eventsArrived([EncodedEvent(.stock(event))], host: host)
    #expect(
      take(&core, host: host)
        == "! stock item=banana name=Banana level=4 change=-1 cause=order order=7 user=ann\n")
  }

  @Test("a line longer than the limit is refused after the replies owed before it, and closes")
  func lineTooLong() {
    let host = FakeConnectionHost()
    var core = started(maxLine: 16, host: host)
    // Exactly the limit, with CRLF: the CR does not count.
    send("PING 0123456789a\r\n", to: &core, host: host)
    #expect(take(&core, host: host) == "OK 0123456789a\n")

    send("ORDER a\nPING 0123456789ab\nPING after\n", to: &core, host: host)
    #expect(host.lines == ["PING 0123456789a", "ORDER a"])
    #expect(core.phase == .closing)
    #expect(core.closeReason == .lineTooLong)
    #expect(take(&core, host: host) == "")

    host.tickets["a"]!.complete(.committed)
    core.commitFinished()
    #expect(
      take(&core, host: host)
        == "OK ordered a\nERR TOOLONG line longer than 16 bytes; closing the connection\n")
    #expect(core.phase == .draining)
    #expect(core.finishedWriting)
  }

  @Test("a line past the limit is refused before its LF arrives")
  func partialLineTooLong() {
    let host = FakeConnectionHost()
    var core = started(maxLine: 16, host: host)
    send("PING 0123456789a", to: &core, host: host)
    #expect(core.phase == .open)
    send("bc", to: &core, host: host)
    #expect(core.phase == .closing)
    #expect(take(&core, host: host) == "ERR TOOLONG line longer than 16 bytes; closing the connection\n")
    #expect(host.lines.isEmpty)
  }

  @Test("CRLF ends a line as LF does, and after end of input the last line needs no LF")
  func crlfAndFinalLine() {
    let host = FakeConnectionHost()
    var core = started(host: host)
    send("PING a\r\nPING b\r\nPING c", to: &core, host: host)
    #expect(take(&core, host: host) == "OK a\nOK b\n")
    #expect(host.lines == ["PING a", "PING b"])

    core.inputEnded(now: 0, host: host)
    #expect(core.hasInputEnded)
    #expect(take(&core, host: host) == "OK c\n")
    // Nothing is left to drain from a client that finished sending.
    #expect(core.phase == .closed)
    #expect(core.closeReason == .inputEnded)
    #expect(core.finishedWriting)
  }

  @Test("after end of input, replies still waiting for their commit are written before the close")
  func inputEndedWaitsForCommit() {
    let host = FakeConnectionHost()
    var core = started(host: host)
    send("ORDER a\n", to: &core, host: host)
    core.inputEnded(now: 0, host: host)
    #expect(core.phase == .closing)
    #expect(!core.finishedWriting)
    host.tickets["a"]!.complete(.committed)
    core.commitFinished()
    #expect(take(&core, host: host) == "OK ordered a\n")
    #expect(core.phase == .closed)
    #expect(core.closeReason == .inputEnded)
  }

  @Test("a request line that does not arrive whole in time is refused, by the injected clock")
  func partialLineTimeout() {
    let host = FakeConnectionHost()
    var core = started(lineTimeout: 30, host: host)
    send("PING", to: &core, at: 5 * Self.second, host: host)
    #expect(core.partialLineSince == 5 * Self.second)
    #expect(core.nextDeadline(now: 5 * Self.second) == 35 * Self.second)

    core.deadlineReached(now: 35 * Self.second - 1, host: host)
    #expect(core.phase == .open)
    core.deadlineReached(now: 35 * Self.second, host: host)
    #expect(core.phase == .closing)
    #expect(core.closeReason == .lineTimeout(seconds: 30))
    #expect(
      take(&core, host: host) == "ERR TIMEOUT request line not finished within 30 s; closing the connection\n")
  }

  @Test("an idle client is told why in an event line and closed; a watcher is never idle")
  func idle() {
    let host = FakeConnectionHost()
    var core = started(idle: 10, lineTimeout: 0, host: host)
    send("PING\n", to: &core, at: 2 * Self.second, host: host)
    #expect(take(&core, at: 2 * Self.second, host: host) == "OK PONG\n")
    #expect(core.nextDeadline(now: 3 * Self.second) == 12 * Self.second)
    core.deadlineReached(now: 12 * Self.second, host: host)
    #expect(core.closeReason == .idle(seconds: 10))
    #expect(take(&core, host: host) == "! closing reason=idle idle_seconds=10\n")

    var watcher = started(idle: 10, lineTimeout: 0, host: host)
    send("WATCH\n", to: &watcher, host: host)
    watcher.deadlineReached(now: 60 * Self.second, host: host)
    #expect(watcher.phase == .open)
  }

  @Test("a watcher that takes none of its output for the watch timeout is closed; one with nothing waiting is not")
  func watchTimeout() {
    let host = FakeConnectionHost()
    var limits = ConnectionLimits(
      maxLine: 64, outputHighWater: 1 << 20, outputHardLimit: 8 << 20, idleTimeout: 0, lineTimeout: 0)
    limits.watchTimeout = 300
    var quiet = ConnectionCore(limits: limits, now: 0)
    quiet.start(rejection: nil, now: 0)
    send("WATCH\n", to: &quiet, host: host)
    _ = take(&quiet, host: host)
    quiet.deadlineReached(now: 10_000 * Self.second, host: host)
    #expect(quiet.phase == .open)

    var watcher = ConnectionCore(limits: limits, now: 0)
    watcher.start(rejection: nil, now: 0)
    send("WATCH\n", to: &watcher, host: host)
    _ = take(&watcher, host: host)
    let events = (1...3).map { number in
      WatchEvent.stock(
        StockEvent(item: "banana", name: "Banana", level: 5, change: -1, cause: .order(id: number, user: "ann")))
    }
    watcher.eventsArrived(events.map(EncodedEvent.init), host: host)
    watcher.outputSent(10, now: 5 * Self.second)
    watcher.outputBlocked(now: 5 * Self.second)
    // Taking some of it starts the count again.
    watcher.outputSent(10, now: 100 * Self.second)
    watcher.outputBlocked(now: 100 * Self.second)
    #expect(watcher.nextDeadline(now: 100 * Self.second) == 400 * Self.second)
    watcher.deadlineReached(now: 400 * Self.second - 1, host: host)
    #expect(watcher.phase == .open)
    watcher.deadlineReached(now: 400 * Self.second, host: host)
    #expect(watcher.phase == .closed)
    guard case .watcherNotReading(seconds: 300, let events) = watcher.closeReason else {
      Issue.record("closed for another reason: \(watcher.closeReason)")
      return
    }
    #expect(events == 2, "the first event was begun, the other two were not")
  }

  @Test("no request is taken while password work is pending; its reply keeps its place behind a held one")
  func credentialStopsTheLine() {
    let host = FakeConnectionHost()
    var core = started(host: host)
    send("ORDER a\nLOGIN\nPING b\n", to: &core, host: host)
    #expect(host.lines == ["ORDER a", "LOGIN"])
    #expect(host.credentials.count == 1)
    #expect(core.isReadingPaused)

    core.workFinished(now: 0, host: host)
    #expect(host.lines == ["ORDER a", "LOGIN", "PING b"])
    #expect(take(&core, host: host) == "")

    host.tickets["a"]!.complete(.committed)
    core.commitFinished()
    #expect(take(&core, host: host) == "OK ordered a\nOK finished\nOK b\n")
  }

  @Test("backpressure stops taking lines at the high-water mark and resumes once output is out")
  func backpressure() {
    let host = FakeConnectionHost()
    var core = started(highWater: 100, host: host)
    send("BIG 100\nBIG 100\nPING z\n", to: &core, host: host)
    #expect(host.lines == ["BIG 100"])
    #expect(core.isReadingPaused)
    #expect(core.pendingOutputCount == 100)

    // Part of it taken is not enough: lines are taken again only once all of it is out.
    core.outputSent(40, now: 0)
    #expect(core.isReadingPaused)
    core.outputSent(60, now: 0)
    core.outputDrained(now: 0, host: host)
    #expect(host.lines == ["BIG 100", "BIG 100"])
    #expect(core.isReadingPaused)

    let rest = take(&core, host: host)
    #expect(rest.hasSuffix("\nOK z\n"))
    #expect(host.lines == ["BIG 100", "BIG 100", "PING z"])
    #expect(!core.isReadingPaused)
  }

  @Test("replies held for their commit count toward the high-water mark")
  func heldRepliesCountTowardHighWater() {
    let host = FakeConnectionHost()
    var core = started(maxLine: 256, highWater: 100, host: host)
    let name = String(repeating: "n", count: 100)
    send("ORDER \(name)\nPING z\n", to: &core, host: host)
    #expect(host.lines == ["ORDER \(name)"])
    #expect(core.isReadingPaused)
    #expect(core.pendingOutputCount == 0)

    host.tickets[name]!.complete(.committed)
    core.commitFinished()
    #expect(take(&core, host: host) == "OK ordered \(name)\nOK z\n")
  }

  @Test(
    "another protocol's first line is refused without running anything",
    arguments: [
      ("GET / HTTP/1.1\r\nHost: localhost\r\n\r\nORDER a\n", ForeignProtocol.http),
      ("*3\r\n$4\r\nPING\r\n", ForeignProtocol.resp),
      ("\u{16}\u{03}\u{01}PING\n", ForeignProtocol.tls),
    ])
  func foreignProtocol(opening: String, kind: ForeignProtocol) {
    let host = FakeConnectionHost()
    var core = started(host: host)
    send(opening, to: &core, host: host)
    #expect(host.lines.isEmpty)
    #expect(host.refusals == [kind])
    #expect(core.closeReason == .foreignProtocol(kind))
    #expect(take(&core, host: host) == errorLine(kind.refusal))
    #expect(core.phase == .draining)
  }

  @Test("QUIT is answered, nothing after it runs, and the connection closes once it is out")
  func quitClosesAfterFlushing() {
    let host = FakeConnectionHost()
    var core = started(host: host)
    send("ORDER a\nQUIT\nPING b\n", to: &core, host: host)
    #expect(host.lines == ["ORDER a", "QUIT"])
    #expect(core.phase == .closing)
    #expect(core.closeReason == .clientQuit)
    #expect(core.isReadingPaused)
    #expect(take(&core, host: host) == "")
    #expect(!core.finishedWriting)

    host.tickets["a"]!.complete(.committed)
    core.commitFinished()
    #expect(core.pendingOutputCount > 0)
    #expect(!core.finishedWriting)
    #expect(take(&core, host: host) == "OK ordered a\nOK bye\n")
    #expect(core.finishedWriting)
    #expect(core.phase == .draining)

    // Draining: what the client still sends is dropped, unread.
    send("PING c\n", to: &core, host: host)
    #expect(host.lines == ["ORDER a", "QUIT"])
    core.inputEnded(now: 0, host: host)
    #expect(core.phase == .closed)
    #expect(core.closeReason == .clientQuit)
  }

  @Test("a rejected connection gets its error instead of the greeting and closes once it is out")
  func rejected() {
    let host = FakeConnectionHost()
    let limits = ConnectionLimits(
      maxLine: 64, outputHighWater: 1 << 20, outputHardLimit: 8 << 20, idleTimeout: 600, lineTimeout: 30)
    var core = ConnectionCore(limits: limits, now: 0)
    let full = ProtocolError(.limit, "server full; try again later")
    core.start(rejection: full, now: 0)
    #expect(core.isReadingPaused)
    #expect(core.phase == .closing)
    #expect(take(&core, host: host) == errorLine(full))
    #expect(core.phase == .draining)
    #expect(core.closeReason == .rejected)
  }
}
