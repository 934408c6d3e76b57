import Dispatch
import Foundation
import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomProtocol
import StockroomSecurity
import StockroomStorage
import StockroomSystem
import StockroomTLS
import StockroomTransport
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The Stockroom server: a listener, its connections, and the one shared shop.
public final class Server: Sendable {
  public let configuration: ServerConfiguration
  package let shop: Shop
  package let stats: ServerStats
  private let logger: Logger
  private let listener = Mutex<Listener?>(nil)
  private let http = Mutex<HTTPServer?>(nil)
  /// The TLS port's listener and what its connections are made from, when TLS is configured.
  private let tlsListener = Mutex<Listener?>(nil)
  private let tlsContext = Mutex<TLSContext?>(nil)
  /// Numbers connections, and the board's event streams with them (both are keys in the watch hub).
  let nextConnectionID = Atomic<Int>(1)
  private let lingeringRejections = Atomic<Int>(0)
  private let rejections: Mutex<RejectionLog>
  /// Connects logged one by one per address and interval, and the connections that were not,
  /// whose disconnects are not logged either: see `logConnect`.
  private let connects: Mutex<SourceLogRate<PeerSource>>
  private let quietConnections = Mutex(Set<Int>())
  /// The places each source address holds: see `admit`.
  private let sources = Mutex(SourceCounts())
  /// One event loop per core, each a thread of its own that serves its share of the connections.
  let loops: [EventLoop]
  /// `--max-clients`, or fewer when the open-file limit cannot hold that many.
  package let maxClients: Int
  /// Where passwords are hashed and checked (`JobPool.credentials`).
  package let credentials: JobPool
  /// Where history is read from the database (`JobPool.history`).
  package let history: JobPool
  package let throttle: LoginThrottle
  private let presence: Presence
  /// What every connection shares, made once: the handler and the limits the configuration sets.
  let handler: CommandHandler
  private let limits: ConnectionLimits
  /// What watchers may leave unsent, all together (`UnsentOutputBudget`).
  package let unsentBudget: UnsentOutputBudget
  /// Taken by the first `stop()`; later calls wait for `stopFinished` instead of stopping again.
  private let stopClaimed = Atomic<Bool>(false)
  /// Signalled when the first `stop()` is done, and passed on by every call that waited for it.
  private let stopFinished = DispatchSemaphore(value: 0)

  /// A server whose shop lives in memory only, whatever `configuration.dataDirectory` says.
  public convenience init(configuration: ServerConfiguration, catalog: Catalog, logger: Logger = Logger()) {
    let starter = NamedThreadStarter()
    self.init(
      configuration: configuration, shop: Shop(ShopState(catalog: catalog, limits: .inMemory), starter: starter),
      logger: logger, starter: starter)
  }

  /// A server on the configured storage (`StoreOpening`). Throws `StorageError` (or
  /// `PostgresError`) when the store cannot be used.
  public static func open(
    configuration: ServerConfiguration, catalog: Catalog, catalogText: String, logger: Logger = Logger()
  ) throws -> Server {
    let starter = NamedThreadStarter()
    let shop = try StoreOpening.open(
      configuration: configuration, catalog: catalog, catalogText: catalogText, logger: logger, starter: starter)
    return Server(configuration: configuration, shop: shop, logger: logger, starter: starter)
  }

