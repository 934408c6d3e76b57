import Foundation
import Testing

@Suite("One-shot and piped modes against a real server", .timeLimit(.minutes(30)))
struct BatchModeTests {
  @Test("one command: its reply as raw lines, exit 0 on OK")
  func oneShotOK() throws {
    let server = try ShopServer()
    let result = try ClientProcess.run(["-p", "\(server.port)", "STOCK", "banana"])
    #expect(result.status == 0)
    #expect(result.lines == ["* banana kind=fruit stock=10 initial=10", "OK 1 item"])
    #expect(result.error.isEmpty)
  }

  @Test("one command that fails: the ERR line and exit 1")
  func oneShotError() throws {
    let server = try ShopServer()
    let result = try ClientProcess.run(["-p", "\(server.port)", "ORDER", "no_such_thing"])
    #expect(result.status == 1)
    #expect(result.lines.count == 1)
    #expect(result.lines.first?.hasPrefix("ERR NOTFOUND ") == true)
  }

  @Test("one quoted argument with spaces is a request line, as in redis-cli; several keep each word whole")
  func oneArgumentRequestLine() throws {
    let server = try ShopServer()
    let result = try ClientProcess.run(["-p", "\(server.port)", "STOCK kiwi"])
    #expect(result.status == 0, "\(result.output)")
    #expect(result.lines == ["* kiwi kind=fruit stock=10 initial=10", "OK 1 item"])
    // Quotes inside the one argument are the protocol's: the note keeps its spaces.
    try server.register("alice")
    let environment = ["STOCKROOM_PASSWORD": ShopServer.password]
    let diary = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "alice", #"  DIARY NEW "Market day" "Sold 딸기"  "#], environment: environment)
    #expect(diary.lines.last == "OK diary=1", "\(diary.output)")
    let list = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "alice", "DIARY", "LIST"], environment: environment)
    #expect(list.output.contains("title=\"Market day\" preview=\"Sold 딸기\""), "\(list.output)")
    // A line the Tokenizer refuses is one word as before, so a newline cannot start a second request.
    let smuggled = try ClientProcess.run(["-p", "\(server.port)", "STOCK kiwi\nORDER kiwi 1"])
    #expect(smuggled.status == 1)
    #expect(smuggled.lines.count == 1, "\(smuggled.output)")
    #expect(smuggled.lines.first?.hasPrefix("ERR ") == true)
    let stock = try ClientProcess.run(["-p", "\(server.port)", "STOCK", "kiwi"])
    #expect(stock.lines.first == "* kiwi kind=fruit stock=10 initial=10")
  }

  @Test("no server: a message on stderr and exit 2")
  func oneShotUnreachable() throws {
    let port: UInt16
    do {
      let server = try ShopServer()
      port = server.port
      server.server.stop()
    }
    let result = try ClientProcess.run(["-p", "\(port)", "PING"])
    #expect(result.status == 2)
    #expect(result.output.isEmpty)
    #expect(result.error.contains("cannot connect to 127.0.0.1:\(port)"))
  }

  @Test("STOCKROOM_HOST and STOCKROOM_PORT choose the server; words with spaces are quoted")
  func environmentAndQuoting() throws {
    let server = try ShopServer()
    try server.register("alice")
    let result = try ClientProcess.run(
      ["-u", "alice", "DIARY", "NEW", "Market day", "Sold 딸기"],
      environment: [
        "STOCKROOM_HOST": "127.0.0.1", "STOCKROOM_PORT": "\(server.port)", "STOCKROOM_PASSWORD": ShopServer.password,
      ])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.lines.last == "OK diary=1")
    let list = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "alice", "DIARY", "LIST"], environment: ["STOCKROOM_PASSWORD": ShopServer.password]
    )
    #expect(list.output.contains("title=\"Market day\" preview=\"Sold 딸기\""))
  }

  @Test("-u with STOCKROOM_PASSWORD: one command runs logged in, and only its reply is printed")
  func oneShotLoggedIn() throws {
    let server = try ShopServer()
    try server.register("alice")
    let environment = ["STOCKROOM_PASSWORD": ShopServer.password]
    let list = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "alice", "DIARY", "LIST"], environment: environment)
    #expect(list.status == 0, "\(list.error)")
    #expect(list.lines.last?.hasPrefix("OK ") == true, "\(list.output)")
    #expect(!list.output.contains("login"), "the LOGIN reply is not the command's: \(list.output)")
    #expect(list.error.isEmpty)
    let who = try ClientProcess.run(["-p", "\(server.port)", "-u", "alice", "WHOAMI"], environment: environment)
    #expect(who.lines == ["OK alice role=customer"])
    // The same command as a guest is refused: the login above is what let it through.
    let guest = try ClientProcess.run(["-p", "\(server.port)", "DIARY", "LIST"])
    #expect(guest.status == 1)
    #expect(guest.lines.first?.hasPrefix("ERR NOAUTH") == true, "\(guest.output)")
  }

  @Test("a wrong password: the server's error on stderr, nothing run, exit 1; piped mode too")
  func wrongPassword() throws {
    let server = try ShopServer()
    try server.register("alice")
    let wrong = ["STOCKROOM_PASSWORD": "not " + ShopServer.password]
    let once = try ClientProcess.run(["-p", "\(server.port)", "-u", "alice", "DIARY", "LIST"], environment: wrong)
    #expect(once.status == 1)
    #expect(once.output.isEmpty, "\(once.output)")
    #expect(once.error.contains("login as alice failed: ERR AUTH"), "\(once.error)")
    let piped = try ClientProcess.run(["-p", "\(server.port)", "-u", "alice"], input: "PING\n", environment: wrong)
    #expect(piped.status == 1)
    #expect(piped.output.isEmpty, "\(piped.output)")
    #expect(piped.error.contains("ERR AUTH"))
  }

  @Test("a -u name the server refuses stops the command: nothing runs as a guest, exit 1, with -e too")
  func refusedUserName() throws {
    let server = try ShopServer()
    let environment = ["STOCKROOM_PASSWORD": ShopServer.password]
    let once = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "kim minji", "DIARY", "NEW", "secret", "my private note"], environment: environment
    )
    #expect(once.status == 1)
    // Empty: not even the guest's ERR NOAUTH, so the command was never sent.
    #expect(once.output.isEmpty, "the command ran: \(once.output)")
    #expect(once.error.contains("login as kim minji failed"), "\(once.error)")
    let piped = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "kim minji", "-e"], input: #"DIARY NEW secret "my private note""# + "\n",
      environment: environment)
    #expect(piped.status == 1)
    #expect(piped.output.isEmpty, "the command ran: \(piped.output)")
    #expect(piped.error.contains("login as kim minji failed"), "\(piped.error)")
  }

  @Test("--password-file logs piped mode in; its first line is the password")
  func passwordFile() throws {
    let server = try ShopServer()
    try server.register("민지", password: "탁자 위의 사과")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-pwfile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("password").path
    _ = FileManager.default.createFile(
      atPath: path, contents: Data("탁자 위의 사과\n".utf8), attributes: [.posixPermissions: 0o600])
    let result = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "민지", "--password-file", path, "-e"], input: "WHOAMI\nDIARY LIST\n",
      environment: ["STOCKROOM_PASSWORD": "ignored: the file wins"])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.lines.first == "OK 민지 role=customer", "\(result.output)")
  }

  @Test("piped lines are all answered, in order; an ERR among them exits 1 only with -e")
  func pipedWithAndWithoutE() throws {
    let server = try ShopServer()
    let script = "STOCK banana\nORDER banana_juice\n\nORDER nothing_here\nSTOCK banana\n"
    let plain = try ClientProcess.run(["-p", "\(server.port)"], input: script)
    #expect(plain.status == 0)
    let statuses = plain.lines.filter { !$0.hasPrefix("* ") }
    #expect(statuses.count == 4)
    #expect(statuses[0] == "OK 1 item")
    #expect(statuses[1].hasPrefix("OK order="))
    #expect(statuses[2].hasPrefix("ERR NOTFOUND"))
    #expect(plain.lines.first == "* banana kind=fruit stock=10 initial=10")
    #expect(plain.lines.contains("* banana kind=fruit stock=8 initial=10"))

    let strict = try ClientProcess.run(["-p", "\(server.port)", "-e"], input: script)
    #expect(strict.status == 1)
    let clean = try ClientProcess.run(["-p", "\(server.port)", "-e"], input: "PING\nSTOCK kiwi\n")
    #expect(clean.status == 0)
    #expect(clean.lines == ["OK PONG", "* kiwi kind=fruit stock=10 initial=10", "OK 1 item"])
  }

  @Test("2000 lines on stdin are each answered, in order, with -e")
  func manyPipelined() throws {
    let server = try ShopServer()
    let count = 2000
    let script = (1...count).map { "PING n\($0)" }.joined(separator: "\n") + "\n"
    let result = try ClientProcess.run(["-p", "\(server.port)", "-e"], input: script)
    #expect(result.status == 0)
    #expect(result.lines.count == count)
    #expect(result.lines.first == "OK n1")
    #expect(result.lines.last == "OK n\(count)")
  }

  @Test("--json prints one parsable object per reply")
  func jsonMode() throws {
    let server = try ShopServer()
    let result = try ClientProcess.run(
      ["-p", "\(server.port)", "--json"], input: "LIST fruits\nSHOW nope\n")
    #expect(result.lines.count == 2)
    let objects = try result.lines.map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects[0]["status"] as? String == "OK")
    let rows = try #require(objects[0]["rows"] as? [[String: Any]])
    #expect(rows.count == 5)
    #expect(rows.first?["aliases"] as? String == "딸기")
    #expect(rows.first?["stock"] as? Int == 10)
    #expect(objects[1]["code"] as? String == "NOTFOUND")
  }

  @Test("--human tables without colour under NO_COLOR, --help, --version, and a bad option in one line")
  func humanAndHelp() throws {
    let server = try ShopServer()
    let human = try ClientProcess.run(
      ["-p", "\(server.port)", "--human", "LIST", "fruits"], environment: ["NO_COLOR": "1"])
    #expect(human.status == 0)
    #expect(human.lines.first?.hasPrefix("id ") == true)
    #expect(human.output.contains("██████████"))
    #expect(!human.output.contains("\u{1B}["))
    let help = try ClientProcess.run(["--help"])
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("usage: stockroom"))
    let bad = try ClientProcess.run(["--bogus"])
    #expect(bad.status == 64)
    #expect(bad.error == "stockroom: unknown option '--bogus'; see --help\n", "one line, not the usage")
    #expect(bad.output.isEmpty)
    let version = try ClientProcess.run(["--version"])
    #expect(version.status == 0)
    #expect(version.output == "stockroom 0.1.0 protocol=2\n")
  }
}
