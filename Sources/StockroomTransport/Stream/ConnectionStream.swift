/// What a connection reads its requests from and writes its replies to: the socket itself
/// (`PlainStream`), or TLS over it (`TLSStream`). The connection drives one stream the same way
/// whichever it is; what TLS adds (a handshake first, records read ahead, close_notify) is the
/// stream's to do.
///
/// Used on the connection's loop thread only.
protocol ConnectionStream: AnyObject {
  /// Whether `handshake()` must be driven to `.done` before anything else is read or written.
  var needsHandshake: Bool { get }
  /// Whether bytes are waiting inside the stream (whole TLS records) that the socket no longer
  /// shows as readable: the connection reads again rather than wait for a readiness.
  var hasBufferedInput: Bool { get }

  /// Takes the handshake one step further.
  func handshake() -> StreamHandshake
  /// Reads what has arrived into `buffer`.
  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead
  /// Writes what it can of `bytes`.
  func write(_ bytes: UnsafeRawBufferPointer) -> StreamWrite
  /// Ends the sending side once the last reply is written: the peer reads end of stream, after
  /// TLS's close_notify when there is TLS.
  func shutdownOutput()
  /// Whether the stream holds buffers of its own between requests, to give back when the
  /// connection goes quiet (TLS's records).
  var holdsIdleBuffers: Bool { get }
  /// Gives back the buffers it holds while nothing is in them, and says whether it did; the next
  /// read or write makes them again.
  func releaseIdleBuffers() -> Bool
}
