import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A listening TCP socket and the Dispatch source that accepts from it.
///
/// Out of file descriptors, `accept` fails while the connection stays queued, so the source
/// fires again at once: a server that only returns spins on it. This one keeps a spare
/// descriptor for that moment, as libuv and nginx do: give it up, accept the waiting peer, tell
/// it the server is full, close it and take the spare back. Should even that fail, it stops
/// accepting for a short pause. Either way it says so once per episode, not once per attempt.
final class Listener: @unchecked Sendable {
  let fd: Int32
  let address: SocketAddress
  private let source: any DispatchSourceRead
  private let queue: DispatchQueue
  private let logger: Logger
  /// What a peer turned away for want of descriptors is told before it is closed.
  private let refusal: [UInt8]
  private var spare: Int32 = -1
  /// Peers turned away since descriptors ran out; nil while accepting normally.
  private var starved: Int?
  private var paused = false
  private var closed = false

  static let pauseWhenStarved: DispatchTimeInterval = .milliseconds(100)

  /// Binds and listens; `address.port` 0 lets the kernel choose, and `address` then has the real one.
  init(
    address: SocketAddress, queue: DispatchQueue, logger: Logger, refusal: [UInt8],
    accept: @escaping @Sendable (Int32, SocketAddress) -> Void
  ) throws(Errno) {
    let fd = try Syscall.retrying {
      socket(
        address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }
    do {
      try Syscall.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
      _ = try address.withSockaddr { pointer, length throws(Errno) in
        try Syscall.retrying { bind(fd, pointer, length) }
      }
      try Syscall.retrying { listen(fd, 1024) }
    } catch {
      Glibc.close(fd)
      throw error
    }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.fd = fd
    self.address = SocketAddress(storage: storage)
    self.queue = queue
    self.logger = logger
    self.refusal = refusal
    self.spare = Self.openSpare()
    let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
    self.source = source
    // Both handlers are released when the source is cancelled, which ends the cycle they make.
    source.setEventHandler { [self] in acceptAll(accept) }
    source.setCancelHandler { [self] in
      Glibc.close(fd)
      if spare >= 0 { Glibc.close(spare) }
      spare = -1
    }
    source.resume()
  }

  private static func openSpare() -> Int32 {
    Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
  }

  /// Takes every pending connection: one readiness event may stand for many.
  private func acceptAll(_ accept: (Int32, SocketAddress) -> Void) {
    while true {
      var peer = sockaddr_storage()
      var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let client = withUnsafeMutablePointer(to: &peer) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(fd, $0, &peerLength) }
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
      // accept4 is hidden behind _GNU_SOURCE in Glibc's module map; set the flags by hand.
      _ = fcntl(client, F_SETFD, FD_CLOEXEC)
      guard (try? Syscall.setNonBlocking(client)) != nil else {
        Glibc.close(client)
        continue
      }
      accept(client, SocketAddress(storage: peer))
    }
  }

  /// Out of descriptors: accepts one waiting peer on the spare descriptor and turns it away.
  /// False when that was not possible and accepting has paused instead.
  private func turnAwayOne(_ error: Errno) -> Bool {
    if starved == nil {
      starved = 0
      var limit = rlimit()
      getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
      logger.warning(
        "out of file descriptors accepting a connection (\(error)); the limit is \(limit.rlim_cur) (ulimit -n): "
          + "new connections get ERR LIMIT until some close; raise the limit or lower --max-clients")
    }
    if spare >= 0 {
      Glibc.close(spare)
      spare = -1
      let client = Glibc.accept(fd, nil, nil)
      if client >= 0 {
        // Best effort and never blocking: the socket's buffer is empty, so the line fits.
        _ = refusal.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        Glibc.close(client)
        starved? += 1
      }
      spare = Self.openSpare()
      if client >= 0 && spare >= 0 { return true }
    }
    pause()
    return false
  }

  /// Stops listening for a moment; the backlog keeps the waiting peers meanwhile.
  private func pause() {
    guard !paused else { return }
    paused = true
    source.suspend()
    queue.asyncAfter(deadline: .now() + Self.pauseWhenStarved) { [self] in
      guard !closed else { return }
      if spare < 0 { spare = Self.openSpare() }
      paused = false
      source.resume()
    }
  }

  func close() {
    queue.sync {
      closed = true
      if paused {
        paused = false
        source.resume()
      }
    }
    source.cancel()
  }
}
