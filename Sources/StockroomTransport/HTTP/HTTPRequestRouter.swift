import CMicroHTTPD
import StockroomEngine
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#endif

/// MHD's callbacks for `HTTPServer`: which answer a request gets, and the end of a request.
/// Each is a C function; its context is the server.
enum HTTPRequestRouter {
  /// The board's and the phone page's fixed files, by path: body and type.
  private static let files: [String: (body: String, type: String)] = [
    "/board.js": (BoardScript.javascript, "text/javascript; charset=utf-8"),
    "/board.css": (BoardStyle.css, "text/css; charset=utf-8"),
    "/join.js": (PhoneScript.javascript, "text/javascript; charset=utf-8"),
    "/join.css": (PhoneStyle.css, "text/css; charset=utf-8"),
  ]

  static let handle: MHD_AccessHandlerCallback = {
    context, connection, url, method, version, upload, uploadSize, requestContext in
    guard let context, let connection, let url, let method, let version else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    // A `POST /order` whose body is arriving, or whose order is done.
    if let held = requestContext?.pointee {
      guard let order = Unmanaged<AnyObject>.fromOpaque(held).takeUnretainedValue() as? PhoneOrderUpload else {
        return .NO
      }
      return continueOrder(server, connection, order, upload, uploadSize)
    }
    // A connection cut while its head arrived (its deadline passed, or its place went to
    // another address) has had its answer.
    let key = Int(bitPattern: UnsafeRawPointer(connection))
    guard server.connections.withLock({ $0.answering(key) }) else { return .NO }
    if let problem = HTTPHeaderCheck.problem(in: connection, version: String(cString: version)) {
      return respond(connection, .badRequest, problem)
    }
    let verb = String(cString: method)
    let path = String(cString: url)
    if verb == "POST" && path == "/order" { return beginOrder(server, connection, requestContext) }
    guard verb == "GET" || verb == "HEAD" else {
      let allowed = path == "/order" ? "POST" : "GET, HEAD"
      return respond(connection, .methodNotAllowed, "\(allowed) only\n", headers: [("Allow", allowed)])
    }
    // Read-only: a request with a body is refused before any of it is read.
    if header(connection, "Transfer-Encoding") != nil || (header(connection, "Content-Length") ?? "0") != "0" {
      return respond(connection, .contentTooLarge, "no request body is accepted\n")
    }
    if let file = files[path] {
      return respond(connection, .ok, file.body, type: file.type, headers: [("Cache-Control", "no-cache")])
    }
    switch path {
    case "/metrics":
      return respond(connection, .ok, server.site.metrics(), type: MetricsText.contentType)
    case "/events":
      return stream(server, connection, requestContext)
    default:
      return page(server, connection, path)
    }
  }

  /// The pages made for each request: the board (with the join link), the phone page (with
  /// its token), the menu, and the join link's QR code.
  private static func page(_ server: HTTPServer, _ connection: OpaquePointer, _ path: String) -> MHD_Result {
    let fresh = [("Cache-Control", "no-store")]
    switch path {
    case "/":
      let html = BoardPage.html(joinURL: server.joinURL(host: header(connection, "Host")))
      return respond(connection, .ok, html, type: "text/html; charset=utf-8", headers: fresh)
    case "/join":
      let token = server.phone.newToken(for: server.source(of: connection))
      return respond(connection, .ok, PhonePage.html(token: token), type: "text/html; charset=utf-8", headers: fresh)
    case "/menu":
      return respond(connection, .ok, server.site.menu(), type: "application/json", headers: fresh)
    case "/join.svg", "/join.txt":
      guard let code = QRMatrix(server.joinURL(host: header(connection, "Host"))) else {
        return respond(connection, .internalServerError, "the join link is too long for a QR code\n")
      }
      let (body, type) =
        path == "/join.svg" ? (code.svg, "image/svg+xml") : (code.halfBlocks, "text/plain; charset=utf-8")
      return respond(connection, .ok, body, type: type, headers: fresh)
    case "/order":
      return respond(connection, .methodNotAllowed, "POST only\n", headers: [("Allow", "POST")])
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
    guard let context, let requestContext, let held = requestContext.pointee else { return }
    requestContext.pointee = nil
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    // An event stream, or a `POST /order` (which has nothing to end).
    let object = Unmanaged<AnyObject>.fromOpaque(held).takeRetainedValue()
    guard let stream = object as? EventStream else { return }
    server.streamClosed(stream, timedOut: sr_mhd_timed_out(termination) != 0)
  }

  static func header(_ connection: OpaquePointer, _ name: String) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
  }

  /// A whole answer, closed after (`Connection: close`): nothing here is worth keeping a
  /// connection open for.
  static func respond(
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
