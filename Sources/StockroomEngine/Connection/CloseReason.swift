import StockroomProtocol
import StockroomSystem

/// Why a connection ended: for the log line, and for the server to tell clients from rejected
/// peers without reading the words.
package enum CloseReason: Sendable, Equatable, CustomStringConvertible {
  /// The client closed (or reset) its side while we still served it.
  case clientClosed
  /// `QUIT` was answered.
  case clientQuit
  /// The client shut its sending side: every request it sent was answered, then we closed.
  case inputEnded
  /// Too many failed LOGIN or PASSWD attempts on one connection.
  case loginFailures(Int)
  case lineTooLong
  case readFailed(Errno)
  case writeFailed(Errno)
  case cannotWatchSocket(Errno)
  /// A watcher's undelivered events passed the mailbox's capacity.
  case watcherBehind(events: Int)
  /// Unsent output passed the hard limit: the client is not reading. `events` of it were events
  /// the client never began to receive, which count as dropped.
  case outputOverflow(bytes: Int, events: Int)
  /// Cut to keep the server's unsent watcher output within `total` bytes
  /// (`UnsentOutputBudget`): this watcher was the furthest behind of the source holding most.
  case outputBudget(total: Int, events: Int)
  case idle(seconds: Int)
  /// A watcher left output waiting for `seconds` without taking a byte of it; `events` of it were
  /// events the client never began to receive, which count as dropped.
  case watcherNotReading(seconds: Int, events: Int)
  case lineTimeout(seconds: Int)
  /// The closing connection's owed output was not taken in time.
  case closingTimedOut(seconds: Int)
  case foreignProtocol(ForeignProtocol)
  /// The server was full and a connection came from a source holding fewer places than this
  /// one's, which held the most: its newest place went to the newcomer.
  case placeTaken(held: Int)
  /// Every watcher place was held and a connection from a source holding fewer of them than
  /// this one's, which held the most, started watching: this one's place went to it.
  case watcherPlaceTaken(held: Int)
  /// Turned away at connect with `ERR LIMIT`; it never counted as a client.
  case rejected
  case serverStopping
  /// The TLS handshake failed, or a record did; OpenSSL's reason, never the bytes.
  case tlsFailed(String)
  /// The TLS handshake was not finished in time.
  case tlsHandshakeTimeout(seconds: Int)
  /// Plain text (or another protocol) on the TLS port.
  case notTLS

  package var description: String {
    switch self {
    case .clientClosed: "client closed"
    case .clientQuit: "client quit"
    case .inputEnded: "client finished sending; every request answered"
    case .loginFailures(let count): "\(count) failed logins"
    case .lineTooLong: "line too long"
    case .readFailed(let error): "read failed: \(error)"
    case .writeFailed(let error): "write failed: \(error)"
    case .cannotWatchSocket(let error): "cannot watch the socket: \(error)"
    case .watcherBehind(let events): "watcher fell \(events) events behind"
    case .outputOverflow(let bytes, let events):
      "unsent output passed \(bytes) bytes; client is not reading; \(events) events never sent"
    case .outputBudget(let total, let events):
      "cut: watchers' unsent output passed the server's \(total) bytes and this one was furthest behind; \(events) events never sent"
    case .idle(let seconds): "idle for \(seconds) s"
    case .watcherNotReading(let seconds, let events):
      "watcher took none of its output for \(seconds) s; \(events) events never sent"
    case .lineTimeout(let seconds): "request line not finished within \(seconds) s"
    case .closingTimedOut(let seconds): "owed output not taken within \(seconds) s of closing"
    case .foreignProtocol(let kind): "cross-protocol attempt (\(kind.rawValue))"
    case .placeTaken(let held):
      "cut: the server was full and this address held the most places (\(held)); its newest went to another address"
    case .watcherPlaceTaken(let held):
      "cut: every watcher place was held and this address held the most (\(held)); its newest went to another address"
    case .rejected: "rejected: server full"
    case .serverStopping: "server stopping"
    case .tlsFailed(let reason): "TLS failed: \(reason)"
    case .tlsHandshakeTimeout(let seconds): "TLS handshake not finished within \(seconds) s"
    case .notTLS: "plain text on the TLS port"
    }
  }
}
