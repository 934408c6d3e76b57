import Foundation
import StockroomDaemon
import StockroomTestSupport
import StockroomTransport
import Testing

@testable import StockroomServer

@Suite("The config file and --check-config", .timeLimit(.minutes(30)))
struct ConfigFileTests {
  /// A config file with `text`, removed afterwards.
  final class ConfigText: @unchecked Sendable {
    let path: String
    init(_ text: String) throws {
      path = FileManager.default.temporaryDirectory.appendingPathComponent("stockroomd-\(UUID().uuidString).conf").path
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  private func configuration(_ words: [String], file: ConfigText? = nil, environment: [String: String] = [:]) throws
    -> ServerConfiguration
  {
    let arguments = file.map { ["--config", $0.path] + words } ?? words
    guard
      case .run(let configuration) = try ServerConfiguration.parse(
        arguments, environment: environment, defaultConfigFile: nil)
    else {
      throw LineClient.Failure(description: "not a run")
    }
    return configuration
  }

  private func refusal(_ words: [String], file: ConfigText? = nil) -> String {
    let arguments = file.map { ["--config", $0.path] + words } ?? words
    do {
      _ = try ServerConfiguration.parse(arguments, defaultConfigFile: nil)
      return ""
    } catch {
      return error.message
    }
  }

  @Test("every key of the file sets what its option sets, and the command line wins over the file")
  func keysAndPrecedence() throws {
    let file = try ConfigText(
      """
      # a shop on the LAN
      host = 0.0.0.0
        port=8000
      max-clients = 50
      data = "/var/lib/stock room"
      fsync = batch
      fsync-interval = 250
      registration = closed
      quiet = yes
      insecure-permissions = no
      http = [::1]:9187
      log-format = json
      log-file = /var/log/stockroom.log\r
      timeout = 60

      """)
    let configured = try configuration([], file: file)
    #expect(configured.host == "0.0.0.0")
    #expect(configured.port == 8000)
    #expect(configured.maxClients == 50)
    #expect(configured.dataDirectory == "/var/lib/stock room")
    #expect(configured.fsync == .batch(milliseconds: 250))
    #expect(configured.registration == .closed)
    #expect(configured.logging == false)
    #expect(configured.insecurePermissions == false)
    #expect(configured.http == ListenAddress(host: "::1", port: 9187))
    #expect(configured.logFormat == .json)
    #expect(configured.logFile == "/var/log/stockroom.log")
    #expect(configured.idleTimeout == 60)
    #expect(configured.configFile == file.path)
    // The board's key, a port alone meaning loopback's, and its names switch.
    let board = try configuration([], file: try ConfigText("http = 9188\nhttp-names = yes\n"))
    #expect(board.http == ListenAddress(host: "127.0.0.1", port: 9188))
    #expect(board.httpNames)
    #expect(try configuration(["--http", "[::1]:0"], file: file).http == ListenAddress(host: "::1", port: 0))
    let overridden = try configuration(["-p", "9000", "--fsync", "always", "--memory"], file: file)
    #expect(overridden.port == 9000)
    #expect(overridden.fsync == .always)
    #expect(overridden.dataDirectory == nil, "--memory on the command line beats data= in the file")
    #expect(overridden.maxClients == 50, "what the command line does not say comes from the file")
    // The environment sits between the file and the command line.
    let environment = ["STOCKROOM_STORE": "postgresql://shop@127.0.0.1:5432/shop"]
    #expect(try configuration([], file: file, environment: environment).store == environment["STOCKROOM_STORE"])
    #expect(try configuration(["--data", "here"], file: file, environment: environment).store == nil)
    let io = ["STOCKROOM_IO": "dispatch"]
    #expect(try configuration([], file: file, environment: io).io == .dispatch)
    #expect(try configuration(["--io", "epoll"], file: file, environment: io).io == .epoll)
    #expect(throws: ServerConfiguration.UsageError.self) {
      try configuration([], file: file, environment: ["STOCKROOM_IO": "kqueue"])
    }
  }

