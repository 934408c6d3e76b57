import Foundation
import StockroomDomain
import StockroomLogging
import StockroomProtocol
import StockroomSecurity
import StockroomText

/// Turns one request line into one reply, using the command table for dispatch and checks.
///
/// It runs on the calling connection's loop thread; shared state is reached only through `Shop`.
package struct CommandHandler: Sendable {
  package let shop: Shop
  package let stats: ServerStats
  package let settings: EngineSettings
  package let clientCount: @Sendable () -> Int
  /// Where a failure of the server itself is reported: the client only hears that it happened.
  package let logger: Logger
  /// Where password hashing and checking run, off the event loops.
  package let credentials: JobPool
  /// Where replies that read history from the database are written, off the event loops.
  package let history: JobPool
  package let throttle: LoginThrottle
  /// The time the throttle is read at.
  package let clock: any EngineClock
  /// Who is logged in on which connection, for WHO.
  package let presence: Presence
  /// Order lines per address (`EngineSettings.orderRate`); nil for no limit.
  package let orderRate: SourceRate?
  /// The places watchers may hold, so that some are always kept for connections that are not
  /// watching (WATCH takes one; the connection gives it back).
  package let watcherPlaces: WatcherPlaces

  /// Answers `line` (without its LF) into `out`. A reply is always exactly one status line,
  /// and a failed command leaves no data lines behind.
  /// Returns what the reply must wait for: the commit of a change when the shop is saved to
  /// disk (the caller holds the reply until the ticket says it is saved), a change queued for a
  /// shared store's writer (the caller hands it to the writer, and its answer to `answer`), or
  /// work elsewhere (the caller runs it, answers nothing else meanwhile, and hands it to
  /// `finish`).
  package func handle(_ line: ArraySlice<UInt8>, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    stats.commandsServed.add(1, ordering: .relaxed)
    let mark = out.bytes.count
    var wait: ReplyWait?
    var command: CommandID?
    var failure: ErrorCode?
    do {
      // The session's word array is lent to the request and taken back after it, so a request
      // makes no array of its own (one kept by pending work is simply not returned).
      var words = session.words
      session.words = []
      try Tokenizer.words(in: line, into: &words)
      if words.isEmpty {
        throw ProtocolError(.syntax, "empty request; type HELP for the list of commands")
      }
      let request = try parse(consume words)
      defer { session.words = request.arguments }
      command = request.id
      try refusePlaintextPassword(request, session: session)
      let role = try authorize(request, session: &session)
      // The table's `.write` flag is policy too: while the shop refuses changes, a command
      // that makes one is refused here, before any password work is queued for it.
      if request.spec.isWrite { try shop.checkWritable() }
      try dispatch(request, role: role, session: &session, out: &out, wait: &wait)
    } catch {
      out.bytes.removeSubrange(mark...)
      failure = fail(error, out: &out)
    }
    count(command, failure, wait: wait, session: &session)
    return wait
  }

  /// Turns finished work into its reply (and what that reply waits for in turn, if anything:
  /// the change that password work makes).
  package func finish(_ work: PendingWork, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    let mark = out.bytes.count
    var next: ReplyWait?
    var failure: ErrorCode?
    do {
      switch work {
      case .credential(let ticket):
        guard let change = try credentialDone(ticket, session: &session, out: &out) else { break }
        next = try self.change(change, command: session.pendingCommand, session: &session, out: &out)
      case .readIndex(_, let request):
        // The connection took no request while the read waited, so its role is as authorized.
        guard let route = CommandRoutes.route(for: request.id) else { preconditionFailure("routed before") }
        next = try view(request, route: route, role: role(&session), session: &session, out: &out)
      case .read(let ticket):
        switch ticket.result {
        case .written(let bytes):
          out.bytes += bytes
          next = shop.changes.uncommitted.map(ReplyWait.durable)
        case .failed(let error): throw error
        case .busy: throw ProtocolError(.limit, "the server is busy reading history; try again in a moment")
        case nil: preconditionFailure("a finished read has a result")
        }
      }
    } catch {
      out.bytes.removeSubrange(mark...)
      failure = fail(error, out: &out)
    }
    count(session.pendingCommand, failure, wait: next, session: &session)
    return next
  }

  /// Counts a request by command and result once its result is known: now, or when the work it
  /// waits for is done (the connection takes no other request meanwhile, so the session holds it).
  private func count(_ command: CommandID?, _ failure: ErrorCode?, wait: ReplyWait?, session: inout Session) {
    switch wait {
    case .work:
      session.pendingCommand = command
    case .change:
      // Counted when the writer answers it (`answer`), which the queued change remembers.
      session.pendingCommand = nil
    case .commit, .durable, nil:
      session.pendingCommand = nil
      stats.commands.record(command, failure)
    }
  }

  /// The caller's role now: a guest's without looking, an account's from the session while no
  /// account has changed since it was read. An account removed meanwhile is logged out.
  package func role(_ session: inout Session) -> Role {
    guard let name = session.account else { return .guest }
    let generation = shop.accountsGeneration
    if let cached = session.cachedRole, cached.generation == generation { return cached.role }
    guard let account = shop.read({ $0.accounts[name] }), account.passwordHash == session.loginHash else {
      Self.logOut(&session)
      return .guest
    }
    session.cachedRole = (account.role, generation)
    return account.role
  }

  package static func logOut(_ session: inout Session) {
    session.account = nil
    session.loginHash = nil
    session.cachedRole = nil
  }

  /// The command table's role policy, enforced here and only here: the least role a command (or
  /// this use of it) needs, against the caller's.
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

  /// Writes a reply that reads history from the database on the history pool, off the event
  /// loop; in memory, where the history is too, at once.
  package func reading(
    for session: Session, out: inout ReplyEncoder, _ body: @escaping @Sendable (inout ReplyEncoder) throws -> Void
  ) throws -> ReplyWait? {
    guard shop.history != nil else {
      try body(&out)
      return nil
    }
    return .work(.read(ReadTicket(for: .of(account: session.account, source: session.source), body)))
  }

  /// The table's checks, with a "did you mean" for a mistyped command word.
  private func parse(_ words: consuming [Word]) throws(ProtocolError) -> Request {
    let word = words[0].text
    do throws(ProtocolError) {
      return try CommandTable.parse(consume words)
    } catch {
      let guess = NameSuggestion.didYouMean(word, among: CommandTable.commands.map(\.name))
      guard error.code == .unknown, CommandTable.command(named: word) == nil, !guess.isEmpty else { throw error }
      throw ProtocolError(.unknown, "unknown command \(Echo.quoted(word))\(guess) Type HELP for the list")
    }
  }

  /// Runs the command's route from `CommandRoutes`: its handler, and what its reply waits for.
  /// The route is matched where the table holds it: a copy (and `view`'s, for the routes that
  /// show the shop) retains and releases its closure's context every request.
  private func dispatch(
    _ request: Request, role: Role, session: inout Session, out: inout ReplyEncoder, wait: inout ReplyWait?
  ) throws {
    let index = request.id.index
    if CommandRoutes.readsShop(at: index), let readIndex = shop.changes.readIndex() {
      wait = .work(.readIndex(readIndex, request))
      return
    }
    switch CommandRoutes.byIndex[index] {
    case .answer(let body)?: try body(self, request, role, &session, &out)
    case .view(let body)?:
      try body(self, request, role, &session, &out)
      wait = viewed()
    case .read(let body)?: wait = try body(self, request, role, session, &out) ?? viewed()
    case .change(let body)?, .changeFromShop(let body)?:
      wait = try change(body(self, request, role, session), command: request.id, session: &session, out: &out)
    case .passwordChange(let body)?, .passwordCheck(let body)?:
      wait = .work(.credential(try body(self, request, session)))
    case nil: preconditionFailure("CommandTable.parse resolves every command to one with a route")
    }
  }

  /// Runs a route that shows the shop; its reply waits for the commit of any change it could
  /// have seen (`ReplyWait.durable`), unless it already waits for a read of the database.
  private func view(
    _ request: Request, route: CommandRoute, role: Role, session: inout Session, out: inout ReplyEncoder
  )
    throws -> ReplyWait?
  {
    switch route {
    case .view(let body): try body(self, request, role, &session, &out)
    case .read(let body):
      if let wait = try body(self, request, role, session, &out) { return wait }
    case .answer, .change, .changeFromShop, .passwordChange, .passwordCheck:
      preconditionFailure("only the routes that show the shop are viewed")
    }
    return viewed()
  }

  /// What a reply that showed the shop waits for: the commit of any change it could have seen.
  private func viewed() -> ReplyWait? {
    shop.changes.uncommitted.map(ReplyWait.durable)
  }

  /// Writes the error reply and says which code it carried.
  @discardableResult
  func fail(_ error: any Error, out: inout ReplyEncoder) -> ErrorCode {
    switch error {
    case let error as ProtocolError:
      out.error(error)
      return error.code
    case let error as ShopError:
      for shortage in error.shortages {
        out.beginRow(shortage.item)
        out.kind(.shortage)
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
        "the database has a damaged row, \(error); restore a backup made with `stockroomd backup` (see "
          + "docs/durability.md)")
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

  package static func code(for kind: ShopError.Kind) -> ErrorCode {
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

  package static func timestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle())
  }

  /// `+5`, `-3`, `0`: changes are always written with their sign.
  package static func signed(_ change: Int) -> String {
    change > 0 ? "+\(change)" : String(change)
  }

  /// A whole number written as a quantity: digits, optionally signed.
  package static func looksNumeric(_ word: Word) -> Bool {
    guard !word.isOption, let first = word.text.utf8.first else { return false }
    return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: "-")
      || first == UInt8(ascii: "+")
  }

  package static func integer(_ text: String, what: String, range: ClosedRange<Int>) throws(ProtocolError) -> Int {
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

  /// The page footer shared by every paged list. A page past the last is refused rather than
  /// answered empty with OK, so a script paging on does not mistake it for the end of a list
  /// that shrank; page 1 of an empty list is the one empty page.
  package static func pageFooter<T>(_ page: Page<T>, out: inout ReplyEncoder) throws(ProtocolError) {
    guard page.paging.page <= page.pageCount else {
      throw ProtocolError(
        .invalid,
        "page \(page.paging.page) is past the last page, \(page.pageCount) (total=\(page.total) size=\(page.paging.size))"
      )
    }
    out.ok(fields: [
      ("total", String(page.total)), ("page", String(page.paging.page)), ("pages", String(page.pageCount)),
      ("size", String(page.paging.size)),
    ])
  }

  package init(
    shop: Shop, stats: ServerStats, settings: EngineSettings, clientCount: @escaping @Sendable () -> Int,
    logger: Logger, credentials: JobPool, history: JobPool, throttle: LoginThrottle, presence: Presence,
    clock: any EngineClock = MonotonicEngineClock()
  ) {
    self.shop = shop
    self.stats = stats
    self.settings = settings
    self.clientCount = clientCount
    self.logger = logger
    self.credentials = credentials
    self.history = history
    self.throttle = throttle
    self.clock = clock
    self.presence = presence
    self.orderRate =
      settings.orderRate > 0 ? SourceRate(perSecond: settings.orderRate, burst: settings.orderRate * 10) : nil
    self.watcherPlaces = WatcherPlaces(maxClients: settings.maxClients, perAddress: settings.maxClientsPerAddress)
  }
}
