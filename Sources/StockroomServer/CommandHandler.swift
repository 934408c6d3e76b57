import Foundation
import StockroomDomain
import StockroomProtocol
import StockroomSecurity
import StockroomStorage
import StockroomText

/// Turns one request line into one reply, using the command table for dispatch and checks.
///
/// It runs on the calling connection's loop thread; shared state is reached only through `Store`.
struct CommandHandler: Sendable {
  let store: Store
  let stats: ServerStats
  let configuration: ServerConfiguration
  let clientCount: @Sendable () -> Int
  /// Where a failure of the server itself is reported: the client only hears that it happened.
  let logger: Logger
  /// Where password hashing and checking run, off the event loops.
  let credentials: CredentialPool
  let throttle: LoginThrottle
  /// Who is logged in on which connection, for WHO.
  let presence: Presence

  /// Answers `line` (without its LF) into `out`. A reply is always exactly one status line,
  /// and a failed command leaves no data lines behind.
  /// Returns what the reply must wait for: the commit of a change when the shop is saved to
  /// disk (the caller holds the reply until the ticket says it is saved), or password work (the
  /// caller runs it, answers nothing else meanwhile, and hands it to `finish`).
  func handle(_ line: ArraySlice<UInt8>, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    stats.commandsServed.add(1, ordering: .relaxed)
    let mark = out.bytes.count
    var wait: ReplyWait?
    var command: CommandID?
    var failure: ErrorCode?
    do {
      let words = try Tokenizer.words(in: line)
      if words.isEmpty {
        throw ProtocolError(.syntax, "empty request; type HELP for the list of commands")
      }
      let request = try parse(words)
      command = request.id
      let role = try authorize(request, session: &session)
      try dispatch(request, role: role, session: &session, out: &out, wait: &wait)
    } catch {
      out.bytes.removeSubrange(mark...)
      failure = fail(error, out: &out)
    }
    // Password work is counted when `finish` knows how it ended.
    if case .credential = wait {} else { stats.commands.record(command, failure) }
    return wait
  }

  /// Turns finished password work into its reply (and the commit that reply waits for, if any).
  func finish(_ ticket: CredentialTicket, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    let mark = out.bytes.count
    var wait: ReplyWait?
    var failure: ErrorCode?
    do {
      try credentialDone(ticket, session: &session, out: &out, wait: &wait)
    } catch {
      out.bytes.removeSubrange(mark...)
      failure = fail(error, out: &out)
    }
    stats.commands.record(ticket.purpose.command, failure)
    return wait
  }

  /// The caller's role now: a guest's without looking, an account's from the session while no
  /// account has changed since it was read. An account removed meanwhile is logged out.
  func role(_ session: inout Session) -> Role {
    guard let name = session.account else { return .guest }
    let generation = store.accountsGeneration
    if let cached = session.cachedRole, cached.generation == generation { return cached.role }
    guard let account = store.read({ $0.accounts[name] }), account.passwordHash == session.loginHash else {
      Self.logOut(&session)
      return .guest
    }
    session.cachedRole = (account.role, generation)
    return account.role
  }

  static func logOut(_ session: inout Session) {
    session.account = nil
    session.loginHash = nil
    session.cachedRole = nil
  }

  /// The command table's policy, enforced here and only here: the least role a command (or this
  /// use of it) needs, against the caller's.
  private func authorize(_ request: Request, session: inout Session) throws(ProtocolError) -> Role {
    let role = role(&session)
    let (needed, reason) = request.spec.requiredRole(for: request)
    guard role < needed else { return role }
    let why = reason.map { "; \($0)" } ?? ""
    if role == .guest {
      throw ProtocolError(
        .noAuth, "\(request.path) needs a login\(why); LOGIN <name> <password>, or REGISTER <name> <password>")
    }
    throw ProtocolError(
      .denied, "\(request.path) needs the \(needed.rawValue) role\(why); \(session.user) is \(role.rawValue)")
  }

  /// Applies a mutation; `wait` becomes the commit the reply must wait for (nil for a shop in
  /// memory), so a reply written after an error still waits for a change already made.
  func apply(_ wait: inout ReplyWait?, _ mutation: Mutation) throws(ShopError) -> Applied {
    let (applied, ticket) = try store.apply(mutation)
    wait = ticket.map(ReplyWait.commit)
    return applied
  }

  /// The table's checks, with a "did you mean" for a mistyped command word.
  private func parse(_ words: [Word]) throws(ProtocolError) -> Request {
    let result = Result { () throws(ProtocolError) in try CommandTable.parse(words) }
    switch result {
    case .success(let request): return request
    case .failure(let error):
      let word = words[0].text
      guard error.code == .unknown, CommandTable.command(named: word) == nil,
        let guess = ItemNames.suggestion(for: word, among: CommandTable.commands.map(\.name))
      else { throw error }
      throw ProtocolError(
        .unknown, "unknown command \(Echo.quoted(word)); did you mean \(guess)? Type HELP for the list")
    }
  }

