import Dispatch
import Foundation

/// One run: a thread per connection, all measured over the same window, tallies merged.
struct LoadRun {
  let options: BenchOptions

  func execute() throws(BenchError) -> WorkerTally {
    let dialect = options.target.dialect
    try dialect.prepare(
      host: options.host, port: options.resolvedPort, timeoutSeconds: options.timeoutSeconds)
    return try execute(dialect)
  }

  private func execute(_ dialect: some Dialect) throws(BenchError) -> WorkerTally {
    let control = RunControl()
    let loop = ConnectionLoop(dialect: dialect, options: options, control: control)
    for _ in 0..<options.connections {
      control.enlist()
      // Blocking sockets on real threads: the client's own scheduling adds no queueing of its own.
      Thread { control.report(loop.run()) }.start()
    }
    let window = control.release(
      runners: options.connections, warmup: options.warmup, duration: options.duration,
      patience: Double(options.timeoutSeconds))
    // A stalled connection gives up after its socket timeout, so this bound is never the limit
    // for a healthy run.
    let untilEnd = Double(window.end - min(window.end, MonotonicClock.now())) / 1e9
    let deadline = DispatchTime.now() + untilEnd + Double(options.timeoutSeconds * 2 + 1)
    guard let tally = control.collect(by: deadline) else {
      let grace = options.timeoutSeconds * 2 + 1
      throw BenchError("connections still running \(grace) s after the end")
    }
    return tally
  }
}
