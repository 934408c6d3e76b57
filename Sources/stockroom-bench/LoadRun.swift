import Dispatch
import Foundation
import StockroomSystem
import StockroomTLS

/// One run: a thread per connection, all measured over the same window, tallies merged.
struct LoadRun {
  let options: BenchOptions
  /// The longest a counted run (`--requests`) may take; keeps a slow server's run bounded.
  static let countedRunLimit = 600.0

  func execute() throws(BenchError) -> LoadOutcome {
    let dialect = options.target.dialect
    let tls = try options.tlsContext()
    try dialect.prepare(
      host: options.host, port: options.resolvedPort, timeoutSeconds: options.timeoutSeconds, tls: tls)
    return try execute(dialect, tls: tls)
  }

  private func execute(_ dialect: some Dialect, tls: TLSContext?) throws(BenchError) -> LoadOutcome {
    let server = options.serverPID.map { ServerProcess(pid: $0, others: options.moreServerPIDs) }
    let control = RunControl(requests: options.requests, server: server)
    let loop = ConnectionLoop(dialect: dialect, options: options, control: control, tls: tls)
    for index in 0..<options.connections {
      control.enlist()
      // Blocking sockets on real threads: the client's own scheduling adds no queueing of its own.
      let port = options.port(forConnection: index)
      Thread { control.report(loop.run(port: port)) }.start()
    }
    let duration = options.requests == nil ? options.duration : Self.countedRunLimit
    let window = control.release(
      runners: options.connections, warmup: options.warmup, duration: duration,
      patience: Double(options.timeoutSeconds))
    // The server's CPU is read when the measured window opens, by this otherwise idle thread.
    let untilStart = window.start - min(window.start, MonotonicClock.now())
    if untilStart > 0 { usleep(UInt32(min(untilStart / 1000, UInt64(UInt32.max)))) }
    let startTicks = try server?.cpuTicks()
    // A stalled connection gives up after its socket timeout, so this bound is never the limit
    // for a healthy run.
    let untilEnd = Double(window.end - min(window.end, MonotonicClock.now())) / 1e9
    let deadline = DispatchTime.now() + untilEnd + Double(options.timeoutSeconds * 2 + 1)
    guard let tally = control.collect(by: deadline) else {
      let grace = options.timeoutSeconds * 2 + 1
      throw BenchError("connections still running \(grace) s after the end")
    }
    let end = control.end
    var elapsed = options.duration
    if options.requests != nil, let end {
      elapsed = Double(end.time - min(end.time, window.start)) / 1e9
    }
    var ticks: Int? = nil
    if let startTicks, let endTicks = end?.cpuTicks { ticks = endTicks - startTicks }
    return LoadOutcome(tally: tally, elapsedSeconds: elapsed, cpuTicks: ticks)
  }
}
