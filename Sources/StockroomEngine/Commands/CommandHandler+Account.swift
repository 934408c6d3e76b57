import Foundation
import StockroomDomain
import StockroomProtocol
import StockroomSecurity
import StockroomText

/// LOGIN, REGISTER, PASSWD and USER: each asks for password work on the credential pool and
/// answers in `credentialDone` once it is finished.
extension CommandHandler {
  /// Failed attempts on one connection before it is closed.
  package static let loginAttemptsPerConnection = 5

  /// The wait before this connection's next attempt on `name`: its own failures', and those on
  /// the name from its address (`LoginThrottle`).
  private func throttled(_ name: String, session: Session) throws(ProtocolError) -> UInt64 {
    switch throttle.reserve(name, from: session.source, now: clock.now()) {
    case .refuse(let seconds):
      throw ProtocolError(
        .auth, "too many failed logins for this name from your address; try again in \(seconds) s")
    case .braked(let seconds):
      throw ProtocolError(.auth, "too many failed logins for this name; try again in \(seconds) s")
    case .go(let wait):
      return max(wait, LoginThrottle.gap(afterFailures: session.failedLogins))
    }
  }

  private static func password(_ word: Word, checked: Bool) throws(ProtocolError) -> Password {
    let password = Password(word.text)
    guard checked else { return password }
    do {
      try password.check()
    } catch {
      throw ProtocolError(.invalid, "a password has at least 8 and at most 1024 bytes")
    }
    return password
  }

  /// Checked before hashing as well as when the account is saved: no one waits for a hash only
  /// to hear the name is taken.
  private func refuseTaken(_ name: String) throws(ShopError) {
    try shop.read { state throws(ShopError) in
      if state.accounts[name] != nil { throw ShopError.nameTaken(name) }
      if let existing = state.accountBook.lookalike(of: name) { throw AccountBook.looksTaken(name, like: existing) }
    }
  }

  package func login(_ request: Request, session: Session) throws -> CredentialTicket {
    // A name that breaks the name rules cannot have an account, and is as wrong as any other;
    // such names share one throttle record, so none of them makes the throttle hold its bytes.
    let name = (try? TextRules.userName(request.arguments[0].text)) ?? "\u{0}not-a-name"
    let password = try Self.password(request.arguments[1], checked: false)
    let delay = try throttled(name, session: session)
    let hash = shop.read { $0.accounts[name]?.passwordHash }
    return CredentialTicket(
      .login(name: name), .verify(hash: hash, password: password, cost: settings.passwordCost), delay: delay,
      source: session.source,
      wrong: wrong(session))
  }

  /// What a check that finds the password wrong tells the throttle about its address.
  private func wrong(_ session: Session) -> @Sendable () -> Void {
    let source = session.source
    return { [throttle, clock] in throttle.checkFailed(from: source, now: clock.now()) }
  }

  package func register(_ request: Request, session: Session) throws -> CredentialTicket {
    guard settings.registration == .open else {
      throw ProtocolError(.denied, "self-registration is closed on this server; ask an admin for an account")
    }
    let name = try Account.newName(request.arguments[0].text)
    let password = try Self.password(request.arguments[1], checked: true)
    // A person choosing a name must hear that it is taken, or looks like one that is; to hear
    // it costs a password check on the fair pool, as a LOGIN guess does, against the account it
    // is or looks like, and a wrong one counts against the address (docs/security.md, on this
    // trade-off). Answered at once, a look-alike would confirm a name for free: `Bob` for `bob`.
    let taken = shop.read { state in
      state.accounts[name]?.passwordHash
        ?? state.accountBook.lookalike(of: name).flatMap { state.accounts[$0]?.passwordHash }
    }
    if let hash = taken {
      return CredentialTicket(
        .registerTaken(name: name), .verify(hash: hash, password: password, cost: settings.passwordCost),
        source: session.source,
        wrong: wrong(session))
    }
    return CredentialTicket(.register(name: name), .hash(password, cost: settings.passwordCost), source: session.source)
  }

  package func passwd(_ request: Request, session: Session) throws -> CredentialTicket {
    guard let name = session.account, let hash = shop.read({ $0.accounts[name]?.passwordHash }) else {
      throw ProtocolError(.noAuth, "PASSWD needs a login")
    }
    let old = try Self.password(request.arguments[0], checked: false)
    let new = try Self.password(request.arguments[1], checked: true)
    let delay = try throttled(name, session: session)
    return CredentialTicket(
      .passwd(name: name), .verifyThenHash(hash: hash, old: old, new: new, cost: settings.passwordCost), delay: delay,
      source: session.source,
      wrong: wrong(session))
  }

  package func userAdd(_ request: Request, session: Session) throws -> CredentialTicket {
    let name = try Account.newName(request.arguments[0].text)
    let password = try Self.password(request.arguments[1], checked: true)
    let role = try Self.role(request.options[.role] ?? Role.customer.rawValue)
    try refuseTaken(name)
    return CredentialTicket(
      .userAdd(name: name, role: role), .hash(password, cost: settings.passwordCost), source: session.source)
  }

  package func userPasswd(_ request: Request, session: Session) throws -> CredentialTicket {
    let name = request.arguments[0].text
    let password = try Self.password(request.arguments[1], checked: true)
    guard shop.read({ $0.accounts[name] != nil }) else {
      throw ProtocolError(.notFound, "no account named \(Echo.quoted(name))")
    }
    return CredentialTicket(
      .userPasswd(name: name), .hash(password, cost: settings.passwordCost), source: session.source)
  }

  package func userDel(_ request: Request, session: Session) -> ChangeRequest {
    let name = request.arguments[0].text
    let by = session.user
    return ChangeRequest(.deleteAccount(name: name)) { _, _, out in
      logger.info("account deleted user=\(name) by=\(by)")
      out.ok("deleted", fields: [("user", name)])
    }
  }