  /// A server on `shop`, whose password and history pools run on threads `starter` makes (the
  /// engine starts none of its own; the shop was given its threads when it was opened).
  package init(configuration: ServerConfiguration, shop: Shop, logger: Logger, starter: any ThreadStarter) {
    let throttle = LoginThrottle()
    let credentials = JobPool.credentials(throttle: throttle, clock: MonotonicEngineClock(), starter: starter)
    self.throttle = throttle
    self.credentials = credentials
    self.configuration = configuration
    self.shop = shop
    self.logger = logger
    self.loops = (0..<configuration.resolvedLoops).map {
      EventLoop(name: "sr-loop-\($0)", io: configuration.io, logger: logger) { [shop] in shop.roundEnded() }
    }
    let files = FileLimit.adjust(forClients: configuration.maxClients)
    if let warning = files.warning { logger.warning(warning) }
    self.maxClients = files.maxClients
    self.rejections = Mutex(RejectionLog(interval: configuration.rejectionLogInterval))
    self.connects = Mutex(
      SourceLogRate(interval: configuration.connectLogInterval, inFull: configuration.connectsLoggedInFull))
    let stats = ServerStats()
    let history = JobPool.history(starter: starter)
    let presence = Presence()
    self.stats = stats
    self.history = history
    self.presence = presence
    self.handler = CommandHandler(
      shop: shop, stats: stats, settings: EngineSettings(configuration),
      clientCount: { [stats] in stats.connectedClients.load(ordering: .relaxed) }, logger: logger,
      credentials: credentials, history: history, throttle: throttle, presence: presence)
    self.limits = ConnectionLimits(configuration)
    self.unsentBudget = UnsentOutputBudget(total: configuration.watcherOutputBudget)
  }

  /// Starts listening and returns the plaintext port, which is the kernel's choice when
  /// configured as 0; with TLS configured, listens on the TLS port too (`tlsPort`). Throws
  /// `TLSError` when the certificate, key or CA cannot be used, `Errno` when a port cannot be bound.
  @discardableResult
  public func start() throws -> UInt16 {
    Syscall.ignoreSIGPIPE()
    // The decoy a LOGIN for a missing name is checked against, made now so that the first such
    // login costs what any wrong password does, not one hash more.
    _ = PasswordHash.decoy(configuration.passwordCost)
    guard let address = SocketAddress(host: configuration.host, port: configuration.port) else {
      throw Errno(EINVAL)
    }
    let tls = try configuration.tls.map { settings throws(TLSError) in
      try TLSContext.server(certificate: settings.certificate, key: settings.key, clientCA: settings.clientCA)
    }
    var refusal = ReplyEncoder(capacity: 128)
    refusal.error(ProtocolError(.limit, "server full: out of file descriptors; try again later"))
    let listener = try Listener(address: address, loop: loops[0], logger: logger, refusal: refusal.bytes) {
      [self] fd, peer in accepted(fd, peer)
    }
    self.listener.withLock { $0 = listener }
    logger.info(
      "listening on \(listener.address) max_clients=\(maxClients) max_line=\(configuration.maxLine) "
        + "timeout=\(configuration.idleTimeout) line_timeout=\(configuration.lineTimeout)"
        + " watch_timeout=\(configuration.watchTimeout)")
    if let tls, let settings = configuration.tls {
      try startTLS(tls, settings)
    }
    return listener.address.port
  }

  /// The TLS listener, on the same loop as the plaintext one. A peer turned away for want of
  /// descriptors is closed without a word: a plaintext line would be noise to a TLS client.
  private func startTLS(_ context: TLSContext, _ settings: TLSSettings) throws(Errno) {
    guard let address = SocketAddress(host: configuration.host, port: settings.port) else { throw Errno(EINVAL) }
    tlsContext.withLock { $0 = context }
    let listener = try Listener(address: address, loop: loops[0], logger: logger, refusal: []) { [self] fd, peer in
      // Read at each accept, so that a reload reaches the next connection.
      accepted(fd, peer, tls: tlsContext.withLock { $0 } ?? context)
    }
    tlsListener.withLock { $0 = listener }
    logger.info(
      "listening for tls on \(listener.address) versions=TLSv1.2,TLSv1.3 client_certificates="
        + (settings.clientCA == nil ? "no" : "required")
        + " handshake_timeout=\(Int(settings.handshakeTimeout.components.seconds))")
  }

