import Foundation
import StockroomProtocol
import StockroomSecurity
import StockroomStorage
import Testing

@testable import StockroomEngineHarness

#if canImport(Glibc)
  import Glibc
#endif

/// Logging in against a real `stockroomd`: what is stored, what is logged, how guessing is
/// slowed, and what survives a restart and a backup.
@Suite("Logging in: secrets, throttling, restarts and protected mode", .timeLimit(.minutes(30)))
struct LoginTests {
  private static func quoted(_ text: String) -> String { Quoting.quote(text) }

  @Test("no password reaches the database file or the log; the stored hash is Argon2id and verifies")
  func noSecretStored() throws {
    let data = try DataDirectory().addAccount()
    let (daemon, port) = try data.start()
    defer { daemon.process.terminate() }
    let first = "first-secret-passphrase"
    let second = "second-secret-passphrase"
    let third = "third-secret-passphrase"
    let wrong = "wrong-secret-passphrase"
    let client = try LineClient.greeted(port)
    #expect(try client.request("REGISTER erin \(first)").isOK)
    #expect(try client.request("PASSWD \(first) \(second)").message == "password changed")
    #expect(try client.request("PASSWD \(wrong) \(third)").errorCode == .auth)
    #expect(try LineClient.greeted(port).request("LOGIN erin \(wrong)").errorCode == .auth)
    #expect(try LineClient.greeted(port).request("LOGIN erin \(first)").errorCode == .auth, "the old one is gone")
    #expect(try LineClient.greeted(port).request("LOGIN erin \(second)").isOK)
    let admin = try LineClient.greeted(port, user: "admin", role: .customer)
    #expect(try admin.request("USER PASSWD erin \(third)").isOK)
    #expect(try LineClient.greeted(port).request("LOGIN erin \(third)").isOK)
    let log = try daemon.logThroughStop()
    #expect(try daemon.waitForExit() == 0)

    var stored = Data()
    for suffix in ["", "-wal", "-shm"] {
      stored += (try? Data(contentsOf: URL(fileURLWithPath: data.database + suffix))) ?? Data()
    }
    for secret in [first, second, third, wrong, LineClient.password(for: "admin")] {
      #expect(stored.range(of: Data(secret.utf8)) == nil, "a password is in the database files")
      // A Bool first: a failed #expect prints the values of what it was given, and this one
      // would print the password and the whole log.
      let inLog = log.contains(secret)
      #expect(!inLog, "a password is in the log")
    }
    let requestLogged = log.contains("LOGIN") || log.contains("PASSWD")
    #expect(!requestLogged, "no request line is logged")
    #expect(log.contains("login user=erin"), "the log has the logins, without their secrets")
    let hash = try #require(
      try SQLiteDatabase(path: data.database, readOnly: true).prepare("SELECT hash FROM accounts WHERE name = 'erin'")
        .rows { $0.text(0) }.first)
    #expect(hash.hasPrefix("$argon2id$"))
    // The test's daemon hashes at the least cost (`DataDirectory.leastPasswordCost`), and says so.
    #expect(hash.contains("$m=1024,t=1,p=1$"))
    #expect(log.contains("password_cost=1MiB,1 "))
    #expect(log.contains("password hashes cost 1MiB,1 (--password-memory, --password-passes), below libsodium's"))
    let hashLogged = log.contains(hash)
    #expect(!hashLogged, "the hash is in the log")
    #expect(PasswordHash.verify(hash, Password(third)))
    #expect(!PasswordHash.verify(hash, Password(second)))
  }

  @Test("a wrong name and a wrong password get the same answer; each failure slows the next; the fifth closes")
  func failuresAreSlowedAndAlike() throws {
    let server = try EngineHarness()
    try server.account("frank", role: .customer)
    let client = try server.client()
    let unknownName = try client.request("LOGIN nobody-at-all some-password")
    let wrongPassword = try client.request("LOGIN frank some-password")
    #expect(unknownName.errorCode == .auth && wrongPassword.errorCode == .auth)
    #expect(unknownName.lines == wrongPassword.lines, "names cannot be told from passwords")
    // Two failures so far: the third attempt waits 500 ms before it is even checked, and the
    // fourth 1 s (the connection's own failures double the wait).
    try client.send("LOGIN frank still-wrong\n")
    try Self.expectHeld(client, server, for: .milliseconds(500))
    #expect(try client.readReply().errorCode == .auth)
    try client.send("LOGIN frank still-wrong\n")
    try Self.expectHeld(client, server, for: .seconds(1))
    #expect(try client.readReply().errorCode == .auth)
    try client.send("LOGIN frank still-wrong\n")
    try Self.expectHeld(client, server, for: .seconds(2))
    let last = try client.readReply()
    #expect(last.errorCode == .auth && last.message.contains("closing the connection"), "\(last.lines)")
    #expect(try client.readsToEnd().isEmpty, "closed after the fifth failure")
    let info = try server.client().request("INFO").rows[0]
    #expect(info["failed_logins"] == "5")
    // The name stays slowed on a fresh connection, and a right password still gets in.
    let fresh = try server.client()
    try fresh.send("LOGIN frank \(Self.quoted(LineClient.password(for: "frank")))\n")
    // frank's four failures from this address put his next try 2 s after the last failure,
    // which is now.
    try Self.expectHeld(fresh, server, for: .seconds(2), "frank's failures slow every connection's try")
    #expect(try fresh.readReply().isOK)
    #expect(try server.client().request("INFO").rows[0]["throttled_names"] == "1", "only nobody-at-all is left")
  }

  /// `client`'s request is not answered until the engine's clock has moved on by `wait`: a
  /// nanosecond short of it, the check is still on the clock's timer and nothing is answered;
  /// at `wait` it goes to the password pool (`readReply` then waits for its answer).
  private static func expectHeld(
    _ client: LineClient, _ engine: EngineHarness, for wait: Duration, _ why: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let channel = try #require(client.embedded)
    #expect(channel.readNow().isEmpty, why ?? "answered without a wait", sourceLocation: sourceLocation)
    #expect(engine.clock.scheduled == 1, "no wait was scheduled", sourceLocation: sourceLocation)
    engine.advance(by: wait - .nanoseconds(1))
    #expect(engine.clock.scheduled == 1, why ?? "the wait was shorter than \(wait)", sourceLocation: sourceLocation)
    #expect(channel.readNow().isEmpty, why ?? "answered before its wait of \(wait)", sourceLocation: sourceLocation)
    engine.advance(by: .nanoseconds(1))
    #expect(engine.clock.scheduled == 0, "the wait was longer than \(wait)", sourceLocation: sourceLocation)
  }

  @Test("a flood of logins waits on the password pool while orders on other connections are answered")
  func loginFloodDoesNotStallOrders() throws {
    // A real server: harness connections have no socket (fd -1), and poll() on one reports
    // nothing readable, so a harness would count every login as waiting.
    let server = try TestServer(initialStock: 1_000)
    let flood = try (0..<40).map { _ in try LineClient.greeted(server.port) }
    for (index, client) in flood.enumerated() { try client.send("LOGIN flood\(index) some-password\n") }
    let buyer = try LineClient.greeted(server.port)
    for _ in 0..<20 { #expect(try buyer.request("ORDER kiwi").isOK) }
    // Forty Argon2id checks take seconds on two threads; twenty orders took far less, so some
    // logins must still be waiting when the last order was answered.
    var waiting = 0
    for client in flood {
      #expect(client.fd >= 0)
      var readable = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
      if poll(&readable, 1, 0) == 0 { waiting += 1 }
    }
    #expect(waiting > 0, "every login was answered before twenty orders were")
    for client in flood {
      let reply = try client.readReply()
      #expect(reply.errorCode == .auth || reply.errorCode == .limit, "\(reply.lines)")
    }
  }

  @Test("accounts and diary numbers survive a restart and a backup restored elsewhere")
  func accountsSurvive() throws {
    let data = try DataDirectory()
    // Each block is one run of the engine on the file; leaving it stops the committer, as a
    // server's stop does, so the next block is a restart.
    do {
      let gina = try EngineHarness(data: data).client()
      #expect(try gina.request("REGISTER gina gina-passphrase").isOK)
      #expect(try gina.request("DIARY NEW one body").isOK)
      #expect(try gina.request("DIARY NEW two body").isOK)
      #expect(try gina.request("DIARY DELETE 2").isOK)
    }
    do {
      let client = try EngineHarness(data: data).client()
      #expect(try client.request("LOGIN gina gina-passphrase").message == "login gina role=customer")
      #expect(try client.request("DIARY NEW three body").statusFields["diary"] == "3", "number 2 is not given again")
    }
    let backupFile = data.path + "/copy.sqlite"
    data.waitUntilUnlocked()
    #expect(try DaemonProcess(["backup", data.path, backupFile]).waitForExit() == 0)

    let restored = try DataDirectory()
    try FileManager.default.copyItem(atPath: backupFile, toPath: restored.database)
    let client = try EngineHarness(data: restored).client()
    #expect(try client.request("LOGIN gina gina-passphrase").isOK)
    #expect(try client.request("DIARY LIST").rows.map(\.id) == ["3", "1"])
    #expect(try client.request("REGISTER gina other-passphrase").errorCode == .exists)
  }

  @Test("protected mode: a server other machines could reach refuses to start without an admin")
  func protectedMode() throws {
    let data = try DataDirectory()
    // Refused before it binds anything: nothing listens on another address, even for a moment.
    let open = try DaemonProcess(["--host", "0.0.0.0", "--port", "0", "--data", data.path])
    #expect(try open.waitForExit() == 65)
    #expect(open.logShows("no admin account (protected mode)"), "\(open.log)")
    #expect(open.logShows("stockroomd user add NAME --role admin --data \(data.path)"))
    let memory = try DaemonProcess(["--host", "0.0.0.0", "--port", "0", "--memory"])
    #expect(try memory.waitForExit() == 65)
    // With an admin it goes on to listen: on an address this machine lacks (TEST-NET-1), which fails.
    try data.addAccount()
    let protected = try DaemonProcess(["--host", "192.0.2.1", "--port", "0", "--data", data.path])
    #expect(try protected.waitForExit() == 69)
    #expect(protected.logShows("security bind=192.0.2.1 reachable=network registration=open accounts=1 admins=1"))
    #expect(protected.logShows("cannot listen on 192.0.2.1"), "\(protected.log)")
    // Loopback needs no admin; the log says so.
    let local = try DataDirectory()
    let (daemon, _) = try local.start()
    defer { daemon.process.terminate() }
    #expect(daemon.logShows("security bind=127.0.0.1 reachable=this-machine registration=open accounts=0 admins=0"))
  }
}
