import CStockroomShims
import StockroomProtocol
import StockroomSystem

/// Server commands: a request sent, its reply shown (paged, piped or written to a file), and
/// what the session keeps from it.
extension InteractiveSession {
  /// Sends `line` and shows its reply, or hands it, without colour, to `target`.
  func execute(_ line: String, to target: OutputRedirect.Target? = nil) {
    guard let connection = connected() else { return }
    do {
      let started = MonotonicClock.seconds()
      try connection.send(line)
      let reply = try waitForReply(on: connection)
      let elapsed = MonotonicClock.seconds() - started
      if let target {
        var plain = renderer
        plain.palette = Palette(isEnabled: false)
        // A file keeps the server's words exact; a pipe's output most often ends on this
        // terminal, so it gets them as the screen would.
        if case .file = target { plain.escapesControls = false }
        handedOff(handOff.deliver(plain.render(reply), to: target), to: target, reply: reply)
      } else {
        show(renderer.render(reply))
      }
      if timing { tell("Time: \(Self.milliseconds(elapsed)) ms", renderer.palette.dim) }
      if reply.isOK { remember(after: line, reply: reply) }
      showQueuedEvents(of: connection)
    } catch {
      lost(error)
    }
  }

  /// `12.345`: milliseconds to the microsecond, as psql's `\timing` shows them.
  private static func milliseconds(_ seconds: Double) -> String {
    let micro = Int((seconds * 1_000_000).rounded())
    let fraction = String(micro % 1000)
    return "\(micro / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  /// Long replies (and HELP) through the pager when they would not fit on the screen.
  func show(_ text: String) {
    if paging, outputIsTerminal, let pagerCommand,
      Pager.isTaller(text, rows: Int(sr_terminal_rows(1)), columns: Int(sr_terminal_columns(1))),
      Pager(command: pagerCommand).show(text)
    {
      return
    }
    say(text)
    if paging, outputIsTerminal, let pagerCommand, !pagerWarned,
      Pager.isTaller(text, rows: Int(sr_terminal_rows(1)), columns: Int(sr_terminal_columns(1)))
    {
      // The pager could not be started: said once, so a broken $PAGER is not a silent mystery.
      pagerWarned = true
      tell("the pager '\(pagerCommand)' could not be started; :pager off stops trying", renderer.palette.dim)
    }
  }

  /// Waits for the next reply, printing the events that arrive before it.
  func waitForReply(on connection: ServerLink) throws(ClientError) -> Reply {
    while true {
      switch try connection.nextItem() {
      case .reply(let reply): return reply
      case .event(let row, let line): showEvent(row, line: line, above: false)
      }
    }
  }

  /// Sends `line` and waits for its reply, for the session's own use: the events that arrive
  /// meanwhile go above the prompt.
  func request(_ line: String, on connection: ServerLink) throws(ClientError) -> Reply {
    try connection.send(line)
    while true {
      switch try connection.nextItem() {
      case .reply(let reply):
        showQueuedEvents(of: connection)
        return reply
      case .event(let row, let line): showEvent(row, line: line, above: true)
      }
    }
  }

  /// Keeps what the server must be told again after a reconnect, and what completion needs.
  private func remember(after line: String, reply: Reply) {
    if let cursor = PageCursor(line: line, reply: reply) { pageCursor = cursor }
    guard let words = try? Tokenizer.words(in: line), let first = words.first else { return }
    let command = first.text.uppercased()
    let positional = words.dropFirst().filter { !$0.isOption }.map(\.value)
    switch command {
    case "LOGIN", "REGISTER":
      identity = Identity(reply: reply, command: command)
      if positional.count >= 2 {
        credentials = Credentials(name: positional[0], password: Secret(positional[1]))
      }
      nameCache.markStale()
    case "LOGOUT":
      identity = nil
      credentials = nil
      nameCache.markStale()
    case "WHOAMI", "HELLO":
      identity = Identity(reply: reply, command: command)
    case "PASSWD":
      // The next reconnect must log in with the new password, not the one that stopped working.
      if positional.count >= 2 { credentials?.password = Secret(positional[1]) }
    case "USER":
      if positional.count >= 3, positional[0].uppercased() == "PASSWD", positional[1] == credentials?.name {
        credentials?.password = Secret(positional[2])
      }
    case "WATCH": watching = words.dropFirst().map(\.text)
    case "UNWATCH": watching = nil
    case "PRODUCT", "DIARY": nameCache.markStale()
    default: break
    }
  }
}
