import CStockroomSystem
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Watchers on one thread with epoll, and a publisher on the same thread: each change is sent,
/// then every watcher's event is read, and the time from the send to the last watcher's event
/// is one sample. Changes never overlap, so each sample is one change's whole fan-out.
///
/// Reading a thousand sockets takes this thread a millisecond or two of its own, the same for
/// both servers; the figure is end to end, as a client would see it.
struct FanOutRun {
  let options: BenchOptions

  func execute() throws(BenchError) -> FanOutOutcome {
    let dialect = options.target.dialect
    try dialect.prepare(
      host: options.host, port: options.resolvedPort, timeoutSeconds: options.timeoutSeconds, tls: nil)
    return try execute(dialect)
  }

  private func connect(_ dialect: some Dialect) throws(BenchError) -> BlockingSocket {
    let socket = try BlockingSocket(
      host: options.host, port: options.resolvedPort, timeoutSeconds: options.timeoutSeconds,
      bufferBytes: 4096)
    try dialect.greet(socket)
    return socket
  }

  private func execute(_ dialect: some Dialect) throws(BenchError) -> FanOutOutcome {
    let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    guard epoll >= 0 else { throw BenchError("epoll_create1 failed") }
    defer { close(epoll) }
    var watchers: [BlockingSocket] = []
    for number in 0..<options.connections {
      do {
        let socket = try connect(dialect)
        try socket.send(dialect.watchRequest)
        let reply = try socket.nextReply(dialect, keepingText: true)
        if reply.failed { throw BenchError("watch answered '\(reply.text)'") }
        if !socket.isDrained { throw BenchError("an event arrived before any change") }
        var event = epoll_event(events: sr_epoll_in, data: epoll_data_t(u64: UInt64(number)))
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, socket.descriptor, &event) == 0 else {
          throw BenchError("epoll_ctl failed")
        }
        watchers.append(socket)
      } catch {
        throw BenchError("watcher \(number + 1) of \(options.connections): \(error)")
      }
    }
    let publisher = try connect(dialect)
    var pending = [[UInt8]](repeating: [], count: watchers.count)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    defer { buffer.deallocate() }
    let ready = UnsafeMutablePointer<epoll_event>.allocate(capacity: 256)
    defer { ready.deallocate() }
    var outcome = FanOutOutcome(watchers: watchers.count)
    for change in 0..<options.changes {
      let sent = MonotonicClock.now()
      let giveUp = sent + UInt64(options.timeoutSeconds) * 1_000_000_000
      try publisher.send(dialect.changeRequest)
      var received = 0
      var last = sent
      while received < watchers.count {
        if MonotonicClock.now() > giveUp {
          throw BenchError(
            "change \(change + 1): \(received) of \(watchers.count) watchers had the event after"
              + " \(options.timeoutSeconds) s")
        }
        let count = epoll_wait(epoll, ready, 256, 100)
        if count < 0 && errno != EINTR { throw BenchError("epoll_wait failed") }
        for index in 0..<max(0, Int(count)) {
          let watcher = Int(ready[index].data.u64)
          let got = recv(
            watchers[watcher].descriptor, buffer.baseAddress!, buffer.count, Int32(MSG_DONTWAIT))
          if got == 0 { throw BenchError("the server closed watcher \(watcher + 1)") }
          if got < 0 { continue }
          pending[watcher] += UnsafeRawBufferPointer(rebasing: buffer[..<got])
          let found = pending[watcher].withUnsafeBytes { dialect.events(in: $0) }
          pending[watcher].removeFirst(found.length)
          received += found.count
          if found.count > 0 { last = MonotonicClock.now() }
        }
      }
      outcome.record(last - sent)
      if try publisher.nextReply(dialect).failed { outcome.errors += 1 }
    }
    return outcome
  }
}
