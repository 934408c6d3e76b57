import CStockroomSystem
import StockroomLogging
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A listening TCP socket, accepting on an event loop of ours.
///
/// Out of file descriptors, `accept` fails while the connection stays queued, so readiness is
/// reported again at once: a server that only returns spins on it. This one keeps a spare
/// descriptor for that moment, as libuv and nginx do: give it up, accept the waiting peer, tell
/// it the server is full, close it and take the spare back. Should even that fail, it leaves the
/// loop's epoll set for a short pause (the backlog keeps the waiting peers). Either way it says
/// so once per episode, not once per attempt. A Dispatch read source served here before, but
/// suspending and resuming it from its own handler left it deaf on Linux.
///
/// Everything but `init` and `address` runs on `loop`'s thread, which makes the unchecked
/// `Sendable` sound.
package final class Listener: EventLoop.Handler, @unchecked Sendable {
  package let fd: Int32
  package let address: SocketAddress
  private let loop: EventLoop
  private let logger: Logger
  /// What a peer turned away for want of descriptors is told before it is closed.
  private let refusal: [UInt8]
  private let accept: (Int32, SocketAddress) -> Void
  private var spare: Int32 = -1
  /// Peers turned away since descriptors ran out; nil while accepting normally.
  private var starved: Int?
  private var registered = false
  private var closed = false

  package static let pauseWhenStarved: Duration = .milliseconds(100)
  /// For `sr_accept4` (the metrics listener's too): an accepted connection is non-blocking for
  /// its event loop and closed on exec, from the start.
  package static let acceptedSocketFlags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)

  /// Binds and listens; `address.port` 0 lets the kernel choose, and `address` then has the real one.
  package init(
    address: SocketAddress, loop: EventLoop, logger: Logger, refusal: [UInt8],
    accept: @escaping (Int32, SocketAddress) -> Void
  ) throws(Errno) {
    let (fd, bound) = try ListeningSocket.open(address, backlog: 1024)
    self.fd = fd
    self.address = bound
    self.loop = loop
    self.logger = logger
    self.refusal = refusal
    self.accept = accept
    loop.execute { [self] in
      spare = Self.openSpare()
      startListening()
    }
  }

  private static func openSpare() -> Int32 {
    Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
  }

  private func startListening() {
    guard !closed, !registered else { return }
    do {
      try loop.register(fd, self, interest: .read)
      registered = true
    } catch {
      logger.error("cannot watch the listening socket: \(error)")
    }
  }

  package func ready(_ readiness: Readiness) {
    acceptAll()
  }

  package func loopStopped() {
    finish()
  }

  /// Takes every pending connection: one readiness event may stand for many.
  private func acceptAll() {
    while registered {
      var peer = sockaddr_storage()
      var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let client = withUnsafeMutablePointer(to: &peer) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          sr_accept4(fd, $0, &peerLength, Self.acceptedSocketFlags)
        }
      }
      if client < 0 {
        let error = Errno.current
        switch error.rawValue {
        case EINTR, ECONNABORTED: continue
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          guard turnAwayOne(error) else { return }
          continue
        default: return
        }
      }
      if let turnedAway = starved {
        starved = nil
        logger.info("accepting connections again; \(turnedAway) turned away while out of file descriptors")
      }
      accept(client, SocketAddress(storage: peer))
    }
  }

  /// Out of descriptors: accepts one waiting peer on the spare descriptor and turns it away.
  /// False when that was not possible and accepting has paused instead.
  private func turnAwayOne(_ error: Errno) -> Bool {
    if starved == nil {
      starved = 0
      let limit = FileLimit.current().map { String($0.rlim_cur) } ?? "unknown"
      logger.warning(
        "out of file descriptors accepting a connection (\(error)); the limit is \(limit) (ulimit -n): "
          + "new connections get ERR LIMIT until some close; raise the limit or lower --max-clients")
    }
    if spare >= 0 {
      Glibc.close(spare)
      spare = -1
      let client = sr_accept4(fd, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
      if client >= 0 {
        Syscall.turnAway(client, with: refusal)
        starved? += 1
      }
      spare = Self.openSpare()
      if client >= 0 && spare >= 0 { return true }
    }
    pause()
    return false
  }

  /// Leaves the epoll set for a moment, so a backlog that cannot be accepted does not spin the loop.
  private func pause() {
    guard registered else { return }
    loop.deregister(fd)
    registered = false
    _ = loop.schedule(after: Self.pauseWhenStarved) { [self] in
      if spare < 0 { spare = Self.openSpare() }
      startListening()
    }
  }

  private func finish() {
    guard !closed else { return }
    closed = true
    registered = false
    // Shut down before closing: a child spawned by another thread shares the socket until its
    // exec closes the copy, and a socket closed without this listens on in it meanwhile,
    // taking connections nobody accepts and refusing a new server the port.
    Glibc.shutdown(fd, Int32(SHUT_RDWR))
    loop.close(fd)
    if spare >= 0 { Glibc.close(spare) }
    spare = -1
  }

  /// Stops accepting and closes the socket, on the loop's thread.
  package func close() {
    loop.execute { [self] in finish() }
  }
}
