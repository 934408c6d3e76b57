import CMicroHTTPD

/// `POST /order`, the phone page's one-tap order: the request's origin is checked before its
/// body is read, the body (bounded) is taken as it arrives, and the order runs while the
/// connection is suspended, so MHD's thread serves the board and other requests meanwhile.
extension HTTPRequestRouter {
  /// The head of a `POST /order`: refused at once from another site, without a length, with a
  /// body too large, or while stopping; otherwise its body is awaited.
  static func beginOrder(
    _ server: HTTPServer, _ connection: OpaquePointer, _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
  ) -> MHD_Result {
    guard
      PhoneOrderDesk.isSameOrigin(
        origin: header(connection, "Origin"), host: header(connection, "Host"),
        fetchSite: header(connection, "Sec-Fetch-Site"))
    else {
      return answer(
        connection,
        .refusal(
          .forbidden, code: "ORIGIN", "an order must come from this shop's own page (its Origin must match its Host)"))
    }
    guard header(connection, "Transfer-Encoding") == nil,
      let length = header(connection, "Content-Length").flatMap(Int.init)
    else {
      return answer(connection, .refusal(.badRequest, code: "INVALID", "an order needs a Content-Length"))
    }
    guard length <= HTTPLimits.orderBody else {
      return answer(connection, .refusal(.contentTooLarge, code: "TOOLONG", "the order's body is too large"))
    }
    guard let requestContext, !server.isStopping else {
      return answer(connection, .refusal(.serviceUnavailable, code: "UNAVAILABLE", "the server is stopping"))
    }
    requestContext.pointee = Unmanaged.passRetained(PhoneOrderUpload(connection: connection)).toOpaque()
    return .YES
  }

  /// A later call for a `POST /order`: more of its body, its end (the order is placed, or the
  /// answer a key already had is sent), or its answer after the order.
  static func continueOrder(
    _ server: HTTPServer, _ connection: OpaquePointer, _ upload: PhoneOrderUpload, _ data: UnsafePointer<CChar>?,
    _ size: UnsafeMutablePointer<Int>?
  ) -> MHD_Result {
    if let size, size.pointee > 0 {
      upload.append(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size.pointee))
      size.pointee = 0
      return .YES
    }
    if upload.isSubmitted {
      // Resumed with the answer (or, should MHD call while it waits, still waiting).
      guard let reply = upload.reply else { return .YES }
      return answer(connection, reply)
    }
    let source = server.source(of: connection)
    switch server.phone.submit(upload.take(), upload: upload, from: source) {
    case .answer(let reply):
      return answer(connection, reply)
    case .wait:
      if !upload.suspendUnlessAnswered(), let reply = upload.reply { return answer(connection, reply) }
      return .YES
    case .order(let order, let key):
      guard server.admitOrder() else {
        let refusal = PhoneOrderReply.refusal(.serviceUnavailable, code: "UNAVAILABLE", "the server is stopping")
        _ = server.phone.finish(key, reply: refusal, from: source)
        return answer(connection, refusal)
      }
      _ = upload.suspendUnlessAnswered()
      server.site.order(order, source) { [phone = server.phone] reply in
        _ = phone.finish(key, reply: reply, from: source)
        server.orderAnswered()
      }
      return .YES
    }
  }

  /// An order's answer, as JSON the page draws.
  private static func answer(_ connection: OpaquePointer, _ reply: PhoneOrderReply) -> MHD_Result {
    respond(
      connection, reply.status, reply.json + "\n", type: "application/json; charset=utf-8",
      headers: [("Cache-Control", "no-store")])
  }
}
