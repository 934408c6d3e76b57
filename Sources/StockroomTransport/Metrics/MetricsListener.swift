import CStockroomSystem
import Foundation
import StockroomEngine
import StockroomLogging
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The `--metrics` responder: a listening socket and a thread of its own that answers
/// `GET /metrics` over HTTP/1.1, one response per connection, then closes.
///
/// Nothing here runs on an event loop, so a slow scraper, or someone holding sockets open on
/// this port, cannot delay a shop request. What anyone can make it hold is bounded: at most
/// `maxConnections` at once, `HTTPRequestHead.maxBytes` of request each, `requestTimeout` to
/// send it, and `lingerTimeout` to go after the answer. One source (an IPv4 address, an IPv6 /64)
/// holds at most `maxPerSource` of the places; when it connects again, or when every place is
/// taken and anyone connects, the peer that has waited longest for its request, of that source
/// or else of the source holding most, is closed to make room (as OpenSSH's MaxStartups drops
/// unauthenticated connections). So sockets held open and silent from elsewhere cannot keep a
/// scraper waiting in the backlog: 16 of them did, for their whole request timeout. All sockets
/// are non-blocking and waited on with poll(2), so one slow peer never stalls another.
package final class MetricsListener: @unchecked Sendable {
  /// Places for peers at once: room for many scrapers and a crowd of idle sockets besides, each
  /// holding at most `HTTPRequestHead.maxBytes` of request (2 MiB in all).
  package static let maxConnections = 256
  package static let maxPerSource = 8
  package static let requestTimeout = Duration.seconds(5)
  /// After the answer, how long the peer may take to close (its unread bytes are drained so the
  /// answer is not lost to a reset).
  package static let lingerTimeout = Duration.seconds(2)

  package let address: SocketAddress
  private let fd: Int32
  /// poll wakes on its read end when `stop` writes to it.
  private let wake: (read: Int32, write: Int32)
  private let render: @Sendable () -> String
  private let logger: Logger
  private let done = DispatchSemaphore(value: 0)

  private struct Peer {
    enum Phase {
      case reading
      case writing
      /// Answered and shut down for writing; reading whatever is left until the peer closes.
      case draining
    }

    var fd: Int32
    let source: PeerSource
    var phase = Phase.reading
    var input: [UInt8] = []
    var output: [UInt8] = []
    var sent = 0
    var deadline: ContinuousClock.Instant
  }

  package init(address: SocketAddress, logger: Logger, render: @escaping @Sendable () -> String) throws(Errno) {
    let (fd, bound) = try ListeningSocket.open(address, backlog: 64)
    var pipes: [Int32] = [0, 0]
    do {
      _ = try Syscall.retrying { sr_pipe_cloexec(&pipes) }
      for end in pipes { try Syscall.setNonBlocking(end) }
    } catch {
      close(fd)
      throw error
    }
    self.fd = fd
    self.address = bound
    self.wake = (pipes[0], pipes[1])
    self.logger = logger
    self.render = render
  }

  package func start() {
    let thread = Thread { [self] in
      CurrentThread.setName("sr-metrics")
      run()
      done.signal()
    }
    thread.start()
  }

  /// Stops the thread, closing every connection and the socket; returns when it is gone.
  package func stop() {
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    done.wait()
    close(wake.write)
  }

  private func run() {
    var peers: [Peer] = []
    defer {
      for peer in peers { close(peer.fd) }
      close(fd)
      close(wake.read)
    }
    while true {
      var polled = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
      let room = peers.count < Self.maxConnections || peers.contains { $0.phase == .reading }
      polled.append(pollfd(fd: fd, events: room ? Int16(POLLIN) : 0, revents: 0))
      for peer in peers {
        polled.append(pollfd(fd: peer.fd, events: Int16(peer.phase == .writing ? POLLOUT : POLLIN), revents: 0))
      }
      let now = ContinuousClock.now
      let timeout = peers.map { max(0, ($0.deadline - now).milliseconds) + 1 }.min() ?? -1
      let ready = poll(&polled, nfds_t(polled.count), Int32(clamping: timeout))
      if ready < 0 && errno != EINTR {
        logger.error("metrics: poll failed: \(Errno.current); no more scrapes served")
        return
      }
      if polled[0].revents != 0 { return }
      // Back to front, so removing one does not move the ones still to visit.
      for index in peers.indices.reversed() {
        let events = polled[index + 2].revents
        if events != 0 { serve(&peers[index], events: events) }
        if peers[index].fd < 0 || ContinuousClock.now >= peers[index].deadline {
          expire(&peers[index])
        }
        if peers[index].fd < 0 { peers.remove(at: index) }
      }
      if polled[1].revents & Int16(POLLIN) != 0 { accept(into: &peers) }
    }
  }

  /// Accepts what the backlog holds, up to one turn's worth, each new peer in the place of an
  /// older one when its source, or the whole responder, has no place left.
  private func accept(into peers: inout [Peer]) {
    for _ in 0..<Self.maxConnections * 4 {
      guard peers.count < Self.maxConnections || peers.contains(where: { $0.phase == .reading }) else { return }
      var address = sockaddr_storage()
      var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let client = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          sr_accept4(fd, $0, &length, Listener.acceptedSocketFlags)
        }
      }
      guard client >= 0 else { return }
      let peer = Peer(
        fd: client, source: PeerSource(SocketAddress(storage: address)), deadline: .now + Self.requestTimeout)
      if let victim = placeToFree(for: peer.source, among: peers) {
        finish(&peers[victim])
        peers.remove(at: victim)
      }
      if peers.count < Self.maxConnections && peers.filter({ $0.source == peer.source }).count < Self.maxPerSource {
        peers.append(peer)
      } else {
        close(client)
      }
    }
  }

  /// Which peer to close so that one from `source` can have a place, if one must go: the oldest
  /// still sending its request, of `source` when it holds its share, else of the source holding
  /// the most places.
  private func placeToFree(for source: PeerSource, among peers: [Peer]) -> Int? {
    let held = Dictionary(grouping: peers.indices) { peers[$0].source }
    let own = held[source]?.count ?? 0
    let candidates: [Int]
    if own >= Self.maxPerSource {
      candidates = held[source] ?? []
    } else if peers.count >= Self.maxConnections {
      let most = held.values.map(\.count).max() ?? 0
      candidates = held.values.filter { $0.count == most }.flatMap { $0 }
    } else {
      return nil
    }
    return candidates.filter { peers[$0].phase == .reading }.min { peers[$0].deadline < peers[$1].deadline }
  }

  private func serve(_ peer: inout Peer, events: Int16) {
    switch peer.phase {
    case .reading:
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { recv(peer.fd, $0.baseAddress, $0.count, 0) }
      if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
      guard count > 0 else {
        finish(&peer)
        return
      }
      peer.input += chunk[..<count]
      switch HTTPRequestHead.parse(peer.input) {
      case .incomplete: return
      case .refused(let status): respond(&peer, HTTPResponse.refusal(status))
      case .complete(let head): respond(&peer, answer(head))
      }
    case .writing:
      let count = peer.output[peer.sent...].withUnsafeBytes {
        send(peer.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
      guard count > 0 else {
        finish(&peer)
        return
      }
      peer.sent += count
      if peer.sent == peer.output.count {
        shutdown(peer.fd, Int32(SHUT_WR))
        peer.phase = .draining
        peer.deadline = .now + Self.lingerTimeout
      }
    case .draining:
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { recv(peer.fd, $0.baseAddress, $0.count, 0) }
      if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
      if count <= 0 { finish(&peer) }
    }
  }

  /// A request that took too long gets 408 if the socket will take it at once; any other
  /// phase past its deadline is simply closed.
  private func expire(_ peer: inout Peer) {
    guard peer.fd >= 0 else { return }
    if peer.phase == .reading {
      let bytes = HTTPResponse.refusal(.requestTimeout).bytes
      _ = bytes.withUnsafeBytes { send(peer.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }
    finish(&peer)
  }

  private func respond(_ peer: inout Peer, _ response: HTTPResponse) {
    peer.output = response.bytes
    peer.sent = 0
    peer.phase = .writing
    // The answer has as long again to go out as the request had to come in.
    peer.deadline = .now + Self.requestTimeout
    serve(&peer, events: Int16(POLLOUT))
  }

  private func answer(_ head: HTTPRequestHead) -> HTTPResponse {
    guard head.method != .other else { return .refusal(.methodNotAllowed) }
    guard head.path == "/metrics" else { return .refusal(.notFound) }
    var response = HTTPResponse(.ok, body: render(), contentType: MetricsText.contentType)
    response.omitsBody = head.method == .head
    return response
  }

  private func finish(_ peer: inout Peer) {
    if peer.fd >= 0 { close(peer.fd) }
    peer.fd = -1
  }
}
