import CMicroHTTPD
import Foundation
import StockroomEngine
import StockroomLogging
import StockroomSystem
import Synchronization

/// The board (`/`, its script and style), its event stream (`/events`), `/metrics`, and the
/// phone page (`/join`, `/menu`, `POST /order`), served by GNU libmicrohttpd on a polling thread
/// of its own (epoll), so no browser or scraper waits behind a shop request or delays one.
/// GET and HEAD only, and no request body, but for a phone's order.
package final class HTTPServer: @unchecked Sendable {
  package private(set) var address: SocketAddress
  let site: BoardSite
  private var daemon: OpaquePointer?
  private let streams = Mutex<(open: [Int: EventStream], shares: SourceShares<Int, PeerSource>, stopping: Bool)>(
    ([:], SourceShares(total: HTTPLimits.streams, perSource: HTTPLimits.streamsPerAddress), false))
  /// Every connection MHD holds: the head's deadline and the places' shares.
  let connections = Mutex(HTTPConnectionTable())
  /// The phone pages' tokens and the taps' keys.
  let phone = PhoneOrderDesk()
  /// Phone orders placed and not yet answered, and whether `stop` has begun: then no order is
  /// taken, and `stop` waits for those under way, as MHD must not be stopped while their
  /// connections are suspended. One lock for both, so no order slips in after `stop` looked.
  private let orderGate = Mutex((underWay: 0, closed: false))
  private let ticker = DispatchSemaphore(value: 0)
  private let tickerDone = DispatchSemaphore(value: 0)
  private let logger: Logger

  /// Listens on `address` (port 0: the kernel's choice, read back into `address`).
  package init(address: SocketAddress, site: BoardSite, logger: Logger) throws(Errno) {
    self.site = site
    self.logger = logger
    self.address = address
    self.daemon = nil
    let context = Unmanaged.passUnretained(self).toOpaque()
    let started = try address.withSockaddr { pointer, _ in
      sr_mhd_start(
        pointer, HTTPLimits.connections + HTTPLimits.spareConnections, HTTPLimits.connectionsPerAddress,
        HTTPLimits.memoryPerConnection, HTTPLimits.idleSeconds, HTTPRequestRouter.handle, context,
        HTTPRequestRouter.completed, context, HTTPRequestRouter.notified, context)
    }
    guard let started else { throw Errno(errno == 0 ? EADDRINUSE : errno) }
    daemon = started
    self.address = SocketAddress(host: address.host, port: sr_mhd_port(started)) ?? address
    if let warning = Self.exposureWarning(self.address) { logger.warning(warning) }
    let thread = Thread { [self] in
      CurrentThread.setName("sr-http-tick")
      tickLoop()
      tickerDone.signal()
    }
    thread.start()
  }

  /// What a start on `address` warns of: the board has no login, so an address other machines
  /// reach shows them the live stock and the server's figures, and lets them order as guests
  /// from the phone page (as a guest on the shop's port may).
  package static func exposureWarning(_ address: SocketAddress) -> String? {
    guard !address.isLoopback else { return nil }
    return "the board and /metrics on http://\(address)/ can be reached from other machines, and show anyone "
      + "there the live stock and the server's figures (no login), and its phone page (/join) takes their "
      + "orders as guests; give --http 127.0.0.1:PORT unless that is meant"
  }

  /// Each second, until `stop`: closes the connections whose request head is past its deadline,
  /// and each `HTTPLimits.tickSeconds` sends every stream its `stats` event.
  private func tickLoop() {
    var second = 0
    while ticker.wait(timeout: .now() + .seconds(1)) == .timedOut {
      let now = ContinuousClock.now
      _ = connections.withLock { $0.expireHeads(olderThan: .seconds(HTTPLimits.headSeconds), at: now) }
      second += 1
      guard second % HTTPLimits.tickSeconds == 0 else { continue }
      let open = streams.withLock { Array($0.open.values) }
      guard !open.isEmpty else { continue }
      let json = site.stats()
      for stream in open { stream.tick(json) }
    }
  }

  /// Whether `stop` has begun: no new order is taken.
  var isStopping: Bool { orderGate.withLock { $0.closed } }

  /// Counts an order as under way; false once `stop` has begun.
  func admitOrder() -> Bool {
    orderGate.withLock { gate in
      guard !gate.closed else { return false }
      gate.underWay += 1
      return true
    }
  }

  /// An order admitted by `admitOrder` has its answer (and every request waiting for it).
  func orderAnswered() {
    orderGate.withLock { $0.underWay -= 1 }
  }

  /// Where `connection` comes from, as the connection table has it.
  func source(of connection: OpaquePointer) -> PeerSource {
    let key = Int(bitPattern: UnsafeRawPointer(connection))
    return connections.withLock { $0.source(of: key) } ?? PeerSource(bytes: [])
  }

  /// The phone page's address as the board shows it: the address this server listens on, or,
  /// when that is every address (0.0.0.0, ::), the host the board itself was reached by.
  func joinURL(host: String?) -> String {
    let everywhere = address.host == "0.0.0.0" || address.host == "::"
    guard everywhere, let host, !host.isEmpty else { return "http://\(address)/join" }
    return "http://\(host)/join"
  }

  /// MHD accepted `connection`: it is given a place, or another source's, or refused.
  func connectionOpened(_ connection: OpaquePointer) {
    let key = Int(bitPattern: UnsafeRawPointer(connection))
    let fd = sr_mhd_connection_fd(connection)
    let source = sr_mhd_connection_address(connection).map { PeerSource(Self.address($0)) }
    let cutStream = connections.withLock {
      $0.opened(key, fd: fd, source: source ?? PeerSource(bytes: []), at: .now)
    }
    if let cutStream { endStream(cutStream) }
  }

  /// A copy of the peer address MHD holds.
  private static func address(_ pointer: UnsafePointer<sockaddr>) -> SocketAddress {
    var storage = sockaddr_storage()
    let length =
      Int32(pointer.pointee.sa_family) == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
    withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: length)) }
    return SocketAddress(storage: storage)
  }

  /// Ends stream `id` (its connection has been cut), so that MHD, which does not look at a
  /// suspended connection, looks at it and finds it closed.
  private func endStream(_ id: Int) {
    streams.withLock { $0.open[id] }?.end()
  }

  /// A new stream for `connection`, subscribed to the hub and holding its first event (the
  /// board, or a resync of it); nil while stopping, or when its address may not have another
  /// (see `HTTPLimits.streams`).
  func openStream(_ connection: OpaquePointer, resync: Bool) -> EventStream? {
    let stream = EventStream(id: site.nextID(), connection: connection, encoder: site.encoder)
    guard let source = connections.withLock({ $0.source(of: stream.connectionKey) }) else { return nil }
    let admission = streams.withLock { streams -> SourceShares<Int, PeerSource>.Admission? in
      guard !streams.stopping else { return nil }
      let admission = streams.shares.admit(stream.id, from: source)
      if admission.isAdmitted { streams.open[stream.id] = stream }
      return admission
    }
    switch admission {
    case nil, .refused?: return nil
    case .admitted?: break
    case .admittedCutting(let victim, _)?:
      // Its place is this stream's now; its browser reconnects, and is refused while its
      // address still holds the most. It stays among the open until MHD lets it go, as `stop`
      // must not stop MHD while a connection is suspended.
      if let cut = streams.withLock({ $0.open[victim] }) {
        _ = connections.withLock { $0.cut(cut.connectionKey, .busy) }
        cut.end()
      }
    }
    connections.withLock { $0.streaming(stream.connectionKey, id: stream.id) }
    // Subscribed before the board is read, so no change falls between the two; a change in
    // both repeats, in its event, a level the page already shows.
    let mailbox = EventMailbox(filter: nil, limit: EventStream.mailboxLimit) { [weak stream] in stream?.wake() }
    site.hub.subscribe(stream.id, mailbox)
    stream.attach(mailbox)
    stream.begin(site.board(resync))
    return stream
  }

  func streamClosed(_ stream: EventStream, timedOut: Bool) {
    site.hub.unsubscribe(stream.id)
    streams.withLock {
      _ = $0.open.removeValue(forKey: stream.id)
      $0.shares.release(stream.id)
    }
    let (lagged, undelivered) = stream.finished()
    if lagged || timedOut {
      site.counters.slowConsumerDisconnects.add(1, ordering: .relaxed)
      site.counters.eventsDropped.add(undelivered, ordering: .relaxed)
    }
  }

  /// Ends every stream, waits (at most 5 s) for MHD to let them go, then stops MHD: it must not
  /// be stopped while a connection is suspended.
  package func stop() {
    orderGate.withLock { $0.closed = true }
    let open = streams.withLock { streams in
      streams.stopping = true
      return Array(streams.open.values)
    }
    for stream in open { stream.end() }
    let deadline = ContinuousClock.now + .seconds(5)
    while (streams.withLock({ !$0.open.isEmpty }) || orderGate.withLock({ $0.underWay > 0 }))
      && ContinuousClock.now < deadline
    {
      usleep(2_000)
    }
    ticker.signal()
    tickerDone.wait()
    if let daemon { MHD_stop_daemon(daemon) }
    daemon = nil
  }
}