  private func dispatch(
    _ request: Request, role: Role, session: inout Session, out: inout ReplyEncoder, wait: inout ReplyWait?
  ) throws {
    switch request.id {
    case .help: try help(request, out: &out)
    case .ping: out.ok(request.arguments.first.map(\.text) ?? "PONG")
    case .quit:
      session.closing = .clientQuit
      out.ok("bye")
    case .hello: hello(session: session, role: role, out: &out)
    case .info: try info(request, session: session, role: role, out: &out)
    case .list: try list(request, session: session, role: role, out: &out)
    case .show: try show(request, out: &out)
    case .names: names(out: &out)
    case .expo: expo(out: &out)
    case .stock: try stock(request, out: &out)
    case .add: try add(request, session: session, out: &out, wait: &wait)
    case .order: try order(request, session: session, out: &out, wait: &wait)
    case .stocktake: try stocktake(request, out: &out)
    case .diaryNew: try diaryNew(request, session: session, out: &out, wait: &wait)
    case .diaryList: try diaryList(request, session: session, out: &out)
    case .diaryShow: try diaryShow(request, session: session, out: &out)
    case .diaryEdit: try diaryEdit(request, session: session, out: &out, wait: &wait)
    case .diaryDelete: try diaryDelete(request, session: session, out: &out, wait: &wait)
    case .productNew: try productNew(request, session: session, out: &out, wait: &wait)
    case .productEdit: try productEdit(request, session: session, out: &out, wait: &wait)
    case .productDelete: try productDelete(request, session: session, role: role, out: &out, wait: &wait)
    case .watch: try watch(request, session: &session, out: &out)
    case .login: wait = .credential(try login(request, session: session))
    case .logout:
      Self.logOut(&session)
      out.ok("logout")
    case .whoami: out.ok(session.user, fields: [("role", role.rawValue)])
    case .register: wait = .credential(try register(request))
    case .passwd: wait = .credential(try passwd(request, session: session))
    case .user, .diary, .product:
      preconditionFailure("CommandTable.parse always resolves a subcommand")
    case .userAdd: wait = .credential(try userAdd(request))
    case .userPasswd: wait = .credential(try userPasswd(request))
    case .userDel: try userDel(request, session: session, out: &out, wait: &wait)
    case .userRole: try userRole(request, session: session, out: &out, wait: &wait)
    case .userList: try userList(request, out: &out)
    case .productList:
      try listProducts(Paging(page: request.options["page"], size: request.options["size"]), out: &out)
    case .productShow: try show(request, out: &out)
    case .unwatch:
      session.watching = nil
      out.ok("not watching")
    case .who: who(role: role, out: &out)
    }
  }

  /// Writes the error reply and says which code it carried.
  @discardableResult
  private func fail(_ error: any Error, out: inout ReplyEncoder) -> ErrorCode {
    switch error {
    case let error as ProtocolError:
      out.error(error)
      return error.code
    case let error as ShopError:
      for shortage in error.shortages {
        out.beginRow(shortage.item)
        out.field("kind", "shortage")
        out.field("needed", shortage.needed)
        out.field("available", shortage.available)
        out.field("missing", shortage.missing)
        out.endLine()
      }
      if error.kind == .shortage { stats.shortages.add(1, ordering: .relaxed) }
      out.error(ProtocolError(Self.code(for: error.kind), error.message))
      return Self.code(for: error.kind)
    case let error as DamagedRow:
      logger.error(
        "the database has a damaged row, \(error); restore a backup made with `stockroomd backup` (see README, "
          + "Durability)")
      out.error(
        ProtocolError(
          .internal, "the shop's database has a damaged row (\(error)); nothing was changed; tell the operator"))
      return .internal
    default:
      logger.error("internal error: \(error)")
      out.error(ProtocolError(.internal, "\(error)"))
      return .internal
    }
  }

  static func code(for kind: ShopError.Kind) -> ErrorCode {
    switch kind {
    case .notFound: .notFound
    case .shortage: .shortage
    case .invalid: .invalid
    case .denied: .denied
    case .limit: .limit
    case .exists: .exists
    case .unavailable: .readOnly
    case .unreachable: .unavailable
    }
  }

  static func timestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle())
  }

  /// `+5`, `-3`, `0`: changes are always written with their sign.
  static func signed(_ change: Int) -> String {
    change > 0 ? "+\(change)" : String(change)
  }

  /// A whole number written as a quantity: digits, optionally signed.
  static func looksNumeric(_ word: Word) -> Bool {
    guard !word.isOption, let first = word.text.utf8.first else { return false }
    return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: "-")
      || first == UInt8(ascii: "+")
  }

  static func integer(_ text: String, what: String, range: ClosedRange<Int>) throws(ProtocolError) -> Int {
    // Int("+-3") would read a second sign, so the digits are checked by hand.
    let unsigned = text.hasPrefix("+") || text.hasPrefix("-") ? text.dropFirst() : Substring(text)
    let digits = text.hasPrefix("+") ? unsigned : Substring(text)
    guard !unsigned.isEmpty, unsigned.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let value = Int(digits), range.contains(value)
    else {
      throw ProtocolError(
        .invalid, "\(what) \(Echo.quoted(text)) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }

  /// The page footer shared by every paged list.
  static func pageFooter<T>(_ page: Page<T>, out: inout ReplyEncoder) {
    out.ok(fields: [
      ("total", String(page.total)), ("page", String(page.paging.page)), ("pages", String(page.pageCount)),
      ("size", String(page.paging.size)),
    ])
  }
}
