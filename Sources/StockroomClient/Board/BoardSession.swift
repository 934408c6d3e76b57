import Foundation
import StockroomProtocol
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `stockroom top` and the REPL's `:top`: a full-screen board that redraws in place from
/// `WATCH` events until `q`.
///
/// One thread and one poll(2) over the keyboard, the server, the signal pipe and (while a
/// frame is still going out) the terminal. Requests are pipelined and their replies matched
/// in order, so the loop never waits on the server; frames are written without blocking and
/// at most a few a second, so it never waits on the terminal either.
public final class BoardSession {
  private let options: ClientOptions
  /// What every connection logs in with: `-u`'s, or the REPL's login. Dropped after a refusal,
  /// as the REPL does, so a reconnect does not try a password that failed.
  private var credentials: Credentials?
  private let palette: Palette
  private var state: BoardState
  private var connection: ServerLink? = nil
  private var awaiting: [BoardRequest] = []
  private var pacer = RedrawPacer()
  private var backoff = RetryBackoff()
  private var nextRetry: Double? = nil
  private var nextWho: Double = 0
  private var whoAnswers = true
  private var noticeUntil: Double? = nil
  private var shownSecond = -1

  /// How often `WHO` is asked again.
  static let whoInterval = 2.0
  /// How long one reconnect attempt may take before the board gives up on it and redraws.
  static let attemptLimitMilliseconds: Int32 = 1000
  static let noticeSeconds = 10.0

  public init(options: ClientOptions, credentials: Credentials?, palette: Palette) {
    self.options = options
    self.credentials = credentials
    self.palette = palette
    self.state = BoardState(server: "\(options.host):\(options.port)")
  }

  /// Why the board cannot run on this output, as the one line to print; nil when it can.
  public static func refusal(outputIsTerminal: Bool) -> String? {
    outputIsTerminal
      ? nil
      : "stockroom: top draws a full-screen board and needs a terminal on stdout; for scripts use STOCK, or WATCH with piped input"
  }

  /// Runs the board to its end and returns the exit status: 0 after `q`, 2 when the server
  /// cannot be reached at the start, 128 + the signal when one ended it.
  public func run() -> Int32 {
    do {
      try connect(limitMilliseconds: nil)
    } catch {
      TerminalOutput.writeError("stockroom: \(error.message)\n")
      return 2
    }
    guard let signals = BoardSignals() else {
      TerminalOutput.writeError("stockroom: cannot watch for signals\n")
      return 70
    }
    let terminal = BoardTerminal()
    terminal.start()
    let exit = loop(terminal: terminal, signals: signals)
    terminal.restore()
    signals.stop()
    connection?.close()
    connection = nil
    return exit.status
  }

  // MARK: - The loop

