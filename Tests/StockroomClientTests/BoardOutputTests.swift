import CStockroomSystem
import Foundation
import StockroomClient
import Synchronization
import Testing

/// The board's output against a terminal that stops reading, stood in for by a pipe nobody
/// reads: drawing must return at once, and no second frame may start behind the first.
@Suite("The live board never waits on a slow terminal", .timeLimit(.minutes(30)))
struct BoardOutputTests {
  /// Whether `body` returns, run on a thread of its own: a call that blocks on a pipe nobody
  /// reads never would. The minute is only how long a hung call is waited for before failing.
  private func returns(_ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      body()
      done.signal()
    }
    return done.wait(timeout: .now() + 60) == .success
  }

  @Test("a terminal that never reads again: leaving gives up in time instead of hanging the exit")
  func stuckTerminal() throws {
    var ends: [Int32] = [-1, -1]
    #expect(sr_pipe_cloexec(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    let keyboard = open("/dev/null", O_RDONLY | O_CLOEXEC)
    defer { close(keyboard) }
    let flagsBefore = fcntl(ends[1], F_GETFL)
    let terminal = BoardTerminal(input: keyboard, output: ends[1])
    terminal.start()
    #expect(terminal.draw(Array(repeating: String(repeating: "x", count: 1000), count: 200)))
    #expect(terminal.isBusy)
    let board = UncheckedBoard(terminal)
    #expect(returns { board.terminal.restore() }, "leaving waits for ever for a terminal that does not read")
    #expect(fcntl(ends[1], F_GETFL) == flagsBefore, "the output's flags were not put back")
  }

  @Test(
    "a frame larger than the terminal takes is left pending, later frames wait for it, and restore puts the flags back")
  func slowTerminal() throws {
    var ends: [Int32] = [-1, -1]
    #expect(sr_pipe_cloexec(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    let keyboard = open("/dev/null", O_RDONLY | O_CLOEXEC)
    defer { close(keyboard) }
    let flagsBefore = fcntl(ends[1], F_GETFL)
    let terminal = BoardTerminal(input: keyboard, output: ends[1])
    terminal.start()
    // A pipe holds 64 KiB; this frame is about 400 KiB.
    let frame = Array(repeating: String(repeating: "█", count: 1000), count: 130)
    // A draw that waited for this pipe would wait for ever, since nothing reads it.
    let board = UncheckedBoard(terminal)
    let drew = Mutex(false)
    #expect(returns { drew.withLock { $0 = board.terminal.draw(frame) } }, "drawing waited for the terminal")
    #expect(drew.withLock { $0 })
    #expect(terminal.isBusy, "the whole frame went out at once; the test proves nothing")
    #expect(!terminal.draw(["a newer state"]), "a second frame started behind the first")

    // The terminal reads again: the rest of the frame goes out as it makes room, a pipeful a
    // read, so a few hundred reads are far more than 400 KiB needs.
    var drained = 0
    var buffer = [UInt8](repeating: 0, count: 65536)
    var reads = 0
    while terminal.isBusy && reads < 500 {
      reads += 1
      drained += buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
      terminal.flush()
    }
    #expect(!terminal.isBusy)
    // Emptied, the pipe has room for the small frame and the leaving sequence.
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
    var count = 0
    repeat {
      count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
      drained += max(0, count)
    } while count > 0
    #expect(terminal.draw(["a newer state"]), "the next frame was refused after the first went out")
    terminal.restore()
    #expect(fcntl(ends[1], F_GETFL) == flagsBefore, "the output's flags were not put back")
    #expect(drained > 300_000)
  }
}

/// The terminal handed to the thread that calls it while the test waits; only one side uses
/// it at a time (the test touches it again only after the call returned).
private struct UncheckedBoard: @unchecked Sendable {
  let terminal: BoardTerminal
  init(_ terminal: BoardTerminal) { self.terminal = terminal }
}