  package func userRole(_ request: Request, session: Session) throws -> ChangeRequest {
    let name = request.arguments[0].text
    let role = try Self.role(request.arguments[1].text)
    let by = session.user
    return ChangeRequest(.setRole(name: name, role: role, at: clock.wallTime())) { _, _, out in
      logger.info("account role user=\(name) role=\(role.rawValue) by=\(by)")
      out.ok("role", fields: [("user", name), ("role", role.rawValue)])
    }
  }

  package func userList(_ request: Request, out: inout ReplyEncoder) throws {
    let paging = try Paging(page: request.options[.page], size: request.options[.size])
    let page = paging.slice(shop.read { state in state.accounts.values.sorted { $0.name < $1.name } })
    for account in page.items {
      out.beginRow(account.name)
      out.field("role", account.role.rawValue)
      out.field("created", Self.timestamp(account.created))
      out.endLine()
    }
    try Self.pageFooter(page, out: &out)
  }

  private static func role(_ text: String) throws(ProtocolError) -> Role {
    guard let role = Role(rawValue: text.lowercased()), role != .guest else {
      throw ProtocolError(
        .invalid, "role \(Echo.quoted(text)) is not one of \(Role.accountRoles.map(\.rawValue).joined(separator: ", "))"
      )
    }
    return role
  }

  /// The reply to finished password work, or the change it makes and how that is answered.
  package func credentialDone(_ ticket: CredentialTicket, session: inout Session, out: inout ReplyEncoder) throws
    -> ChangeRequest?
  {
    guard let result = ticket.result else { preconditionFailure("finished password work has a result") }
    switch result {
    case .busy:
      throw ProtocolError(.limit, "the server is busy checking passwords; try again in a moment")
    case .failed(let reason):
      logger.error("password hashing failed: \(reason)")
      throw ProtocolError(.internal, "password hashing failed; nothing was changed")
    case .wrongPassword, .verified, .hashed:
      break
    }
    let now = clock.wallTime()
    switch ticket.purpose {
    case .login(let name):
      guard result == .verified, let account = shop.read({ $0.accounts[name] }) else {
        try failedAttempt(name, session: &session)
      }
      throttle.succeeded(name, from: session.source, now: clock.now())
      session.failedLogins = 0
      logIn(account, session: &session)
      logger.info("login user=\(name) role=\(account.role.rawValue)")
      out.ok("login \(name)", fields: [("role", account.role.rawValue)])
      return nil
    case .passwd(let name):
      guard case .hashed(let hash) = result else { try failedAttempt(name, session: &session) }
      throttle.succeeded(name, from: session.source, now: clock.now())
      session.failedLogins = 0
      return ChangeRequest(.setPassword(name: name, hash: hash, at: now)) { applied, session, out in
        // Other connections logged in with the old password are guests from their next request.
        if case .accountSaved(let account) = applied.outcome { logIn(account, session: &session) }
        logger.info("password changed user=\(name)")
        out.ok("password changed")
      }
    case .registerTaken(let name):
      // A look-alike is not named: that would tell the prober which account exists.
      throw shop.read { $0.accounts[name] != nil } ? ShopError.nameTaken(name) : AccountBook.looksTaken(name)
    case .register(let name):
      guard case .hashed(let hash) = result else { preconditionFailure("hashing answers a hash") }
      let account = Account(name: name, role: .customer, passwordHash: hash, created: now, updated: now)
      return ChangeRequest(.createAccount(account, selfRegistered: true)) { _, session, out in
        logIn(account, session: &session)
        logger.info("account registered user=\(name)")
        out.ok("login \(name)", fields: [("role", Role.customer.rawValue)])
      }
    case .userAdd(let name, let role):
      guard case .hashed(let hash) = result else { preconditionFailure("hashing answers a hash") }
      let account = Account(name: name, role: role, passwordHash: hash, created: now, updated: now)
      let by = session.user
      return ChangeRequest(.createAccount(account, selfRegistered: false)) { _, _, out in
        logger.info("account created user=\(name) role=\(role.rawValue) by=\(by)")
        out.ok("created", fields: [("user", name), ("role", role.rawValue)])
      }
    case .userPasswd(let name):
      guard case .hashed(let hash) = result else { preconditionFailure("hashing answers a hash") }
      let by = session.user
      return ChangeRequest(.setPassword(name: name, hash: hash, at: now)) { applied, session, out in
        if session.account == name, case .accountSaved(let account) = applied.outcome {
          logIn(account, session: &session)
        }
        logger.info("password set user=\(name) by=\(by)")
        out.ok("password set", fields: [("user", name)])
      }
    }
  }

  private func logIn(_ account: Account, session: inout Session) {
    session.account = account.name
    session.loginHash = account.passwordHash
    session.cachedRole = (account.role, shop.accountsGeneration)
  }

  /// The same answer for a wrong name and a wrong password; the attempt counts against the
  /// connection and the name, and the last allowed one closes the connection.
  private func failedAttempt(_ name: String, session: inout Session) throws -> Never {
    throttle.failed(name, from: session.source, now: clock.now())
    session.failedLogins += 1
    // The name is not logged: people type their password where their name goes.
    logger.info("login failed attempt=\(session.failedLogins)")
    stats.failedLogins.add(1, ordering: .relaxed)
    guard session.failedLogins < Self.loginAttemptsPerConnection else {
      session.closing = .loginFailures(session.failedLogins)
      throw ProtocolError(
        .auth, "wrong name or password; \(session.failedLogins) failed attempts, closing the connection")
    }
    throw ProtocolError(.auth, "wrong name or password")
  }
}
