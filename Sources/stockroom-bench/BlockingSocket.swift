import StockroomSocket
import StockroomTLS

/// One connection with blocking calls and a receive buffer, owned by a single thread: a
/// `ClientSocket` (the one the REPL client speaks through too) and the bench's reply framing.
///
/// Both directions time out, so a stalled server ends the connection instead of the run. With a
/// TLS context the bytes go through TLS, handshake done in `init`.
final class BlockingSocket {
  private let socket: ClientSocket
  private let timeoutSeconds: Int
  private var buffer: UnsafeMutableRawBufferPointer
  private var start = 0
  private var end = 0

  /// The socket itself, for a caller that waits on many with epoll.
  var descriptor: Int32 { socket.descriptor }

  /// True when no received byte is left unread in the buffer.
  var isDrained: Bool { start == end }

  /// `bufferBytes` is small for connections that only ever see a short reply (idle, fan-out),
  /// so that ten thousand of them do not cost the client much memory.
  init(
    host: String, port: UInt16, timeoutSeconds: Int, bufferBytes: Int = 64 * 1024, tls: TLSContext? = nil
  ) throws(BenchError) {
    do {
      socket = try ClientSocket.connect(host: host, port: port, timeoutSeconds: timeoutSeconds, tls: tls)
    } catch .handshake(let error) {
      throw BenchError("TLS handshake with \(host): \(error)")
    } catch {
      throw BenchError("connect to \(host):\(port): \(error)")
    }
    self.timeoutSeconds = timeoutSeconds
    self.buffer = .allocate(byteCount: bufferBytes, alignment: 16)
  }

  deinit {
    buffer.deallocate()
  }

  func send(_ bytes: [UInt8]) throws(BenchError) {
    do {
      try socket.sendAll(bytes)
    } catch {
      throw failure(error, waiting: "send blocked")
    }
  }

  /// Blocks until a whole reply is buffered and consumes it. The text is decoded only when
  /// asked for, because the measuring loop needs just the verdict.
  func nextReply(_ dialect: some Dialect, keepingText: Bool = false) throws(BenchError) -> (
    failed: Bool, text: String
  ) {
    while true {
      let pending = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
      if let reply = dialect.scan(pending) {
        var text = ""
        if keepingText {
          text = String(decoding: pending[..<reply.length], as: UTF8.self)
          while text.last?.isNewline == true { text.removeLast() }
        }
        start += reply.length
        if start == end {
          start = 0
          end = 0
        }
        return (reply.failed, text)
      }
      try receive()
    }
  }

  private func receive() throws(BenchError) {
    if end == buffer.count {
      if start > 0 {
        buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: end - start)
        end -= start
        start = 0
      } else {
        // One reply bigger than the buffer: keep all of it and make room.
        let larger = UnsafeMutableRawBufferPointer.allocate(
          byteCount: buffer.count * 2, alignment: 16)
        larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
        buffer.deallocate()
        buffer = larger
      }
    }
    while true {
      do {
        let count = try socket.receive(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
        // 0: a TLS record without data (a session ticket): read on.
        guard count > 0 else { continue }
        end += count
        return
      } catch {
        throw failure(error, waiting: "no reply")
      }
    }
  }

  /// The bench's words for what ended the connection.
  private func failure(_ error: ClientSocketError, waiting: String) -> BenchError {
    switch error {
    case .timedOut: BenchError("\(waiting) for \(timeoutSeconds) s")
    case .closed: BenchError("server closed the connection")
    default: BenchError("\(error)")
    }
  }
}
