import StockroomProtocol

/// Protected mode for passwords: a command that carries one is refused on a connection that
/// would carry it in clear across a network, unless the operator allowed that.
extension CommandHandler {
  /// Refused before anything runs. The password has already crossed the network by then; the
  /// refusal is what makes clients and operators move to TLS instead of carrying on in clear.
  package func refusePlaintextPassword(_ request: Request, session: Session) throws(ProtocolError) {
    guard !session.transport.protectsSecrets, !settings.allowPlaintextAuth,
      request.spec.arguments.contains(where: { $0.kind == .password })
    else { return }
    let tls: String
    if let tlsPort = settings.tlsPort {
      let port = tlsPort == 0 ? "" : " on port \(tlsPort)"
      tls = "reconnect with TLS\(port) (stockroom --tls, or a stockrooms:// URL)"
    } else {
      tls = "this server has no TLS port: ask its operator for one (--tls-cert, --tls-key)"
    }
    throw ProtocolError(
      .denied,
      "\(request.path) sends a password, and this connection from another machine is not encrypted; \(tls), "
        + "or the operator may allow it with --allow-plaintext-auth")
  }
}
