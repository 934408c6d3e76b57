import CMicroHTTPD
import StockroomEngine
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#endif

/// MHD's callbacks for `HTTPServer`: which answer a request gets, and the end of a request.
/// Each is a C function; its context is the server.
enum HTTPRequestRouter {
  /// The board's files, by path: body and type.
  private static let files: [String: (body: String, type: String)] = [
    "/": (BoardPage.html, "text/html; charset=utf-8"),
    "/board.js": (BoardScript.javascript, "text/javascript; charset=utf-8"),
    "/board.css": (BoardStyle.css, "text/css; charset=utf-8"),
  ]

  static let handle: MHD_AccessHandlerCallback = { context, connection, url, method, version, _, _, requestContext in
    guard let context, let connection, let url, let method, let version else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    // A connection cut while its head arrived (its deadline passed, or its place went to
    // another address) has had its answer.
    let key = Int(bitPattern: UnsafeRawPointer(connection))
    guard server.connections.withLock({ $0.answering(key) }) else { return .NO }
    if let problem = HTTPHeaderCheck.problem(in: connection, version: String(cString: version)) {
      return respond(connection, .badRequest, problem)
    }
    let verb = String(cString: method)
    guard verb == "GET" || verb == "HEAD" else {
      return respond(connection, .methodNotAllowed, "GET and HEAD only\n", headers: [("Allow", "GET, HEAD")])
    }
    // Read-only: a request with a body is refused before any of it is read.
    if header(connection, "Transfer-Encoding") != nil || (header(connection, "Content-Length") ?? "0") != "0" {
      return respond(connection, .contentTooLarge, "no request body is accepted\n")
    }
    let path = String(cString: url)
    if let file = files[path] {
      return respond(connection, .ok, file.body, type: file.type, headers: [("Cache-Control", "no-cache")])
    }
    switch path {
    case "/metrics":
      return respond(connection, .ok, server.site.metrics(), type: MetricsText.contentType)
    case "/events":
      return stream(server, connection, requestContext)
    default:
      return respond(connection, .notFound, "not found\n")
    }
  }

  /// `/events`: a stream that stays open, suspended between events.
  private static func stream(
    _ server: HTTPServer, _ connection: OpaquePointer,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
  ) -> MHD_Result {
    let resync = header(connection, "Last-Event-ID") != nil
    guard let requestContext, let stream = server.openStream(connection, resync: resync) else {
      return respond(connection, .serviceUnavailable, "too many event streams\n", headers: [("Retry-After", "5")])
    }
    let response = MHD_create_response_from_callback(
      sr_mhd_size_unknown, 16 * 1024, read, Unmanaged.passRetained(stream).toOpaque(), release)
    guard let response else {
      server.streamClosed(stream, timedOut: false)
      return .NO
    }
    defer { MHD_destroy_response(response) }
    for (name, value) in [
      ("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache"),
      ("X-Content-Type-Options", "nosniff"),
    ] {
      MHD_add_response_header(response, name, value)
    }
    // Ended by `completed`, which counts a stream dropped for not reading.
    requestContext.pointee = Unmanaged.passRetained(stream).toOpaque()
    // A stream has as long to take its events as a WATCH connection has; 0 is never. Its
    // socket holds at most `HTTPLimits.streamSendBuffer` unread, so a browser that stops
    // reading stops taking bytes soon, and its timeout runs, rather than the kernel buffering
    // megabytes for it.
    sr_mhd_set_timeout(connection, UInt32(clamping: server.site.watchTimeout))
    let fd = sr_mhd_connection_fd(connection)
    if fd >= 0 { _ = try? Syscall.setOption(fd, SOL_SOCKET, SO_SNDBUF, HTTPLimits.streamSendBuffer) }
    return MHD_queue_response(connection, HTTPStatusCode.ok.rawValue, response)
  }

  /// MHD's notices of a connection's start and close (on its thread; the close before MHD
  /// closes the socket).
  static let notified: MHD_NotifyConnectionCallback = { context, connection, _, code in
    guard let context, let connection else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    if sr_mhd_notify_started(code) != 0 {
      server.connectionOpened(connection)
    } else {
      let key = Int(bitPattern: UnsafeRawPointer(connection))
      server.connections.withLock { $0.closed(key) }
    }
  }

  private static let read: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
    let stream = Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue()
    return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max))
  }

  private static let release: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<EventStream>.fromOpaque(context).release()
  }

  static let completed: MHD_RequestCompletedCallback = { context, _, requestContext, termination in
    guard let context, let requestContext, let stream = requestContext.pointee else { return }
    requestContext.pointee = nil
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    server.streamClosed(
      Unmanaged<EventStream>.fromOpaque(stream).takeRetainedValue(),
      timedOut: sr_mhd_timed_out(termination) != 0)
  }

  private static func header(_ connection: OpaquePointer, _ name: String) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
  }

  /// A whole answer, closed after (`Connection: close`): nothing here is worth keeping a
  /// connection open for.
  private static func respond(
    _ connection: OpaquePointer, _ status: HTTPStatusCode, _ body: String,
    type: String = "text/plain; charset=utf-8", headers: [(String, String)] = []
  ) -> MHD_Result {
    var bytes = Array(body.utf8)
    let response = bytes.withUnsafeMutableBytes {
      MHD_create_response_from_buffer($0.count, $0.baseAddress, .RESPMEM_MUST_COPY)
    }
    guard let response else { return .NO }
    defer { MHD_destroy_response(response) }
    let security = [
      ("Content-Type", type), ("Connection", "close"), ("X-Content-Type-Options", "nosniff"),
      ("Content-Security-Policy", "default-src 'self'; base-uri 'none'; frame-ancestors 'none'"),
      ("Referrer-Policy", "no-referrer"),
    ]
    for (name, value) in security + headers { MHD_add_response_header(response, name, value) }
    return MHD_queue_response(connection, status.rawValue, response)
  }
}
