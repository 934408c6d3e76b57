import Foundation
import StockroomTestSupport
import Testing

/// The redis-cli and psql habits a script uses: a URL, -r/-i, --csv, and the config file.
@Suite("URL, -r/-i, --csv and the config file, through the real binary and a real server", .timeLimit(.minutes(30)))
struct ScriptingHabitsTests {
  @Test("stockroom://alice@127.0.0.1:PORT connects and logs in as alice")
  func connectionURL() throws {
    let server = try ShopServer()
    try server.register("alice")
    let result = try ClientProcess.run(
      ["stockroom://alice@127.0.0.1:\(server.port)", "WHOAMI"],
      environment: ["STOCKROOM_PASSWORD": ShopServer.password])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.contains("alice"), "\(result.output)")
  }

  @Test("a one-shot line with an unbalanced quote gets the server's word on it, not 'unknown command'")
  func unbalancedQuote() throws {
    let server = try ShopServer()
    let result = try ClientProcess.run(["-p", "\(server.port)", #"DIARY NEW "my title"#])
    #expect(result.status == 1)
    let said = result.output + result.error
    #expect(said.contains("unbalanced quote"), "\(said)")
    #expect(!said.contains("unknown command"), "\(said)")
  }

  @Test("-r 3 -i 0.3 runs the command three times on one connection, waiting between runs")
  func repeatWithInterval() throws {
    let server = try ShopServer()
    let started = ContinuousClock.now
    let result = try ClientProcess.run(["-p", "\(server.port)", "-r", "3", "-i", "0.3", "ORDER", "banana_juice"])
    let elapsed = ContinuousClock.now - started
    #expect(result.status == 0, "\(result.error)")
    #expect(result.lines.filter { $0.hasPrefix("OK order=") } == ["OK order=1", "OK order=2", "OK order=3"])
    // Only a floor, on the monotonic clock: the two waits cannot be shorter however busy the
    // machine is, while any ceiling would be a guess at its load.
    #expect(elapsed >= .milliseconds(600), "two waits of 0.3 s took \(elapsed)")
    let info = try ClientProcess.run(["-p", "\(server.port)", "INFO"])
    #expect(info.output.contains("connections_total=2"), "one connection for all three runs: \(info.output)")
    // An ERR among the runs: all still run, and the exit is 1.
    let failing = try ClientProcess.run(["-p", "\(server.port)", "-r", "2", "ORDER", "nope"])
    #expect(failing.status == 1)
    #expect(failing.lines.filter { $0.hasPrefix("ERR NOTFOUND") }.count == 2)
    let bad = try ClientProcess.run(["-r", "2"])
    #expect(bad.status == 64)
    #expect(bad.error.contains("-r repeats a command"), "\(bad.error)")
  }

  @Test("-r -1 repeats until interrupted")
  func repeatForever() throws {
    let server = try ShopServer()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-forever-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out").path
    // `timeout` ends it: the runs go on well past any fixed count until then.
    let status = try Subprocess.run(
      "/usr/bin/timeout", ["1", try ClientProcess.binary(), "-p", "\(server.port)", "-r", "-1", "-i", "0.01", "PING"],
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], stdout: output)
    #expect(status == 124, "timeout's status for a command it had to stop")
    let pongs = try String(contentsOfFile: output, encoding: .utf8).components(separatedBy: "OK PONG").count - 1
    #expect(pongs > 10, "only \(pongs) runs in a second")
  }

  @Test("--csv: a header from the row keys, RFC 4180 quoting, ERR on stderr")
  func csv() throws {
    let server = try ShopServer()
    try server.register("alice")
    let environment = ["STOCKROOM_PASSWORD": ShopServer.password]
    let new = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "alice", "DIARY", "NEW", "Market, \"big\" day", "Sold out"],
      environment: environment)
    #expect(new.status == 0, "\(new.output)\(new.error)")
    let list = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "alice", "--csv", "DIARY", "LIST"], environment: environment)
    #expect(list.status == 0)
    #expect(list.lines.first == "id,kind,title,preview,created,updated", "\(list.output)")
    #expect(list.lines.dropFirst().first?.hasPrefix("1,diary,\"Market, \"\"big\"\" day\",Sold out,20") == true)
    #expect(list.lines.count == 2)
    let stock = try ClientProcess.run(["-p", "\(server.port)", "--csv", "STOCK", "kiwi", "banana"])
    #expect(stock.lines == ["id,kind,stock,initial", "kiwi,fruit,10,10", "banana,fruit,10,10"])
    let error = try ClientProcess.run(["-p", "\(server.port)", "--csv", "STOCK", "nope"])
    #expect(error.status == 1)
    #expect(error.output.isEmpty)
    #expect(error.error.hasPrefix("ERR NOTFOUND"))
  }

  @Test("the config file sets host, port and user; the environment and flags win; mistakes name the line")
  func configFile() throws {
    let server = try ShopServer()
    try server.register("alice")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-xdg-\(UUID())")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("stockroom"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("stockroom/config").path
    try "# test shop\nhost = 127.0.0.1\nport = \(server.port)\nuser = alice\ncolor = off\n"
      .write(toFile: file, atomically: true, encoding: .utf8)
    var environment = ["XDG_CONFIG_HOME": folder.path, "STOCKROOM_PASSWORD": ShopServer.password]
    let configured = try ClientProcess.run(["WHOAMI"], environment: environment)
    #expect(configured.status == 0, "\(configured.error)")
    #expect(configured.output.contains("alice"), "\(configured.output)")
    // The environment beats the file: a port where nothing listens.
    let unused: UInt16
    do {
      let other = try ShopServer()
      unused = other.port
      other.server.stop()
    }
    environment["STOCKROOM_PORT"] = "\(unused)"
    let overridden = try ClientProcess.run(["PING"], environment: environment)
    #expect(overridden.status == 2, "\(overridden.output)")
    // And the flag beats the environment.
    let flagged = try ClientProcess.run(["-p", "\(server.port)", "PING"], environment: environment)
    #expect(flagged.status == 0, "\(flagged.error)")

    try "host = 127.0.0.1\npassword = hunter2\n".write(toFile: file, atomically: true, encoding: .utf8)
    let refused = try ClientProcess.run(["PING"], environment: environment)
    #expect(refused.status == 78)
    #expect(refused.error.hasPrefix("stockroom: \(file):2: a password does not belong"), "\(refused.error)")
    #expect(refused.error.contains("--password-file"))
    #expect(!refused.error.contains("hunter2"))
    try "prot = 7878\n".write(toFile: file, atomically: true, encoding: .utf8)
    let unknown = try ClientProcess.run(["PING"], environment: environment)
    #expect(unknown.error.contains("\(file):1: unknown key 'prot'"), "\(unknown.error)")
    // --help still works with a broken file: it may be how to find out what to write.
    let help = try ClientProcess.run(["--help"], environment: environment)
    #expect(help.status == 0)
  }

  @Test("--help lists every new option")
  func helpListsOptions() throws {
    let help = try ClientProcess.run(["--help"])
    for flag in ["stockroom://", "-r N", "-i SECONDS", "--csv", "--no-pager", ".config/stockroom/config"] {
      #expect(help.output.contains(flag), "\(flag) missing from --help")
    }
  }
}
