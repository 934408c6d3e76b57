import Foundation
import StockroomDaemon
import StockroomTestSupport
import StockroomTransport
import Testing

@testable import StockroomServer

@Suite("contrib/: the systemd unit and the example config", .timeLimit(.minutes(30)))
struct ServiceFileTests {
  static let contrib = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("contrib")

  /// The unit's `Key=value` lines (comments and section headers left out), in order.
  private func directives() throws -> [(key: String, value: String)] {
    let text = try String(contentsOf: Self.contrib.appendingPathComponent("stockroomd.service"), encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#"), !line.hasPrefix("["), let equals = line.firstIndex(of: "=") else { return nil }
      return (String(line[..<equals]), String(line[line.index(after: equals)...]))
    }
  }

  @Test("the unit runs as its own user with its state directory, hardened, restarted on failure, reloaded by SIGHUP")
  func unit() throws {
    let unit = try directives()
    func value(_ key: String) -> String? { unit.first { $0.key == key }?.value }
    #expect(value("User") == "stockroom" || value("DynamicUser") == "yes")
    #expect(value("StateDirectory") == "stockroom")
    #expect(value("ProtectSystem") == "strict")
    #expect(value("NoNewPrivileges") == "yes")
    #expect(value("Restart") == "on-failure")
    #expect(value("ExecReload") == "/bin/kill -HUP $MAINPID")
    #expect(value("ExecStart") == "/usr/local/bin/stockroomd --config \(ServerConfiguration.defaultConfigFile)")
    let files = try #require(value("LimitNOFILE").flatMap(Int.init))
    #expect(files >= ServerConfiguration().maxClients + FileLimit.reserved, "LimitNOFILE \(files)")
    // Every option the unit passes is one stockroomd has.
    for command in unit.filter({ $0.key.hasPrefix("Exec") && $0.value.contains("stockroomd") }) {
      for word in command.value.split(separator: " ") where word.hasPrefix("-") {
        #expect(ServerOptions.commandLine(String(word)) != nil, "\(command.key) passes unknown \(word)")
      }
    }
  }

  @Test(
    "the example config passes --check-config, keeps the data where the unit's StateDirectory is, and names only real keys"
  )
  func exampleConfig() throws {
    let config = Self.contrib.appendingPathComponent("stockroomd.conf").path
    let text = try String(contentsOfFile: config, encoding: .utf8)
    let state = try #require(try directives().first { $0.key == "StateDirectory" }?.value)
    #expect(text.contains("\ndata = /var/lib/\(state)\n"))
    // Keys shown commented out must be real too, or uncommenting one would fail.
    var shown: Set<String> = []
    for line in text.split(separator: "\n") {
      guard let match = line.wholeMatch(of: /#? ?([a-z][a-z-]*) = .*/) else { continue }
      let key = String(match.1)
      shown.insert(key)
      #expect(ServerOptions.key(key) != nil, "unknown key \(key) in the example")
    }
    // TLS is what a service reached from other machines needs, so the example shows how.
    for key in ["tls-cert", "tls-key", "tls-port", "tls-ca", "allow-plaintext-auth"] {
      #expect(shown.contains(key), "the example does not show \(key)")
    }
    // The machine running the tests has no /var/lib/stockroom: the command line points data elsewhere.
    let data = try DataDirectory()
    let check = try DaemonProcess(["--config", config, "--check-config", "--data", data.path])
    #expect(try check.waitForExit() == 0, "\(check.log)")
    #expect(check.standardOutput(showing: "\n").hasPrefix("stockroomd: configuration OK: config \(config)"))
  }

  @Test("a server started as the unit starts it, on the example config, serves the shop and its metrics")
  func servesFromExample() throws {
    let config = Self.contrib.appendingPathComponent("stockroomd.conf").path
    let data = try DataDirectory()
    // Only what this machine needs differently: the data directory and free ports.
    let daemon = try DaemonProcess(["--config", config, "--data", data.path, "--port", "0", "--http", "127.0.0.1:0"])
    let port = try daemon.port()
    #expect(daemon.logShows("config=\(config)"), "\(daemon.log)")
    let client = try LineClient.greeted(port)
    #expect(try client.request("PING").message == "PONG")
    // Logged once the HTTP server listens, just after the shop's port. `--http` overrides the
    // example's `http =`.
    #expect(daemon.logShows("metrics on http://"), "\(daemon.log)")
    let match = try #require(daemon.log.firstMatch(of: /metrics on http:\/\/127\.0\.0\.1:(\d+)\/metrics/))
    let metrics = try HTTPExchange.get("/metrics", port: try #require(UInt16(match.1)))
    #expect(metrics.status == 200)
    #expect(try PrometheusExposition(metrics.body).value("stockroom_connections") == 1)
    withExtendedLifetime(client) {}
  }

  @Test("systemd-analyze verify accepts the unit")
  func systemdVerify() throws {
    let analyze = "/usr/bin/systemd-analyze"
    // Skipping when it is missing made the test pass on a bare machine without checking a thing.
    try #require(
      FileManager.default.isExecutableFile(atPath: analyze),
      "systemd-analyze is missing; Scripts/test installs Debian's systemd package for it")
    // Verified as installed, with ExecStart pointing at the binary just built.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let original = try String(contentsOf: Self.contrib.appendingPathComponent("stockroomd.service"), encoding: .utf8)
    let unit = folder.appendingPathComponent("stockroomd.service")
    try original.replacingOccurrences(of: "/usr/local/bin/stockroomd", with: DaemonProcess.binary.path)
      .write(to: unit, atomically: true, encoding: .utf8)
    let output = folder.appendingPathComponent("out").path
    let status = try Subprocess.run(
      analyze, ["verify", "--man=no", unit.path],
      environment: ["PATH": "/usr/bin:/bin", "SYSTEMD_LOG_LEVEL": "notice"],
      stdout: output, stderr: output)
    let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    // It exits non-zero for a unit it cannot load or run (a bad directive, a command that is
    // not there); warnings it only prints about the unit fail the test too. A missing user on
    // this machine is no fault of the unit: verify only warns of it.
    #expect(status == 0, "systemd-analyze verify exited \(status): \(said)")
    let about = said.split(separator: "\n").filter { $0.contains("stockroomd.service") && !$0.contains("User") }
    #expect(about.isEmpty, "\(said)")
  }
}
