/// The `stockroom-bench` command line of one run of a row, as `Scripts/bench` always wrote it.
enum GeneratorCommand {
  static func arguments(
    row: ReportRow, server: RunningServer, options: ComparisonOptions, caFile: String
  ) -> [String] {
    let pid = String(server.process.pid)
    var command: [String]
    switch row {
    case .ping1, .ceiling, .ping1TLS: command = ["load", "--case", "ping", "--pipeline", "1"]
    case .ping16: command = ["load", "--case", "ping", "--pipeline", "16"]
    case .stock1: command = ["load", "--case", "stock", "--pipeline", "1"]
    case .orderAlways, .orderBatch, .orderTLS: command = ["load", "--case", "order", "--pipeline", "1"]
    case .idle: command = ["idle", "--connections", String(options.idleConnections), "--server-pid", pid]
    case .fanout: command = ["fanout", "--connections", String(options.watchers), "--changes", String(options.changes)]
    }
    if command[0] == "load" {
      command += [
        "--connections", String(options.connections), "--requests", String(options.requests[row] ?? 300),
        "--warmup", seconds(options.warmup), "--server-pid", pid,
      ]
    }
    command += ["--target", server.target.rawValue, "--host", "127.0.0.1", "--port", String(server.loadPort)]
    if server.tlsPort != nil { command += ["--tls", "--cacert", caFile] }
    return command
  }

  /// `1`, `0.5`, `0`: seconds as the script wrote them.
  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