  /// Reads the certificate, key and CA files again (after a renewal, on SIGHUP): connections
  /// accepted from now on use them, and those already open keep what they shook hands with.
  /// When the files cannot be used, the TLS port keeps the old ones and this throws why. The
  /// caller logs the outcome (`ServerMain` on SIGHUP), in the words of what asked for it.
  public func reloadTLS() throws(TLSError) {
    guard let settings = configuration.tls, tlsContext.withLock({ $0 }) != nil else { return }
    let context = try TLSContext.server(
      certificate: settings.certificate, key: settings.key, clientCA: settings.clientCA)
    tlsContext.withLock { $0 = context }
  }

  public var port: UInt16? { listener.withLock { $0?.address.port } }

  /// Serves the board and `/metrics` on `configuration.http` from libmicrohttpd's thread;
  /// returns the port, the kernel's choice when configured as 0.
  @discardableResult
  public func startHTTP() throws(Errno) -> UInt16 {
    guard let wanted = configuration.http, let address = wanted.socketAddress else { throw Errno(EINVAL) }
    let server = try HTTPServer(address: address, site: boardSite, logger: logger)
    http.withLock { $0 = server }
    logger.info("board on http://\(server.address)/ metrics on http://\(server.address)/metrics")
    return server.address.port
  }

  /// The port the board and `/metrics` are served on, once `startHTTP` has run.
  public var httpPort: UInt16? { http.withLock { $0?.address.port } }

  /// The TLS port (the kernel's choice when configured as 0); nil without TLS.
  public var tlsPort: UInt16? { tlsListener.withLock { $0?.address.port } }

  public var connectedClients: Int { stats.connectedClients.load(ordering: .relaxed) }

  /// Turned-away connections still saying goodbye; for tests that wait for them to go.
  public var lingeringRejectionCount: Int { lingeringRejections.load(ordering: .relaxed) }

  /// Makes an account, for a program that embeds the server (tests, tools): hashed here, on the
  /// calling thread, then applied like USER ADD. With a database it is saved by the next commit.
  public func addAccount(name: String, password: String, role: Role) throws {
    let secret = Password(password)
    try secret.check()
    try addAccount(
      name: name, passwordHash: try PasswordHash.make(secret, cost: configuration.passwordCost), role: role)
  }

  /// Makes an account from a hash made earlier with `PasswordHash.make`.
  public func addAccount(name: String, passwordHash hash: String, role: Role) throws {
    try shop.addAccount(name: name, passwordHash: hash, role: role)
  }

  /// What protected mode and the start-up log need to know of the shop's accounts.
  public var accountSummary: (accounts: Int, admins: Int) {
    shop.read { ($0.accounts.count, $0.adminCount) }
  }

  /// Stops in a defined order: stop accepting; stop reading requests; let the committer write
  /// what it holds; write every reply whose commit finished and wait for each client's kernel
  /// to take it (for at most the configuration's `shutdownGrace`); then stop the loops, closing
  /// every connection. Blocks until done; never call it on a loop's thread. Any number of
  /// calls, from any threads, stop the server once: a call while another is stopping it waits
  /// for that one, and returns false.
  @discardableResult
  public func stop() -> Bool {
    guard !stopClaimed.exchange(true, ordering: .acquiringAndReleasing) else {
      stopFinished.wait()
      stopFinished.signal()
      return false
    }
    defer { stopFinished.signal() }
    http.withLock { http in
      http?.stop()
      http = nil
    }
    listener.withLock { listener in
      listener?.close()
      listener = nil
    }
    tlsListener.withLock { listener in
      listener?.close()
      listener = nil
    }
    // No connection reads another request from here on, so nothing new reaches the committer.
    for loop in loops { loop.beginShutdown() }
    // It writes what it was given; each finished commit releases its held replies. The background
    // check is waited for too: it holds the database open, and a restart in this process would
    // otherwise find the file still locked.
    shop.stopWriting()
    // Every reply whose commit finished is written before the loops stop (bounded: a client
    // that does not read cannot keep the server up).
    let deadline = ContinuousClock.now + configuration.shutdownGrace
    while !isSettled && ContinuousClock.now < deadline { usleep(2_000) }
    // Each loop runs what is still queued, then closes every connection as "server stopping".
    for loop in loops { loop.stop() }
    credentials.shutdown()
    history.shutdown()
    return true
  }

