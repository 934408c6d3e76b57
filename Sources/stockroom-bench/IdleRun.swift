#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Opens connections that each send one PING and then sit idle, and reads how much the server's
/// resident memory grew.
struct IdleRun {
  let options: BenchOptions
  /// Time for the server to finish with the last connection and for its RSS to settle.
  static let settleMicroseconds: UInt32 = 1_000_000

  func execute() throws(BenchError) -> IdleOutcome {
    guard let pid = options.serverPID else { throw BenchError("idle needs --server-pid") }
    let server = ServerProcess(pid: pid)
    let dialect = options.target.dialect
    try dialect.prepare(
      host: options.host, port: options.resolvedPort, timeoutSeconds: options.timeoutSeconds, tls: nil)
    usleep(Self.settleMicroseconds)
    let before = try server.residentKiB()
    var sockets: [BlockingSocket] = []
    sockets.reserveCapacity(options.connections)
    let ping = dialect.request(.ping)
    for number in 0..<options.connections {
      do {
        let socket = try BlockingSocket(
          host: options.host, port: options.resolvedPort, timeoutSeconds: options.timeoutSeconds,
          bufferBytes: 512)
        try dialect.greet(socket)
        // One request each, so that both servers have read from every connection.
        try socket.send(ping)
        if try socket.nextReply(dialect).failed { throw BenchError("PING failed") }
        sockets.append(socket)
      } catch {
        throw BenchError("connection \(number + 1) of \(options.connections): \(error)")
      }
    }
    usleep(Self.settleMicroseconds)
    let after = try server.residentKiB()
    // Kept open until the reading above; closing them is the process's exit.
    withExtendedLifetime(sockets) {}
    return IdleOutcome(
      connections: options.connections, residentBeforeKiB: before, residentAfterKiB: after)
  }
}
