import StockroomProtocol

/// `:connect URL`: another server, or the same one as another user, or nothing changed.
extension InteractiveSession {
  /// `:connect URL`: opens a connection to the URL's server and, once it is open (and logged
  /// in), closes this one. A user in the URL is asked for a password; without one, another
  /// server gets no login (the password given for this one is not sent elsewhere), the same
  /// server the same login again. As psql's `\c`, a connection or login that fails leaves the
  /// session as it was: same server, same user.
  func connect(to text: String?) {
    guard let text else {
      tell("usage: :connect stockroom://[USER@]HOST[:PORT] (stockrooms:// for TLS)", renderer.palette.error)
      return
    }
    let url: ConnectionURL
    do {
      url = try ConnectionURL.parse(text)
    } catch {
      tell("\(error)", renderer.palette.error)
      return
    }
    var target = options
    target.host = url.host ?? options.host
    target.tls = url.scheme == .stockrooms ? (options.tls ?? ClientTLS()) : nil
    target.port = url.port ?? (url.scheme == .stockrooms ? ProtocolVersion.defaultTLSPort : ProtocolVersion.defaultPort)
    var login = credentials
    if let user = url.user {
      do {
        login = Credentials(name: user, password: try PasswordPrompt.read(prompt: "Password for \(user): "))
      } catch {
        tell("\(error); \(staying())", renderer.palette.error)
        return
      }
    } else if target.host != options.host || target.port != options.port {
      login = nil
    }
    let opened: (connection: ServerLink, identity: Identity?)
    do {
      opened = try open(target, login: login)
    } catch {
      tell("\(error.message); \(staying())", renderer.palette.error)
      return
    }
    connection?.close()
    options = target
    credentials = login
    connection = opened.connection
    identity = opened.identity
    pageCursor = nil
    reconnector.reconnected()
    editor.watched = opened.connection.fd
    do {
      if let watching {
        let reply = try request((["WATCH"] + watching).joined(separator: " "), on: opened.connection)
        if !reply.isOK { say(renderer.render(reply)) }
      }
      nameCache.markStale()
      refreshNamesIfNeeded()
      tell(banner(), renderer.palette.dim)
    } catch {
      lost(error)
    }
  }

  /// What a failed `:connect` leaves: the session as it was.
  private func staying() -> String {
    guard connection != nil else { return "still not connected, to \(options.host):\(options.port)" }
    let who = identity.map { " as \($0.name)" } ?? ""
    return "still connected to \(options.host):\(options.port)\(who)"
  }

  /// A connection to `target`, logged in with `login` when given; a refused login closes it and
  /// is the error, since a `:connect` that asked for a user must not go on as a guest.
  private func open(_ target: ClientOptions, login: Credentials?) throws(ClientError) -> (ServerLink, Identity?) {
    let connection = try ServerLink.open(host: target.host, port: target.port, tls: target.tls)
    guard let login else { return (connection, nil) }
    do throws(ClientError) {
      try connection.send(login.loginLine)
      while true {
        guard case .reply(let reply) = try connection.nextItem() else { continue }
        guard reply.isOK else {
          connection.close()
          let said = VisibleControls.escaped(reply.lines.last ?? "", lineBreaks: false)
          throw ClientError(.loginFailed, "login as \(login.name) at \(target.host):\(target.port) failed: \(said)")
        }
        return (connection, Identity(reply: reply, command: "LOGIN"))
      }
    } catch {
      connection.close()
      throw error
    }
  }
}