  /// Whether no connection owes anything: each has closed, or written every reply and seen its
  /// client's kernel take it. Asks every loop, waiting for each; never call it on a loop's thread.
  var isSettled: Bool { loops.allSatisfy { $0.isSettled() } }

  private var context: ConnectionContext {
    ConnectionContext(
      limits: limits, handshakeTimeout: configuration.tls?.handshakeTimeout ?? .seconds(10),
      shop: shop, handler: handler, logger: logger, unsentBudget: unsentBudget,
      connectionClosed: { [self] connection, reason in closed(connection, reason: reason) })
  }

  private func accepted(_ fd: Int32, _ peer: SocketAddress, tls: TLSContext? = nil) {
    _ = try? Syscall.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    let id = nextConnectionID.add(1, ordering: .relaxed).oldValue
    let channel: TLSChannel?
    do {
      channel = try tls.map { context throws(TLSError) in try TLSChannel(context: context, fd: fd) }
    } catch {
      logger.error("cannot start TLS for id=\(id) peer=\(peer): \(error)")
      Glibc.close(fd)
      return
    }
    if let refusal = admit(PeerSource(peer)) {
      reject(fd, id: id, peer: peer, tls: channel, refusal: refusal)
      return
    }
    let connection = makeConnection(fd, id: id, peer: peer, admission: .client, tls: channel)
    sources.withLock { $0.attach(connection) }
    stats.totalConnections.add(1, ordering: .relaxed)
    let over = channel == nil ? "" : " transport=tls"
    if logConnect(id: id, peer: peer) {
      logger.info("connect id=\(id) peer=\(peer)\(over) clients=\(stats.connectedClients.load(ordering: .relaxed))")
    }
    connection.start()
  }

  /// Whether connection `id`'s connect (and later its disconnect) is logged one by one: the
  /// first `connectsLoggedInFull` of an address in an interval are; the others are counted
  /// and said in one line per address when it ends, so a connect-and-close loop cannot fill the
  /// disk with log lines (issue 41).
  private func logConnect(id: Int, peer: SocketAddress) -> Bool {
    let note = connects.withLock { $0.note(PeerSource(peer), label: peer.host) }
    if !note.inFull { quietConnections.withLock { _ = $0.insert(id) } }
    guard note.beganInterval else { return note.inFull }
    let interval = connects.withLock { $0.interval }
    _ = loops[0].schedule(after: interval) { [self] in
      for unsaid in connects.withLock({ $0.intervalEnded() }) {
        logger.info(
          "connect count=\(unsaid.count) source=\(unsaid.label ?? "other-addresses"): connections in the last \(interval.components.seconds) s not logged one by one, nor their disconnects"
        )
      }
    }
    return note.inFull
  }

  /// Takes a place for a connection from `source`, or says why there is none: its address holds
  /// `--max-clients-per-address` already, or the server `maxClients` and no address holds two
  /// more than `source` does. When one does, its newest connection yields its place
  /// (`SourceCounts.heaviest`): the source using most is cut, never the newcomer.
  private func admit(_ source: PeerSource) -> AdmissionRefusal? {
    let perAddress = configuration.maxClientsPerAddress
    guard sources.withLock({ $0.take(source, limit: perAddress) }) else { return .addressFull(perAddress: perAddress) }
    if takePlace() { return nil }
    // The place is the yielding connection's until it has closed, so the count may pass
    // `maxClients` by the places still being given up: at most `maxYielding`.
    let yielding = sources.withLock { sources -> (connection: Connection, held: Int)? in
      guard sources.yieldingCount < Self.maxYielding, let heaviest = sources.heaviest(against: source) else {
        return nil
      }
      sources.yield(heaviest.connection)
      return heaviest
    }
    guard let yielding else {
      sources.withLock { $0.release(source) }
      return .serverFull(maxClients: maxClients)
    }
    stats.connectedClients.add(1, ordering: .relaxed)
    yielding.connection.yieldPlace(held: yielding.held)
    return nil
  }