  private func loop(terminal: BoardTerminal, signals: BoardSignals) -> BoardExit {
    var keysOpen = terminal.readsKeys
    while true {
      var now = MonotonicClock.seconds()
      tick(now: now)
      if pacer.isDue(at: now) && !terminal.isBusy {
        draw(on: terminal, now: now)
      }
      var fds = [pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0)]
      let keyIndex = keysOpen ? fds.count : nil
      if keysOpen { fds.append(pollfd(fd: 0, events: Int16(POLLIN), revents: 0)) }
      let socketIndex = connection.map { _ in fds.count }
      if let connection { fds.append(pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)) }
      let outputIndex = terminal.isBusy ? fds.count : nil
      if terminal.isBusy { fds.append(pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)) }
      let ready = poll(&fds, nfds_t(fds.count), timeout(now: now))
      if ready < 0 && errno != EINTR { return .failed }
      for signal in signals.take() {
        switch signal {
        case SIGWINCH: pacer.changed()
        case SIGINT: return .interrupted
        default: return .signalled(signal)
        }
      }
      guard ready > 0 else { continue }
      if let keyIndex, fds[keyIndex].revents != 0 {
        let keys = terminal.readKeys()
        if keys.isEmpty && fds[keyIndex].revents & Int16(POLLHUP | POLLERR) != 0 { keysOpen = false }
        for key in keys {
          switch key {
          case UInt8(ascii: "q"), UInt8(ascii: "Q"), 4: return .quit
          case 3: return .interrupted
          default: break
          }
        }
      }
      if let outputIndex, fds[outputIndex].revents != 0 {
        terminal.flush()
      }
      if let socketIndex, fds[socketIndex].revents != 0 {
        now = MonotonicClock.seconds()
        serveSocket(now: now)
      }
    }
  }

  /// Everything that happens because time passed: the clock, the rate, WHO, a reconnect.
  private func tick(now: Double) {
    let second = Int(time(nil))
    if second != shownSecond {
      shownSecond = second
      pacer.changed()
    }
    if let until = noticeUntil, now >= until {
      noticeUntil = nil
      state.notice = nil
      pacer.changed()
    }
    if connection == nil, let due = nextRetry, now >= due {
      retry(now: now)
    }
    if let connection, whoAnswers, now >= nextWho, !awaiting.contains(.who) {
      nextWho = now + Self.whoInterval
      ask(.who, "WHO", on: connection)
    }
  }

  private func timeout(now: Double) -> Int32 {
    var wait = Int32(1000 - (Int(now * 1000) % 1000))
    if let due = pacer.millisecondsUntilDue(at: now) { wait = min(wait, due) }
    if connection != nil, whoAnswers { wait = min(wait, Self.milliseconds(until: nextWho, now: now)) }
    if connection == nil, let due = nextRetry { wait = min(wait, Self.milliseconds(until: due, now: now)) }
    return max(0, wait)
  }

  private func draw(on terminal: BoardTerminal, now: Double) {
    if case .lost(let reason, let attempts, _) = state.link, let due = nextRetry {
      state.link = .lost(reason: reason, attempts: attempts, retryIn: max(0, due - now))
    }
    let size = terminal.size
    let layout = BoardLayout(
      columns: size.columns, rows: size.rows, palette: palette, clock: Self.clock(),
      ordersPerSecond: state.ordersPerSecond(now: now))
    if terminal.draw(layout.lines(for: state)) { pacer.drew(at: now) }
  }

  // MARK: - The server

  /// Opens a connection and asks, pipelined, for everything the board shows: the login, the
  /// events, the names, the levels as they are now, and who is connected.
  private func connect(limitMilliseconds: Int32?) throws(ClientError) {
    let connection = try ServerLink.open(
      host: options.host, port: options.port, limitMilliseconds: limitMilliseconds, tls: options.tls)
    self.connection = connection
    awaiting = []
    state.identity = nil
    if let credentials { ask(.login(name: credentials.name), credentials.loginLine, on: connection) }
    // WATCH before STOCK: a change made between the two is in the levels, its event, or both,
    // and an event carries the level itself, so nothing is missed or counted twice.
    ask(.watch, "WATCH", on: connection)
    ask(.names, "NAMES", on: connection)
    ask(.stock, "STOCK", on: connection)
    nextWho = MonotonicClock.seconds() + Self.whoInterval
    ask(.who, "WHO", on: connection)
    guard self.connection != nil else { throw ClientError(.closed, "the connection closed again at once") }
  }

  private func ask(_ request: BoardRequest, _ line: String, on connection: ServerLink) {
    do {
      try connection.send(line)
      awaiting.append(request)
    } catch {
      lost(error, now: MonotonicClock.seconds())
    }
  }

  private func serveSocket(now: Double) {
    guard let connection else { return }
    var failure: ClientError? = nil
    do {
      try connection.readOnce()
    } catch {
      failure = error
    }
    let clock = Self.clock()
    // Every entry on the board is one line of the server's words: no control in them reaches
    // the terminal, line breaks included.
    for item in connection.takeQueued() {
      switch item {
      case .event(let row, _):
        state.apply(event: VisibleControls.row(row, lineBreaks: false), now: now, clock: clock)
      case .reply(let reply):
        guard !awaiting.isEmpty else { continue }
        answered(awaiting.removeFirst(), VisibleControls.reply(reply, lineBreaks: false))
      }
      pacer.changed()
    }
    if let failure { lost(failure, now: now) }
  }

  private func answered(_ request: BoardRequest, _ reply: Reply) {
    switch request {
    case .login(let name):
      state.identity = Identity(reply: reply, command: "LOGIN")
      if !reply.isOK {
        credentials = nil
        say("login as \(name) failed: \(reply.lines.last ?? ""); watching as a guest")
      }
    case .watch:
      if reply.isOK { state.watching(reply: reply) } else { say(reply.lines.last ?? "WATCH failed") }
    case .names:
      if reply.isOK { state.learn(names: reply) }
    case .stock:
      if reply.isOK { state.resync(stock: reply) }
    case .who:
      if let presence = BoardPresence(reply: reply) {
        state.presence = presence
      } else if reply.errorCode == .unknown {
        // A server from before WHO: the board goes on without the connected line.
        whoAnswers = false
        state.presence = nil
      }
    }
  }

  /// The server went away: said on the board, with retries on the REPL's schedule.
  private func lost(_ error: ClientError, now: Double) {
    connection?.close()
    connection = nil
    awaiting = []
    let wait = backoff.failed()
    nextRetry = now + wait
    if case .lost(let reason, _, _) = state.link {
      state.link = .lost(reason: reason, attempts: backoff.attempts - 1, retryIn: wait)
    } else {
      state.link = .lost(reason: error.message, attempts: 0, retryIn: wait)
    }
    state.presence = nil
    pacer.changed()
  }

  private func retry(now: Double) {
    do {
      try connect(limitMilliseconds: Self.attemptLimitMilliseconds)
      backoff.reset()
      nextRetry = nil
      state.link = .connected
      say("reconnected to \(options.host):\(options.port) at \(Self.clock())")
    } catch {
      connection?.close()
      connection = nil
      // Lost again while asking: lost() has already scheduled the next attempt.
      if let due = nextRetry, due > now {
        pacer.changed()
        return
      }
      let wait = backoff.failed()
      nextRetry = MonotonicClock.seconds() + wait
      if case .lost(let reason, _, _) = state.link {
        state.link = .lost(reason: reason, attempts: backoff.attempts - 1, retryIn: wait)
      }
    }
    pacer.changed()
  }

  private func say(_ text: String) {
    state.notice = text
    noticeUntil = MonotonicClock.seconds() + Self.noticeSeconds
    pacer.changed()
  }

  // MARK: - Time

  private static func milliseconds(until due: Double, now: Double) -> Int32 {
    Int32(max(0, min(60_000, ((due - now) * 1000).rounded(.up))))
  }

  /// The local time of day, as the board's title and its orders show it.
  private static func clock() -> String {
    var now = time(nil)
    var parts = tm()
    localtime_r(&now, &parts)
    return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
  }
}
