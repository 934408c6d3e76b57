import StockroomProtocol
import StockroomSystem

/// Connecting, and connecting again after an outage: at the next command, or in the
/// background while the prompt waits (the schedule is `Reconnector`'s).
extension InteractiveSession {
  /// The connection, opened again first when it was lost; nil when that failed, which has
  /// been said.
  func connected() -> ServerLink? {
    if let connection, connection.isReadable() {
      // The socket may have been closed while we were not looking; find out before sending.
      serveIdleSocket()
    }
    if connection == nil {
      do {
        try connect()
        // Lost again while fetching names: lost() has not spoken twice for one outage.
        guard connection != nil else {
          tell("ERR not connected: the connection closed again at once", renderer.palette.error)
          return nil
        }
        announceBack()
      } catch {
        connection?.close()
        connection = nil
        tell("ERR not connected: \(error.message)", renderer.palette.error)
        return nil
      }
    }
    return connection
  }

  func connect(limitMilliseconds: Int32? = nil) throws(ClientError) {
    let connection = try ServerLink.open(
      host: options.host, port: options.port, limitMilliseconds: limitMilliseconds, tls: options.tls)
    self.connection = connection
    identity = nil
    if let credentials {
      try connection.send(credentials.loginLine)
      let reply = try waitForReply(on: connection)
      identity = Identity(reply: reply, command: "LOGIN")
      if !reply.isOK {
        // A password that failed once fails again: forget it rather than retry on every reconnect.
        self.credentials = nil
        let text =
          "login as \(credentials.name) failed: \(VisibleControls.escaped(reply.lines.last ?? "", lineBreaks: false)); continuing as a guest"
        tell(text, renderer.palette.error)
      }
    }
    if let watching {
      try connection.send((["WATCH"] + watching).joined(separator: " "))
      let reply = try waitForReply(on: connection)
      if !reply.isOK { say(renderer.render(reply)) }
    }
    nameCache.markStale()
    refreshNamesIfNeeded()
  }

  /// Says once per outage that the server went away, and starts the background retries;
  /// a command typed meanwhile still tries at once.
  func lost(_ error: ClientError) {
    connection?.close()
    connection = nil
    editor.watched = nil
    switch reconnector.lost(at: MonotonicClock.seconds()) {
    case .alreadySaid:
      editor.prompt = prompt
    case .idleNoticeShown:
      editor.printAbove("", prompt: prompt)
    case .announce:
      editor.printAbove(wrapped("\(error.message); reconnecting", renderer.palette.error), prompt: prompt)
    }
  }

  /// The end of an outage: said once, and the editor watches the new socket.
  private func announceBack() {
    reconnector.reconnected()
    editor.watched = connection?.fd
    editor.printAbove(wrapped("reconnected to \(options.host):\(options.port)", renderer.palette.dim), prompt: prompt)
  }

  func millisecondsToRetry() -> Int32 {
    guard connection == nil else { return -1 }
    return reconnector.millisecondsToRetry(at: MonotonicClock.seconds())
  }

  /// One attempt while the prompt waits; a failure doubles the wait, up to a ceiling, and
  /// says nothing, since the outage was announced when it began.
  func retryIfDue() {
    guard connection == nil, reconnector.isDue(at: MonotonicClock.seconds()) else { return }
    do {
      try connect(limitMilliseconds: Reconnector.attemptLimitMilliseconds)
      // Fetching names after the login can lose the new connection again; lost() then
      // kept the retry scheduled, and the user has not been told anything is back.
      guard connection != nil else { return reconnector.attemptFailed(at: MonotonicClock.seconds()) }
      announceBack()
    } catch {
      connection?.close()
      connection = nil
      reconnector.attemptFailed(at: MonotonicClock.seconds())
    }
  }
}
