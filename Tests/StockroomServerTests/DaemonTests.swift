import Foundation
import StockroomProtocol
import StockroomSecurity
import StockroomServer
import Testing

@Suite("stockroomd as a process", .timeLimit(.minutes(30)))
struct DaemonTests {
  @Test("--help prints usage and exits 0")
  func help() throws {
    let daemon = try DaemonProcess(["--help"])
    #expect(try daemon.waitForExit() == 0)
    let usage = daemon.standardOutput(showing: "--max-clients")
    for flag in ["--host", "--port", "--initial-stock", "--catalog", "--max-line", "--max-clients"] {
      #expect(usage.contains(flag), "usage lacks \(flag)")
    }
  }

  /// The names of the process's threads, as top -H shows them.
  private func threadNames(_ daemon: DaemonProcess) -> [String] {
    let tasks = "/proc/\(daemon.process.processIdentifier)/task"
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    return ids.compactMap { id in
      (try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }.sorted()
  }

  @Test("--loops N serves clients from N named event-loop threads beside one committer")
  func eventLoops() throws {
    let data = try DataDirectory()
    let (daemon, port) = try data.start(["--loops", "3", "--io", "epoll"])
    let names = threadNames(daemon)
    #expect(names.filter { $0.hasPrefix("sr-loop-") } == ["sr-loop-0", "sr-loop-1", "sr-loop-2"], "\(names)")
    #expect(names.filter { $0 == "sr-committer" }.count == 1, "\(names)")
    // Connections are dealt round the loops; every one of them answers.
    let clients = try (0..<6).map { _ in try LineClient(port: port) }
    for (index, client) in clients.enumerated() {
      _ = try client.readReply()
      #expect(try client.request("PING \(index)").message == "\(index)")
    }

    let memory = try DaemonProcess(["--port", "0", "--memory", "--loops", "2", "--io", "epoll"])
    _ = try memory.port()
    let memoryNames = threadNames(memory)
    #expect(memoryNames.filter { $0.hasPrefix("sr-loop-") } == ["sr-loop-0", "sr-loop-1"], "\(memoryNames)")
    #expect(!memoryNames.contains("sr-committer"), "a shop in memory has nothing to commit")

    let refused = try DaemonProcess(["--port", "0", "--memory", "--loops", "0"])
    #expect(try refused.waitForExit() != 0)
    #expect(refused.logShows("--loops takes a whole number from 1 to 256"))
  }

  @Test("an unknown option is refused in one line that points to --help, exit 64")
  func badOption() throws {
    let daemon = try DaemonProcess(["--frobnicate"])
    #expect(try daemon.waitForExit() == 64)
    #expect(daemon.logShows("stockroomd: unknown option '--frobnicate'; see --help\n"))
    #expect(daemon.log == "stockroomd: unknown option '--frobnicate'; see --help\n", "not the whole usage")
    let badValue = try DaemonProcess(["--loops", "0"])
    #expect(try badValue.waitForExit() == 64)
    #expect(badValue.logShows("; see --help\n"))
    #expect(badValue.log.split(separator: "\n").count == 1, "\(badValue.log)")
  }

  @Test("--version prints the release and protocol and exits 0; -p is --port")
  func versionAndShortPort() throws {
    let version = try DaemonProcess(["--version"])
    #expect(try version.waitForExit() == 0)
    let line = "stockroomd \(ProtocolVersion.serverVersion) protocol=\(ProtocolVersion.current)\n"
    #expect(version.standardOutput(showing: "\n") == line)
    #expect(line == "stockroomd 0.1.0 protocol=2\n")
    #expect(try ServerConfiguration.parse(["-p", "8123"]) == ServerConfiguration.parse(["--port", "8123"]))
    guard case .run(let short) = try ServerConfiguration.parse(["-p", "8123"]) else {
      Issue.record("-p did not parse")
      return
    }
    #expect(short.port == 8123)
    let daemon = try DaemonProcess(["-p", "0", "--memory"])
    let port = try daemon.port()
    let client = try LineClient(port: port)
    #expect(try client.readReply().message.contains("protocol=2"))
  }

  @Test("--password-memory and --password-passes set the hash cost, default libsodium's interactive, and refuse 0")
  func passwordCostOptions() throws {
    guard case .run(let defaults) = try ServerConfiguration.parse([]),
      case .run(let set) = try ServerConfiguration.parse(["--password-memory", "16", "--password-passes", "4"])
    else {
      Issue.record("the options did not parse")
      return
    }
    #expect(defaults.passwordCost == .interactive)
    #expect(set.passwordCost == PasswordCost(memoryMiB: 16, passes: 4))
    for words in [["--password-memory", "0"], ["--password-memory", "4097"], ["--password-passes", "0"]] {
      #expect(throws: ServerConfiguration.UsageError.self) { try ServerConfiguration.parse(words) }
    }
    // The default says its cost in the security line, with no warning.
    let daemon = try DaemonProcess(["--port", "0", "--memory"])
    _ = try daemon.port()
    let log = try daemon.logThroughStop()
    #expect(log.contains("passwords=argon2id password_cost=64MiB,2 "))
    #expect(!log.contains("password hashes cost"))
  }

  @Test("a bad catalogue is refused at start-up, naming the file, the key and the problem")
  func badCatalogue() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var json =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestServer.catalogPath)))
      as! [String: Any]
    var dishes = json["dishes"] as! [[String: Any]]
    dishes[1]["section"] = "desserts"
    json["dishes"] = dishes
    let file = directory.appendingPathComponent("bad.json")
    try JSONSerialization.data(withJSONObject: json).write(to: file)
    let daemon = try DaemonProcess(["--port", "0", "--memory", "--catalog", file.path])
    #expect(try daemon.waitForExit() != 0)
    #expect(daemon.logShows(file.path))
    #expect(daemon.logShows("dishes[1].section"))
    #expect(daemon.logShows("desserts"))

    try Data("{ \"format\": 1,\n  nope }".utf8).write(to: file)
    let broken = try DaemonProcess(["--port", "0", "--memory", "--catalog", file.path])
    #expect(try broken.waitForExit() != 0)
    #expect(broken.logShows("line 2"), "\(broken.log)")
  }

  @Test("it logs start, connect, disconnect and stop, each line timestamped, and stops cleanly on SIGTERM")
  func logsAndSignals() throws {
    let daemon = try DaemonProcess(["--port", "0", "--memory", "--initial-stock", "42"])
    let port = try daemon.port()
    let client = try LineClient(port: port)
    _ = try client.readReply()
    #expect(try client.request("STOCK kiwi").rows[0]["stock"] == "42")
    try client.send("QUIT\n")
    _ = try client.readsToEnd()
    try waitUntil { daemon.log.contains("disconnect") }
    daemon.process.terminate()
    #expect(try daemon.waitForExit() == 0)
    #expect(daemon.logShows(" INFO stop "))
    let lines = daemon.log.split(separator: "\n")
    for event in ["start", "connect", "disconnect", "stop"] {
      #expect(lines.contains { $0.contains(" INFO \(event) ") }, "no \(event) line in \(daemon.log)")
    }
    #expect(
      lines.allSatisfy { $0.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z (INFO|WARN|ERROR) .+/) != nil })
  }

  @Test("--quiet --port 0 logs nothing but still says, on stdout, the port the system picked")
  func quietSaysThePickedPort() throws {
    let daemon = try DaemonProcess(["--port", "0", "--memory", "--quiet"])
    let printed = daemon.standardOutput(showing: "\n")
    let match = try #require(printed.firstMatch(of: /^stockroomd: listening on 127\.0\.0\.1:(\d+)\n$/), "\(printed)")
    let client = try LineClient(port: try #require(UInt16(match.1)))
    _ = try client.readReply()
    #expect(try client.request("PING").isOK)
    #expect(!daemon.log.contains(" INFO "), "\(daemon.log)")
  }

  @Test("it stops on SIGINT too, closing open connections")
  func interrupt() throws {
    let daemon = try DaemonProcess(["--port", "0", "--memory"])
    let client = try LineClient(port: try daemon.port())
    _ = try client.readReply()
    daemon.process.interrupt()
    #expect(try daemon.waitForExit() == 0)
    #expect(try client.readsToEnd().isEmpty)
  }
}
