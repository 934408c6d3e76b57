import StockroomSystem
import StockroomTLS

/// One connection's life: connect, line up, then send a batch and read its replies until the
/// window closes or the run's fixed number of requests is spent.
struct ConnectionLoop<D: Dialect>: Sendable {
  let dialect: D
  let options: BenchOptions
  let control: RunControl
  /// Each connection's TLS, when the run is over TLS.
  let tls: TLSContext?

  func run(port: UInt16) -> WorkerTally {
    var tally = WorkerTally()
    let socket: BlockingSocket
    do {
      socket = try BlockingSocket(host: options.host, port: port, timeoutSeconds: options.timeoutSeconds, tls: tls)
      try dialect.greet(socket)
    } catch {
      control.withdraw()
      tally.failures.append("before the start: \(error)")
      return tally
    }
    let window = control.arrive()
    let counting = options.requests != nil
    let batch = [[UInt8]](repeating: dialect.request(options.benchCase), count: options.pipeline)
      .flatMap { $0 }
    do {
      while true {
        let sent = MonotonicClock.now()
        if sent >= window.end { break }
        let measured = sent >= window.start
        if measured && !control.claim(options.pipeline) { break }
        try socket.send(batch)
        for _ in 0..<options.pipeline {
          let failed = try socket.nextReply(dialect).failed
          let received = MonotonicClock.now()
          // Warmup replies are read but not counted; so are those that straddle the end of a
          // timed window (a counted run counts every request it claimed).
          guard measured, counting || received <= window.end else { continue }
          tally.requests += 1
          if failed { tally.errors += 1 }
          tally.latencies.record(received - sent)
        }
      }
    } catch {
      tally.failures.append("during the run: \(error)")
    }
    control.depart(until: window.end + UInt64(options.timeoutSeconds) * 1_000_000_000)
    return tally
  }
}
