import CMicroHTTPD
import StockroomEngine
import Synchronization

/// One browser's `/events`: a WATCH mailbox of its own in the hub (so the same events, in the
/// same order, with the same overflow rule as a WATCH connection), written as Server-Sent Events
/// when MHD asks for bytes. With nothing to write the connection is suspended, and an arriving
/// event resumes it.
package final class EventStream: Sendable {
  private struct State {
    var phase = EventStreamPhase.running
    /// Something arrived while the connection was being written: look again before suspending.
    var woken = false
    var ended = false
    var pending: [UInt8] = []
    var sent = 0
    /// Events taken from the mailbox and not yet framed: they are framed a chunk at a time as
    /// MHD takes bytes, so a stalled browser holds references to shared events, not a copy of
    /// every event's text (64 stalled streams held half a gigabyte of framed text).
    var backlog: [EncodedEvent] = []
    var framed = 0
    var nextID = 1
    var tick: String?
    /// Events lost when the mailbox overflowed and the stream was closed for it.
    var lagged: Int?
  }

  /// Undelivered events past which a stream is closed as too slow: a browser so far behind is
  /// better served by the resync its reconnect brings, and 64 stalled streams then hold a few
  /// megabytes, not the half gigabyte a WATCH connection's limit would let them
  /// (BoardStreamMemoryTests).
  package static let mailboxLimit = 4_096

  /// The stream's key in the hub, from the same numbering as the shop's connections.
  package let id: Int
  /// The MHD connection, as a bit pattern: it is only used while MHD keeps it alive (see
  /// `EventStreamPhase`).
  private let connection: Int
  private let state: Mutex<State>
  private let mailbox = Mutex<EventMailbox?>(nil)
  private let encoder: BoardEventEncoder

  init(id: Int, connection: OpaquePointer, encoder: BoardEventEncoder) {
    self.id = id
    self.connection = Int(bitPattern: UnsafeRawPointer(connection))
    self.encoder = encoder
    state = Mutex(State())
  }

  /// The stream's first bytes: how long a browser waits before reconnecting (2 s), then `first`
  /// (the board) as event 0.
  func begin(_ first: String) {
    state.withLock { $0.pending = Array("retry: 2000\n\n".utf8) + Self.frame(first, id: 0) + $0.pending }
  }

  /// The connection's key in the server's `HTTPConnectionTable`.
  var connectionKey: Int { connection }

  private var mhdConnection: OpaquePointer { OpaquePointer(bitPattern: connection)! }

  /// The mailbox the hub fills; set once, right after the stream is made.
  func attach(_ box: EventMailbox) { mailbox.withLock { $0 = box } }

  /// Events arrived (called by the hub's deliverer, on any thread).
  func wake() {
    let resume = state.withLock { state -> Bool in
      switch state.phase {
      case .suspended:
        state.phase = .running
        return true
      case .running:
        state.woken = true
        return false
      case .finished:
        return false
      }
    }
    if resume { MHD_resume_connection(mhdConnection) }
  }

  /// A `stats` event for every stream, from the server's tick.
  func tick(_ json: String) {
    state.withLock { $0.tick = json }
    wake()
  }

  /// Ends the stream at its next write (the server is stopping).
  func end() {
    state.withLock { $0.ended = true }
    wake()
  }

  /// Marks the stream closed; returns whether it was closed for falling behind its mailbox and
  /// the events it never delivered (for the slow-consumer figures).
  func finished() -> (lagged: Bool, undelivered: Int) {
    let lagged = state.withLock { state in
      state.phase = .finished
      return state.lagged
    }
    let unframed = state.withLock { $0.backlog.count - $0.framed }
    let left = mailbox.withLock { $0?.take() }
    return (lagged != nil, (lagged ?? 0) + unframed + (left.map { $0.events.count + $0.dropped } ?? 0))
  }

  /// What the stream's mailbox outcome says for MHD's content reader: bytes copied, or -1 (end)
  /// or -2 (closed for falling behind). Runs on MHD's thread only.
  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    while true {
      if let copied = copyPending(into: buffer) { return copied }
      if frameBacklog(upTo: max(buffer.count, Self.chunk)) { continue }
      let (events, overflowed, dropped) = mailbox.withLock { $0?.take() } ?? ([], false, 0)
      if overflowed {
        // As a WATCH connection past its mailbox is: closed, and what it missed counted.
        state.withLock { $0.lagged = events.count + dropped }
        return Int(MHD_CONTENT_READER_END_WITH_ERROR)
      }
      if !events.isEmpty {
        state.withLock { state in
          state.backlog = events
          state.framed = 0
        }
        continue
      }
      if suspendUnlessWoken() { return 0 }
    }
  }

  /// The least text framed at a time: a few TCP segments.
  static let chunk = 16 * 1024

  /// Frames backlog events into the (empty) pending bytes until they hold `bytes`; false when
  /// the backlog is empty.
  private func frameBacklog(upTo bytes: Int) -> Bool {
    state.withLock { state in
      guard state.framed < state.backlog.count else {
        state.backlog = []
        state.framed = 0
        return false
      }
      while state.framed < state.backlog.count && state.pending.count < bytes {
        state.pending += Self.frame(encoder.event(state.backlog[state.framed].event), id: state.nextID)
        state.nextID += 1
        state.framed += 1
      }
      return true
    }
  }

  /// Pending bytes into `buffer`, a tick's event first made pending; nil when there is nothing.
  private func copyPending(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
    state.withLock { state -> Int? in
      if state.sent == state.pending.count, let tick = state.tick {
        state.pending = Self.frame(tick, id: nil)
        state.sent = 0
        state.tick = nil
      }
      guard state.sent < state.pending.count else {
        return state.ended ? Int(MHD_CONTENT_READER_END_OF_STREAM) : nil
      }
      let count = min(buffer.count, state.pending.count - state.sent)
      state.pending.withUnsafeBytes {
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[state.sent..<(state.sent + count)]))
      }
      state.sent += count
      if state.sent == state.pending.count {
        state.pending = []
        state.sent = 0
      }
      return count
    }
  }

  /// Suspends the connection until the next wake, unless one came meanwhile; true when
  /// suspended. The suspension happens under the lock, so a wake sees it done.
  private func suspendUnlessWoken() -> Bool {
    state.withLock { state in
      if state.woken || state.ended || state.tick != nil {
        state.woken = false
        return false
      }
      state.phase = .suspended
      MHD_suspend_connection(mhdConnection)
      return true
    }
  }

  /// One SSE event: its id (the stream's own count; 0 for the first, the snapshot), then the
  /// JSON on one `data:` line (JSON has no raw line breaks).
  static func frame(_ json: String, id: Int?) -> [UInt8] {
    let head = id.map { "id: \($0)\n" } ?? ""
    return Array("\(head)data: \(json)\n\n".utf8)
  }
}