  /// How many connections may be giving up their places at once (see `admit`).
  static let maxYielding = 64

  /// Takes a place among `maxClients`, or says there is none. Checking the count and taking a
  /// place are one step, so connections accepted at once can never overshoot it.
  private func takePlace() -> Bool {
    var current = stats.connectedClients.load(ordering: .relaxed)
    while current < maxClients {
      let (exchanged, found) = stats.connectedClients.compareExchange(
        expected: current, desired: current + 1, ordering: .relaxed)
      if exchanged { return true }
      current = found
    }
    return false
  }

  /// The first rejection of an interval in full; the others as one count when it ends. Runs on
  /// the listeners' loop, which also runs the timer.
  private func logRejection(id: Int, peer: SocketAddress, refusal: AdmissionRefusal) {
    guard rejections.withLock({ $0.rejected() }) else { return }
    let interval = rejections.withLock { $0.interval }
    logger.warning(
      "reject id=\(id) peer=\(peer) reason=\(refusal.logReason); more in the next \(interval.components.seconds) s are counted, not logged one by one"
    )
    _ = loops[0].schedule(after: interval) { [self] in
      let unsaid = rejections.withLock { $0.intervalEnded() }
      guard unsaid > 0 else { return }
      logger.warning(
        "reject count=\(unsaid): turned away in the last \(interval.components.seconds) s (server or address full)"
      )
    }
  }

  /// Turns a connection that `admit` refused away with `ERR LIMIT`.
  private func reject(_ fd: Int32, id: Int, peer: SocketAddress, tls: TLSChannel?, refusal: AdmissionRefusal) {
    stats.rejectedConnections.add(1, ordering: .relaxed)
    logRejection(id: id, peer: peer, refusal: refusal)
    let rejection = refusal.error
    // A rejected client gets its ERR line and a moment to read it; past 64 of them still
    // closing, a flood gets the line and is closed at once, so it cannot hold descriptors.
    guard lingeringRejections.add(1, ordering: .relaxed).newValue <= 64 else {
      lingeringRejections.subtract(1, ordering: .relaxed)
      var line = ReplyEncoder(capacity: 128)
      line.error(rejection)
      Syscall.turnAway(fd, with: tls == nil ? line.bytes : [])
      return
    }
    makeConnection(fd, id: id, peer: peer, admission: .rejected, tls: tls).start(rejection: rejection)
  }

  /// A connection on its loop, which keeps it (registered) until it closes.
  private func makeConnection(
    _ fd: Int32, id: Int, peer: SocketAddress, admission: Connection.Admission, tls: TLSChannel?
  ) -> Connection {
    let transport: TransportSecurity = tls != nil ? .tls : peer.isLoopback ? .plaintextLocal : .plaintextNetwork
    return Connection(
      id: id, fd: fd, peer: peer, server: context, loop: loops[id % loops.count], admission: admission,
      transport: transport, tls: tls)
  }

  private func closed(_ connection: Connection, reason: CloseReason) {
    switch connection.admission {
    case .client:
      sources.withLock { $0.closed(connection) }
      switch reason {
      case .outputOverflow(_, let events), .watcherNotReading(_, let events), .outputBudget(_, let events):
        stats.slowConsumerDisconnects.add(1, ordering: .relaxed)
        stats.eventsDropped.add(events, ordering: .relaxed)
      case .watcherBehind: stats.slowConsumerDisconnects.add(1, ordering: .relaxed)
      default: break
      }
      let remaining = stats.connectedClients.subtract(1, ordering: .relaxed).newValue
      guard quietConnections.withLock({ $0.remove(connection.id) }) == nil else { return }
      logger.info("disconnect id=\(connection.id) peer=\(connection.peer) reason=\"\(reason)\" clients=\(remaining)")
    case .rejected:
      lingeringRejections.subtract(1, ordering: .relaxed)
    }
  }
}
