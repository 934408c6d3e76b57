import Foundation
import StockroomProtocol
import Testing

@testable import StockroomClient

/// The board's pieces without a terminal: what a frame holds, how it fits a window, how often
/// it is drawn and when a lost server is tried again.
@Suite("The live board: state, layout, pacing", .timeLimit(.minutes(30)))
struct BoardLayoutTests {
  private static func reply(_ lines: String...) throws -> Reply {
    var reader = ReplyReader()
    for line in lines {
      if case .reply(let reply)? = reader.feed(line) { return reply }
    }
    throw ProtocolError(.syntax, "no status line")
  }

  private static func event(_ line: String) throws -> Row {
    var reader = ReplyReader()
    guard case .event(let row, _)? = reader.feed(line) else { throw ProtocolError(.syntax, "not an event") }
    return row
  }

  /// A board of `count` fruits named Item1..., each with 10.
  private static func state(items count: Int) throws -> BoardState {
    var state = BoardState(server: "127.0.0.1:7878")
    let rows = (1...count).map { "* item\($0) kind=fruit stock=10" }
    var reader = ReplyReader()
    for line in rows + ["OK \(count) items"] {
      if case .reply(let reply)? = reader.feed(line) { state.resync(stock: reply) }
    }
    return state
  }

  @Test("one order's events make one recent order; levels, names and the rate follow the events")
  func eventsMakeOrders() throws {
    var state = BoardState(server: "127.0.0.1:7878")
    state.resync(stock: try Self.reply("* banana kind=fruit stock=10", "* kiwi kind=fruit stock=10", "OK 2 items"))
    state.learn(names: try Self.reply("* banana kind=fruit name=Banana", "OK count=1 generation=1"))
    #expect(state.items.map(\.name) == ["Banana", "kiwi"])
    state.apply(
      event: try Self.event("! stock item=banana name=Banana level=6 change=-4 cause=order order=1 user=bob"),
      now: 100, clock: "12:00:00")
    state.apply(
      event: try Self.event("! stock item=kiwi name=Kiwi level=9 change=-1 cause=order order=1 user=bob"),
      now: 100, clock: "12:00:00")
    state.apply(
      event: try Self.event("! stock item=kiwi name=Kiwi level=19 change=+10 cause=restock"), now: 101,
      clock: "12:00:01")
    state.apply(
      event: try Self.event("! stock item=p1 name=\"Red apple\" level=3 change=+3 cause=listed"), now: 101, clock: "")
    #expect(state.items.map(\.level) == [6, 19, 3])
    #expect(state.items.map(\.name) == ["Banana", "Kiwi", "Red apple"])
    #expect(state.orders.count == 1 && state.ordersSeen == 1)
    #expect(state.orders[0].lines.map(\.item) == ["Banana", "Kiwi"])
    #expect(state.orders[0].user == "bob")
    #expect(state.ordersPerSecond(now: 102) == 1 / BoardState.rateWindow)
    #expect(state.ordersPerSecond(now: 100 + BoardState.rateWindow + 1) == 0)
    state.apply(
      event: try Self.event("! stock item=p1 name=\"Red apple\" level=0 change=-3 cause=delisted"), now: 103, clock: "")
    #expect(state.items.map(\.id) == ["banana", "kiwi"])
    // A resync keeps names and the bar's scale, and takes the levels the server says.
    state.resync(stock: try Self.reply("* banana kind=fruit stock=10", "* kiwi kind=fruit stock=2", "OK 2 items"))
    #expect(state.items.map(\.level) == [10, 2])
    #expect(state.items[1].scale == 19 && state.items[1].name == "Kiwi")
  }

