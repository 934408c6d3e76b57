import StockroomProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The modes scripts use: one command from the command line, or every line of stdin sent
/// pipelined, replies printed in order.
public struct BatchSession {
  public var options: ClientOptions
  /// Logged in with before the first command; a refused login ends the run with 1.
  public var credentials: Credentials?
  public var renderer: Renderer

  public init(options: ClientOptions, credentials: Credentials? = nil, renderer: Renderer) {
    self.options = options
    self.credentials = credentials
    self.renderer = renderer
  }

  /// Exit codes: 0 OK, 1 ERR (or a connection lost midway, or a refused login), 2 server
  /// unreachable. With `-r N` the command runs N times on one connection, `-i` seconds apart,
  /// and any ERR among them gives 1, as in redis-cli the runs go on after one.
  public func runOnce(_ line: String) -> Int32 {
    var sawError = false
    var runs = 0
    var renderer = renderer
    do {
      let connection = try open()
      // For a person, receipts and STOCK name things as the REPL does; a script's output
      // (raw, JSON, CSV) stays what the server said, without the extra round trip.
      if renderer.mode == .human { renderer.names = try Self.names(on: connection) }
      while options.repeatCount < 0 || runs < options.repeatCount {
        if runs > 0 { Self.pause(seconds: options.interval) }
        runs += 1
        try connection.send(line)
        var answered = false
        while !answered {
          switch try connection.nextItem() {
          case .event(let row, let text): TerminalOutput.write(renderer.render(event: row, line: text))
          case .reply(let reply):
            write(reply, renderer: renderer)
            if !reply.isOK { sawError = true }
            answered = true
          }
        }
      }
    } catch {
      TerminalOutput.writeError("stockroom: \(error.message)\n")
      return Self.status(for: error)
    }
    return sawError ? 1 : 0
  }

  /// What NAMES says, before the command; events meanwhile are not the command's.
  private static func names(on connection: ServerLink) throws(ClientError) -> CatalogNames {
    try connection.send("NAMES")
    var names = CatalogNames()
    while true {
      if case .reply(let reply) = try connection.nextItem() {
        names.update(names: reply)
        return names
      }
    }
  }

  /// CSV on stdout is for a program to parse, so an ERR line goes to stderr instead.
  private func write(_ reply: Reply, renderer: Renderer) {
    let text = renderer.render(reply)
    if renderer.mode == .csv && !reply.isOK {
      TerminalOutput.writeError(text)
    } else {
      TerminalOutput.write(text)
    }
  }

  private static func pause(seconds: Double) {
    guard seconds > 0 else { return }
    let whole = seconds.rounded(.down)
    var wait = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
    var left = timespec()
    while nanosleep(&wait, &left) != 0 && errno == EINTR { wait = left }
  }

  private static func status(for error: ClientError) -> Int32 {
    error.kind == .closed || error.kind == .loginFailed ? 1 : 2
  }

  /// Reads stdin line by line, sending each as soon as it is read without waiting for
  /// replies; poll(2) keeps reading replies while writing so a long script cannot deadlock.
  public func runPiped(input: Int32 = 0) -> Int32 {
    let connection: ServerLink
    do {
      connection = try open()
    } catch {
      TerminalOutput.writeError("stockroom: \(error.message)\n")
      return Self.status(for: error)
    }
    var pendingOutput: [UInt8] = []
    var inputBuffer: [UInt8] = []
    var inputOpen = true
    var sent = 0
    var answered = 0
    var sawError = false
    var quitSent = false
    while inputOpen || answered < sent {
      var fds = [pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)]
      if !pendingOutput.isEmpty { fds[0].events |= Int16(POLLOUT) }
      if inputOpen && !quitSent { fds.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
      if poll(&fds, nfds_t(fds.count), -1) < 0 {
        if errno == EINTR { continue }
        break
      }
      do {
        if fds.count > 1, fds[1].revents != 0 {
          var chunk = [UInt8](repeating: 0, count: 16 * 1024)
          let count = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
          if count <= 0 {
            if count < 0 && errno == EINTR { continue }
            inputOpen = false
            if !inputBuffer.isEmpty { inputBuffer.append(UInt8(ascii: "\n")) }
          } else {
            inputBuffer += chunk[..<count]
          }
          while let newline = inputBuffer.firstIndex(of: UInt8(ascii: "\n")), !quitSent {
            var line = String(decoding: inputBuffer[..<newline], as: UTF8.self)
            inputBuffer.removeFirst(newline + 1)
            if line.hasSuffix("\r") { line.removeLast() }
            line = line.trimmingSpaces()
            guard !line.isEmpty else { continue }
            pendingOutput += Array((line + "\n").utf8)
            sent += 1
            // The server closes after QUIT; lines after it would never be answered.
            if line.uppercased() == "QUIT" { quitSent = true }
          }
          if quitSent { inputOpen = false }
        }
        if fds[0].revents & Int16(POLLOUT) != 0, !pendingOutput.isEmpty {
          let written = try connection.sendSome(pendingOutput[...], blocking: false)
          pendingOutput.removeFirst(written)
        }
        if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
          try connection.readOnce()
          for item in connection.takeQueued() {
            switch item {
            case .event(let row, let text): TerminalOutput.write(renderer.render(event: row, line: text))
            case .reply(let reply):
              answered += 1
              if !reply.isOK { sawError = true }
              write(reply, renderer: renderer)
            }
          }
        } else if fds[0].revents & Int16(POLLOUT) == 0, fds[0].revents != 0 {
          try connection.readOnce()
        }
      } catch {
        if quitSent && answered == sent { break }
        TerminalOutput.writeError(
          "stockroom: \(error.message); \(sent - answered) of \(sent) commands unanswered\n")
        return 1
      }
    }
    return options.exitOnError && sawError ? 1 : 0
  }

  private func open() throws(ClientError) -> ServerLink {
    let connection = try ServerLink.open(host: options.host, port: options.port, tls: options.tls)
    if let credentials {
      try connection.send(credentials.loginLine)
      while true {
        if case .reply(let reply) = try connection.nextItem() {
          // On stderr: stdout holds one reply per command the script sent, and it sent no LOGIN.
          guard reply.isOK else {
            throw ClientError(
              .loginFailed,
              "login as \(credentials.name) failed: \(VisibleControls.escaped(reply.lines.last ?? "", lineBreaks: false))"
            )
          }
          break
        }
      }
    }
    return connection
  }
}
