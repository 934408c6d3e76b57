import CMicroHTTPD
import Synchronization

/// One `POST /order` while MHD holds it: its body as it arrives, then, once the order is done,
/// the reply to send. MHD's request context points at it. While the order is under way the
/// connection is suspended; the suspension happens under the lock, so the reply's arrival sees
/// it done and resumes it, or comes first and the connection is never suspended.
final class PhoneOrderUpload: Sendable {
  private struct State {
    var body: [UInt8] = []
    var tooLarge = false
    /// Set once the body was taken for an order.
    var submitted = false
    var suspended = false
    var reply: PhoneOrderReply?
  }

  private let state = Mutex(State())
  /// The MHD connection, as a bit pattern: used only while MHD holds the request (a suspended
  /// connection is not closed under it).
  private let connection: Int

  init(connection: OpaquePointer) {
    self.connection = Int(bitPattern: UnsafeRawPointer(connection))
  }

  /// Keeps `bytes`, up to `HTTPLimits.orderBody` in all; past it, the body is too large.
  func append(_ bytes: UnsafeRawBufferPointer) {
    state.withLock { state in
      guard !state.tooLarge else { return }
      if state.body.count + bytes.count > HTTPLimits.orderBody {
        state.tooLarge = true
        state.body = []
      } else {
        state.body += bytes
      }
    }
  }

  /// The whole body, nil when it was too large; marks it submitted.
  func take() -> [UInt8]? {
    state.withLock { state in
      state.submitted = true
      return state.tooLarge ? nil : state.body
    }
  }

  var isSubmitted: Bool { state.withLock { $0.submitted } }

  var reply: PhoneOrderReply? { state.withLock { $0.reply } }

  /// Suspends the connection until `deliver`; false, and nothing is suspended, when the reply
  /// is already here. Called in MHD's handler.
  func suspendUnlessAnswered() -> Bool {
    state.withLock { state in
      guard state.reply == nil else { return false }
      MHD_suspend_connection(OpaquePointer(bitPattern: connection)!)
      state.suspended = true
      return true
    }
  }

  /// The order's answer: kept, and the connection resumed if it waits for it; MHD then calls
  /// the handler again, which sends it. Any thread.
  func deliver(_ reply: PhoneOrderReply) {
    let resume = state.withLock { state -> Bool in
      state.reply = reply
      defer { state.suspended = false }
      return state.suspended
    }
    if resume { MHD_resume_connection(OpaquePointer(bitPattern: connection)!) }
  }
}