  @Test("the file's keys are the command line's options, from one table")
  func oneTable() throws {
    let keys = ServerOptions.all.filter(\.isKey)
    #expect(keys.count >= 25)
    // TLS's options make sense only with a readable certificate and its key beside them
    // (OptionSettings.finish), so each comes with the others it needs, in both places.
    let certificates = try TestCertificates.shared()
    let tlsFiles = [
      "tls-cert": certificates.serverCertificate, "tls-key": certificates.serverKey, "tls-ca": certificates.ca,
    ]
    // Each option parses the same from the file as from the command line.
    for option in keys {
      let value: String
      switch option.action {
      case .flag: value = "yes"
      case .value(let placeholder, _):
        value =
          switch placeholder {
          case "ADDRESS": "127.0.0.1"
          case "ADDRESS:PORT": "127.0.0.1:9100"
          case "MODE": ["fsync": "off", "reads": "cached"][option.name] ?? "closed"
          case "FORMAT": "json"
          case "BACKEND": "dispatch"
          case "URL": "postgresql://shop@127.0.0.1:5432/shop"
          case "FILE", "DIR": tlsFiles[option.name] ?? "/tmp/x"
          // The passes over a password hash stop at 32; every other number takes 100.
          default: option.name == "password-passes" ? "8" : "100"
          }
      case .command: continue
      }
      let companions =
        option.name.hasPrefix("tls-")
        ? ["tls-cert", "tls-key"].filter { $0 != option.name }.map { ($0, tlsFiles[$0] ?? "") } : []
      let file = try ConfigText(
        "\(option.name) = \(value)\n" + companions.map { "\($0.0) = \($0.1)\n" }.joined())
      var line: [String]
      if case .flag = option.action { line = ["--\(option.name)"] } else { line = ["--\(option.name)", value] }
      line += companions.flatMap { ["--\($0.0)", $0.1] }
      #expect(
        try configuration([], file: file)
          == {
            var c = try configuration(line)
            c.configFile = file.path
            return c
          }(), "\(option.name)")
      #expect(ServerConfiguration.usage.contains(option.synopsis), "--help lacks \(option.synopsis)")
    }
    // Commands are the command line's alone.
    for name in ["config", "check-config", "help", "version"] {
      let file = try ConfigText("\(name) = yes\n")
      #expect(
        refusal([], file: file).hasSuffix(":1: \(name) is an option of the command line only, not a key"), "\(name)")
    }
  }

  @Test("unknown keys, bad values, repeats and stray lines are refused, each with the file and line, all at once")
  func refusals() throws {
    let file = try ConfigText(
      """
      port = 7878
      colour = blue
      max_clients = 10
      loops = 0
      port = 7879
      just some words
      quiet = maybe
      registration =
      looops = 1
      """)
    let message = refusal([], file: file)
    let lines = message.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "\(file.path):2: unknown key; the keys are the long options of stockroomd --help, without the dashes",
        "\(file.path):3: unknown key 'max_clients'; did you mean 'max-clients'?",
        "\(file.path):5: port is already set on line 1",
        "\(file.path):6: expected 'key = value'",
        "\(file.path):8: registration needs a value",
        "\(file.path):9: unknown key 'looops'; did you mean 'loops'?",
        "\(file.path):4: loops takes a whole number from 1 to 256, not '0'",
        "\(file.path):7: quiet takes yes or no, not 'maybe'",
      ], "\(message)")
    #expect(
      refusal(["--config", "/nonexistent/stockroomd.conf"]).hasPrefix(
        "cannot read config file /nonexistent/stockroomd.conf: "))
    // The command line's mistakes are named as it spelled them.
    #expect(refusal(["--loops", "0"]) == "--loops takes a whole number from 1 to 256, not '0'")
    #expect(refusal(["-p", "x"]) == "-p takes a whole number from 0 to 65535, not 'x'")
    #expect(refusal(["--http", "localhost"]).hasPrefix("--http takes ADDRESS:PORT"))
    #expect(refusal(["--log-format", "xml"]) == "--log-format takes text or json, not 'xml'")
  }

  @Test("a value that may be a secret is never repeated in an error, nor is a line that is not key = value")
  func secretsNotEchoed() throws {
    let secret = "hunter2-\(UUID().uuidString.prefix(6))"
    let file = try ConfigText(
      "store = postgresql://shop:\(secret)@[bad host/db?x=\"\(secret)\n\(secret)\nstore=\(secret)\n\(secret)=x\n")
    let message = refusal([], file: file)
    #expect(!message.isEmpty)
    // Bools first, and the text shown with the secret masked: a failure must not print it.
    let inMessage = message.contains(secret)
    #expect(!inMessage, "\(message.replacingOccurrences(of: secret, with: "<secret>"))")
    let command = refusal(["--store", "host='\(secret)"])
    let inCommand = command.contains(secret)
    #expect(!command.isEmpty && !inCommand, "\(command.replacingOccurrences(of: secret, with: "<secret>"))")
  }

  @Test("the default file is read only when it exists")
  func defaultFile() throws {
    let file = try ConfigText("port = 8123\n")
    guard case .run(let found) = try ServerConfiguration.parse([], defaultConfigFile: file.path) else {
      Issue.record("not a run")
      return
    }
    #expect(found.port == 8123)
    guard case .run(let none) = try ServerConfiguration.parse([], defaultConfigFile: file.path + ".missing") else {
      Issue.record("not a run")
      return
    }
    #expect(none.port == 7878)
    #expect(none.configFile == nil)
  }

  @Test(
    "--check-config says what it found in one line and exits 0, or lists the problems and exits 78, serving nothing")
  func checkConfig() throws {
    let data = try DataDirectory()
    let file = try ConfigText("data = \(data.path)\nport = 0\nhttp = 127.0.0.1:0\nlog-format = json\n")
    // Its stderr in a file, so that once it has exited no warning can still be on its way.
    let good = try DaemonProcess(["--config", file.path, "--check-config"], errorToFile: true)
    #expect(try good.waitForExit() == 0, "\(good.log)")
    let summary = good.standardOutput(showing: "\n")
    #expect(
      summary.hasPrefix("stockroomd: configuration OK: config \(file.path), listen 127.0.0.1:0, catalogue shipped"))
    #expect(summary.contains("store sqlite \(data.database)"), "\(summary)")
    #expect(summary.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: data.database), "checking made the database")
    #expect(!good.log.contains("warning"), "\(good.log)")
    // A file anyone may change is worth a warning, not a refusal.
    try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file.path)
    let open = try DaemonProcess(["--config", file.path, "--check-config"])
    #expect(try open.waitForExit() == 0)
    #expect(open.logShows("warning: config file \(file.path) may be changed by other users (mode 666)"), "\(open.log)")

    let exposed = try DataDirectory()
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: exposed.path)
    let catalog = try ConfigText("{ not json")
    let bad = try DaemonProcess(["--check-config", "--data", exposed.path, "--catalog", catalog.path])
    #expect(try bad.waitForExit() == 78)
    #expect(bad.logShows("configuration has 2 problem(s)"), "\(bad.log)")
    #expect(bad.log.contains("catalogue \(catalog.path)"), "\(bad.log)")
    #expect(bad.log.contains("chmod 700"), "\(bad.log)")

    let missing = try DaemonProcess([
      "--check-config", "--data", "/proc/nowhere/data", "--log-file", "/proc/nowhere/log",
    ])
    #expect(try missing.waitForExit() == 78)
    #expect(missing.logShows("configuration has 2 problem(s)"), "\(missing.log)")

    let colour = try ConfigText("colour = red\n")
    let unknown = try DaemonProcess(["--check-config", "--config", colour.path])
    #expect(try unknown.waitForExit() == 64)
    #expect(unknown.logShows(":1: unknown key; "))
  }
}
