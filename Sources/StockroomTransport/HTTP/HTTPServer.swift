import CMicroHTTPD
import Foundation
import StockroomEngine
import StockroomLogging
import StockroomSystem
import Synchronization

/// The board (`/`, its script and style), its event stream (`/events`) and `/metrics`, served by
/// GNU libmicrohttpd on a polling thread of its own (epoll), so no browser or scraper waits
/// behind a shop request or delays one. Read-only: GET and HEAD only, no request body.
package final class HTTPServer: @unchecked Sendable {
  package private(set) var address: SocketAddress
  let site: BoardSite
  private var daemon: OpaquePointer?
  private let streams = Mutex<(open: [Int: EventStream], stopping: Bool)>(([:], false))
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
        pointer, HTTPLimits.connections, HTTPLimits.connectionsPerAddress, HTTPLimits.memoryPerConnection,
        HTTPLimits.idleSeconds, HTTPRequestRouter.handle, context, HTTPRequestRouter.completed, context)
    }
    guard let started else { throw Errno(errno == 0 ? EADDRINUSE : errno) }
    daemon = started
    self.address = SocketAddress(host: address.host, port: sr_mhd_port(started)) ?? address
    let thread = Thread { [self] in
      CurrentThread.setName("sr-http-tick")
      tickLoop()
      tickerDone.signal()
    }
    thread.start()
  }

  /// Sends every stream its `stats` event each `HTTPLimits.tickSeconds`, until `stop`.
  private func tickLoop() {
    while ticker.wait(timeout: .now() + .seconds(HTTPLimits.tickSeconds)) == .timedOut {
      let open = streams.withLock { Array($0.open.values) }
      guard !open.isEmpty else { continue }
      let json = site.stats()
      for stream in open { stream.tick(json) }
    }
  }

  /// A new stream for `connection`, subscribed to the hub and holding its first event (the
  /// board, or a resync of it); nil past `HTTPLimits.streams` or while stopping.
  func openStream(_ connection: OpaquePointer, resync: Bool) -> EventStream? {
    let stream = EventStream(id: site.nextID(), connection: connection, encoder: site.encoder)
    let admitted = streams.withLock { streams in
      guard !streams.stopping, streams.open.count < HTTPLimits.streams else { return false }
      streams.open[stream.id] = stream
      return true
    }
    guard admitted else { return nil }
    // Subscribed before the board is read, so no change falls between the two; a change in
    // both repeats, in its event, a level the page already shows.
    let mailbox = EventMailbox(filter: nil) { [weak stream] in stream?.wake() }
    site.hub.subscribe(stream.id, mailbox)
    stream.attach(mailbox)
    stream.begin(site.board(resync))
    return stream
  }

  func streamClosed(_ stream: EventStream, timedOut: Bool) {
    site.hub.unsubscribe(stream.id)
    streams.withLock { _ = $0.open.removeValue(forKey: stream.id) }
    let (lagged, undelivered) = stream.finished()
    if lagged || timedOut {
      site.counters.slowConsumerDisconnects.add(1, ordering: .relaxed)
      site.counters.eventsDropped.add(undelivered, ordering: .relaxed)
    }
  }

  /// Ends every stream, waits (at most 5 s) for MHD to let them go, then stops MHD: it must not
  /// be stopped while a connection is suspended.
  package func stop() {
    let open = streams.withLock { streams in
      streams.stopping = true
      return Array(streams.open.values)
    }
    for stream in open { stream.end() }
    let deadline = ContinuousClock.now + .seconds(5)
    while streams.withLock({ !$0.open.isEmpty }) && ContinuousClock.now < deadline { usleep(2_000) }
    ticker.signal()
    tickerDone.wait()
    if let daemon { MHD_stop_daemon(daemon) }
    daemon = nil
  }
}
