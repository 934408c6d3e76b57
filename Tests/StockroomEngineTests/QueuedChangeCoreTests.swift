import StockroomDomain
import StockroomEngine
import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

/// The connection core with changes queued for a shared store's writer (PostgreSQL), played by
/// hand: the core goes on taking changes while earlier ones are unanswered, as it does while a
/// SQLite change waits for its group commit, holds everything else until they are answered, and
/// sends every reply in request order once its commit is done.
@Suite("Connection core: changes queued for a writer, held and answered in order", .timeLimit(.minutes(30)))
struct QueuedChangeCoreTests {
  private func started(queuedChanges: Int = 64, host: FakeConnectionHost) -> ConnectionCore {
    var limits = ConnectionLimits(
      maxLine: 64, outputHighWater: 1 << 20, outputHardLimit: 8 << 20, idleTimeout: 600, lineTimeout: 30)
    limits.queuedChanges = queuedChanges
    var core = ConnectionCore(limits: limits, now: 0)
    core.start(rejection: nil, now: 0)
    _ = core.takeOutput(now: 0, host: host)
    return core
  }

  private func take(_ core: inout ConnectionCore, host: FakeConnectionHost) -> String {
    String(decoding: core.takeOutput(now: 0, host: host), as: UTF8.self)
  }

  @Test("pipelined changes all reach the writer at once; a read after them waits for their answers")
  func pipelinedChangesReachTheWriterTogether() {
    let host = FakeConnectionHost()
    var core = started(host: host)
    core.received(Array("QUEUE a\nQUEUE b\nQUEUE c\nPING d\nQUEUE e\n".utf8), now: 0, host: host)
    // Before the fix the first change paused the connection: the writer saw one change a turn.
    #expect(host.submitted == ["a", "b", "c"])
    #expect(host.lines == ["QUEUE a", "QUEUE b", "QUEUE c"])
    #expect(core.isReadingPaused)
    #expect(core.queuedChanges == 3)

    host.answerQueued("a")
    host.answerQueued("b")
    core.changeAnswered(now: 0, host: host)
    // `c` is unanswered: the read still waits, and nothing is sent before its commit.
    #expect(host.lines.count == 3)
    #expect(take(&core, host: host) == "")

    host.answerQueued("c", refused: true)
    core.changeAnswered(now: 0, host: host)
    #expect(host.lines == ["QUEUE a", "QUEUE b", "QUEUE c", "PING d", "QUEUE e"])
    #expect(host.submitted == ["a", "b", "c", "e"])
    #expect(take(&core, host: host) == "")

    host.tickets["b"]!.complete(.committed)
    core.commitFinished()
    #expect(take(&core, host: host) == "")
    host.tickets["a"]!.complete(.committed)
    core.commitFinished()
    #expect(take(&core, host: host) == "OK queued a\nOK queued b\nERR SHORTAGE no c\nOK d\n")
    host.answerQueued("e")
    core.changeAnswered(now: 0, host: host)
    host.tickets["e"]!.complete(.committed)
    core.commitFinished()
    #expect(take(&core, host: host) == "OK queued e\n")
    #expect(core.heldBytes == 0 && core.queuedChanges == 0)
  }

  @Test("a change to an account is answered before any later request runs")
  func accountChangeHoldsTheRest() {
    let host = FakeConnectionHost()
    var core = started(host: host)
    core.received(Array("QUEUE ann account\nQUEUE b\n".utf8), now: 0, host: host)
    #expect(host.submitted == ["ann"])
    #expect(core.isReadingPaused)
    host.answerQueued("ann")
    core.changeAnswered(now: 0, host: host)
    #expect(host.submitted == ["ann", "b"])
  }

  @Test("one connection queues at most its limit of changes")
  func queuedChangesAreBounded() {
    let host = FakeConnectionHost()
    var core = started(queuedChanges: 2, host: host)
    core.received(Array("QUEUE a\nQUEUE b\nQUEUE c\n".utf8), now: 0, host: host)
    #expect(host.submitted == ["a", "b"])
    host.answerQueued("a")
    core.changeAnswered(now: 0, host: host)
    #expect(host.submitted == ["a", "b", "c"])
  }

  @Test("a client that shuts its side after queuing changes still gets every reply, then the close")
  func halfCloseAfterQueuedChanges() {
    let host = FakeConnectionHost()
    var core = started(host: host)
    core.received(Array("QUEUE a\nQUEUE b\n".utf8), now: 0, host: host)
    core.inputEnded(now: 0, host: host)
    #expect(core.phase == .closing)
    host.answerQueued("a")
    host.answerQueued("b")
    core.changeAnswered(now: 0, host: host)
    host.tickets["a"]!.complete(.committed)
    host.tickets["b"]!.complete(.committed)
    core.commitFinished()
    #expect(take(&core, host: host) == "OK queued a\nOK queued b\n")
    #expect(core.finishedWriting)
  }
}