  @Test(
    "every line fits the window; items that do not fit are dropped and counted",
    arguments: [(60, 12), (120, 16), (30, 8)])
  func fitsTheWindow(columns: Int, rows: Int) throws {
    var state = try Self.state(items: 20)
    state.apply(
      event: try Self.event("! stock item=item1 name=소갈비찜 level=7 change=-3 cause=order order=4"), now: 1,
      clock: "12:00:00")
    let layout = BoardLayout(
      columns: columns, rows: rows, palette: Palette(isEnabled: false), clock: "12:00:00", ordersPerSecond: 0.2)
    let lines = layout.lines(for: state)
    #expect(lines.count <= rows)
    for line in lines { #expect(DisplayWidth.of(line) <= columns, "too wide for \(columns): '\(line)'") }
    let shown = lines.filter { $0.hasPrefix("item") || $0.hasPrefix("소갈비찜") }.count
    let notice = try #require(lines.first { $0.contains("more not shown") }, "\(lines)")
    #expect(notice.hasPrefix("… \(20 - shown) more"), "\(lines)")
    // A very small window gives what rows it has to the stock, and says what it left out.
    if rows >= 12 { #expect(lines.contains { $0.contains("RECENT ORDERS") }, "\(lines)") }
  }

  @Test("a window big enough shows every item and says nothing is missing")
  func everythingFits() throws {
    let state = try Self.state(items: 20)
    let layout = BoardLayout(
      columns: 120, rows: 40, palette: Palette(isEnabled: false), clock: "12:00:00", ordersPerSecond: 0)
    let lines = layout.lines(for: state)
    #expect(lines.filter { $0.hasPrefix("item") }.count == 20)
    #expect(!lines.contains { $0.contains("not shown") })
    #expect(lines[0].contains("stockroom top · 127.0.0.1:7878 · guest") && lines[0].contains("q quits"))
  }

  @Test("the status line says the server went away and when the next attempt is")
  func lostServer() throws {
    var state = try Self.state(items: 3)
    state.link = .lost(reason: "connection to 127.0.0.1:7878 lost: closed by the server", attempts: 2, retryIn: 1.5)
    let layout = BoardLayout(
      columns: 120, rows: 20, palette: Palette(isEnabled: false), clock: "12:00:00", ordersPerSecond: 0)
    let status = layout.lines(for: state)[2]
    #expect(status.contains("server went away (connection to 127.0.0.1:7878 lost: closed by the server)"))
    #expect(status.contains("reconnecting in 1.5 s, attempt 3"), "\(status)")
  }

  @Test("a shared store that is down, by WATCH's reply or a `! store` event, is on the status line until it is up")
  func storeDown() throws {
    var state = try Self.state(items: 3)
    let layout = BoardLayout(
      columns: 120, rows: 20, palette: Palette(isEnabled: false), clock: "12:00:00", ordersPerSecond: 0)
    state.watching(reply: try Self.reply("OK watching=all store=down"))
    #expect(layout.lines(for: state)[2].contains("lost the shop's database; levels may be stale"))
    state.apply(event: try Self.event("! store state=up"), now: 1, clock: "")
    #expect(state.storeLink == .up)
    #expect(layout.lines(for: state)[2].trimmingCharacters(in: .whitespaces).isEmpty)
    state.apply(event: try Self.event("! store state=down reason=\"connection refused\""), now: 2, clock: "")
    #expect(layout.lines(for: state)[2].contains("lost the shop's database (connection refused); levels may be stale"))
    state.watching(reply: try Self.reply("OK watching=all"))
    #expect(state.storeLink == .up, "a WATCH answered without store=down: the database is there")
  }

  @Test("a thousand changes in a second are drawn at most five times, and the last one is drawn")
  func coalesces() {
    var pacer = RedrawPacer(interval: 0.2)
    var draws = 0
    var now = 0.0
    for _ in 0..<1000 {
      pacer.changed()
      if pacer.isDue(at: now) {
        pacer.drew(at: now)
        draws += 1
      }
      now += 0.001
    }
    #expect(draws <= 5)
    #expect(pacer.isDirty, "the last changes are still owed a frame")
    let wait = pacer.millisecondsUntilDue(at: now)
    #expect(wait != nil && wait! <= 200)
    now += Double(wait!) / 1000
    #expect(pacer.isDue(at: now))
  }

  @Test("`stockroom top` and the REPL's `:top` start the board; TOP in capitals is a request like any other")
  func startingTheBoard() throws {
    guard case .run(let options) = try ClientOptions.parse(["-p", "7000", "-u", "alice", "top"]) else {
      Issue.record("top did not parse as a run")
      return
    }
    #expect(options.showsBoard && options.command.isEmpty && options.user == "alice" && options.port == 7000)
    let request = try #require(try ClientOptions.parse(["TOP"]).runOptions, "TOP did not parse as a run")
    #expect(!request.showsBoard && request.command == ["TOP"])
    #expect(LocalCommand.parse(":top") == .top)
    #expect(LocalCommand.words.contains(":top"))
  }

  @Test("reconnects back off like the REPL's: 0.25 s, doubling, at most 5 s; a success starts over")
  func backoff() {
    var backoff = RetryBackoff()
    let waits = (0..<7).map { _ in backoff.failed() }
    #expect(waits == [0.25, 0.5, 1, 2, 4, 5, 5])
    #expect(backoff.attempts == 7)
    backoff.reset()
    #expect(backoff.failed() == 0.25)
  }
}
