/// A server started for one run: its process, the plain port that readiness checks and most
/// rows use, and for a TLS row the port the load goes to.
struct RunningServer {
  let target: BenchTarget
  let process: ChildProcess
  let port: UInt16
  var tlsPort: UInt16? = nil

  /// Where the generator connects.
  var loadPort: UInt16 { tlsPort ?? port }
}
