import StockroomProtocol

/// Events (`! stock`, `! closing`) the server sends between replies, shown above the prompt.
extension InteractiveSession {
  /// Runs inside the line editor's read when the socket has data: events go above the
  /// prompt, and the end of the connection is said once.
  func serveIdleSocket() {
    guard let connection else { return }
    do {
      try connection.readOnce()
    } catch {
      for case .event(let row, let line) in connection.takeQueued() {
        showEvent(row, line: line, above: true)
      }
      lost(error)
      return
    }
    for item in connection.takeQueued() {
      if case .event(let row, let line) = item { showEvent(row, line: line, above: true) }
    }
  }

  /// Events read in the same chunk as a reply, after it: the server sends a watcher's own
  /// `! stock` right behind its `OK order=`. The socket has nothing more to say about them, so
  /// the editor's poll would not wake, and they would wait for the next command.
  func showQueuedEvents(of connection: ServerLink) {
    for case .event(let row, let line) in connection.takeQueued() {
      showEvent(row, line: line, above: true)
    }
  }

  func showEvent(_ row: Row, line: String, above: Bool) {
    if let cause = row["cause"], cause == "listed" || cause == "delisted" { nameCache.markStale() }
    if row.id == "closing", row["reason"] == "idle" { reconnector.closedForIdleness = true }
    let text = renderer.render(event: row, line: line)
    if above { editor.printAbove(text) } else { say(text) }
  }
}
