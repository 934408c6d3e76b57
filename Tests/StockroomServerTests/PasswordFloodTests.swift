import Foundation
import StockroomEngine
import StockroomSystem
import StockroomTransport
import Synchronization
import Testing

@testable import StockroomEngineHarness
@testable import StockroomServer

/// A real user's LOGIN gets through a flood of password work from elsewhere, and wrong
/// passwords from one host do not lock the user out at another (issue 20, items 1 and 2).
/// Other loopback addresses (127.0.0.2 and up) stand for other hosts. Outcomes are counted: the
/// real user's logins succeed N of N while the attack runs, however long each takes.
@Suite("Password floods and lockouts cannot keep a real user out", .timeLimit(.minutes(30)))
struct PasswordFloodTests {
  static let attempts = 8

  /// Runs `attack` on `threads` threads until the real user is done (or 5,000 rounds each), and
  /// returns how many of the real user's `attempts` logins from `home` succeeded, the replies
  /// that were not `OK login`, and how many rounds the attack made.
  private func realUserLogins(
    _ server: TestServer, from home: String, threads: Int, until ready: () -> Bool = { true },
    between spacing: Int = 0, attack: @escaping @Sendable (Int, Int) throws -> Void
  ) throws -> (succeeded: Int, other: [String], rounds: Int) {
    let stop = Atomic<Bool>(false)
    let rounds = Atomic<Int>(0)
    let finished = DispatchGroup()
    for thread in 0..<threads {
      finished.enter()
      Thread {
        defer { finished.leave() }
        var round = 0
        while !stop.load(ordering: .relaxed) && round < 5_000 {
          try? attack(thread, round)
          round += 1
          rounds.add(1, ordering: .relaxed)
        }
      }.start()
    }
    defer {
      stop.store(true, ordering: .relaxed)
      finished.wait()
    }
    // The attack under way first: its password work fills the pool before the user comes.
    try waitUntil(timeout: 600) { rounds.load(ordering: .relaxed) >= threads * 2 && ready() }
    var succeeded = 0
    var other: [String] = []
    let pool = server.server.credentials
    for _ in 0..<Self.attempts {
      // A person logs in now and then, not in a loop: `spacing` checks of the flood's first.
      let checked = pool.counters.completed
      try waitUntil(timeout: 600) { pool.counters.completed >= checked + spacing }
      let user = try LineClient(port: server.port, receiveTimeout: 120, from: home)
      _ = try user.readReply()
      let reply = try user.request("LOGIN realuser \(LineClient.password(for: "realuser"))")
      if reply.message.hasPrefix("login realuser") { succeeded += 1 } else { other.append(reply.lines.joined()) }
      user.closeNow()
    }
    return (succeeded, other, rounds.load(ordering: .relaxed))
  }

  /// One connection, one `LOGIN` with a random name, closed without waiting for the answer.
  private static func randomLogin(_ port: UInt16, from source: String) throws {
    let client = try LineClient(port: port, receiveTimeout: 10, from: source)
    _ = try client.readReply()
    try client.send("LOGIN rnd\(UInt64.random(in: 0...UInt64.max)) \"x\"\n")
    client.closeNow()
  }

  @Test("80 connections sending random-name LOGINs from one host: the real user elsewhere logs in every time")
  func floodFromOneHost() throws {
    let server = try TestServer()
    try server.account("realuser", role: .customer)
    let port = server.port
    let (succeeded, other, rounds) = try realUserLogins(server, from: "127.0.0.2", threads: 80) { _, _ in
      try Self.randomLogin(port, from: "127.0.0.1")
    }
    #expect(succeeded == Self.attempts, "\(succeeded) of \(Self.attempts); the others: \(other.prefix(3))")
    #expect(rounds >= 160, "the flood ran")
  }

  @Test("a flood of one LOGIN per connection from 100 addresses at once: the real user logs in every time")
  func floodFromHundredHosts() throws {
    let server = try TestServer { $0.maxClients = 2048 }
    try server.account("realuser", role: .customer)
    let port = server.port
    // The user comes once every flooding address has had a wrong password found: until then a
    // fresh address with one LOGIN waiting is all the server knows of each, just as of the user.
    let throttle = server.server.throttle
    let flooders = (0..<100).map { PeerSource(SocketAddress(host: "127.0.0.\(2 + $0)", port: 1)!) }
    let allFailed = { flooders.allSatisfy { throttle.penalty(of: $0, now: EventLoop.clock()) > 0 } }
    let (succeeded, other, rounds) = try realUserLogins(server, from: "127.0.1.1", threads: 100, until: allFailed) {
      thread, _ in
      try Self.randomLogin(port, from: "127.0.0.\(2 + thread)")
    }
    #expect(succeeded == Self.attempts, "\(succeeded) of \(Self.attempts); the others: \(other.prefix(3))")
    #expect(rounds >= 200, "the flood ran")
  }

  @Test("wrong passwords for the user from 50 connections on one host do not lock the user out at another")
  func lockoutCannotBeAimed() throws {
    let server = try TestServer()
    try server.account("realuser", role: .customer)
    let port = server.port
    let longestRetry = Mutex(0)
    let (succeeded, other, rounds) = try realUserLogins(server, from: "127.0.0.2", threads: 50) { _, _ in
      let attacker = try LineClient(port: port, receiveTimeout: 60, from: "127.0.0.1")
      _ = try attacker.readReply()
      // Four, then a new connection: the fifth failure would close this one anyway.
      for _ in 0..<4 {
        let reply = try attacker.request("LOGIN realuser \"not the password\"")
        if let retry = reply.message.split(separator: " ").drop(while: { $0 != "in" }).dropFirst().first,
          let seconds = Int(retry)
        {
          longestRetry.withLock { $0 = max($0, seconds) }
        }
      }
      attacker.closeNow()
    }
    #expect(succeeded == Self.attempts, "\(succeeded) of \(Self.attempts); the others: \(other.prefix(3))")
    #expect(rounds >= 100, "the attack ran")
    let retry = longestRetry.withLock { $0 }
    #expect(retry <= 30, "a refusal said try again in \(retry) s, past the documented 30 s")
  }

  /// The real user logs in once from `home` before any flood: a user who was here before.
  private static func loggedInBefore(_ server: TestServer, from home: String) throws {
    let user = try LineClient(port: server.port, receiveTimeout: 60, from: home)
    _ = try user.readReply()
    #expect(try user.request("LOGIN realuser \(LineClient.password(for: "realuser"))").isOK)
    user.closeNow()
  }

  /// One connection from `source`, one request, its answer read, closed.
  private static func once(_ port: UInt16, from source: String, _ line: String) throws {
    let client = try LineClient(port: port, receiveTimeout: 120, from: source)
    _ = try client.readReply()
    _ = try client.request(line)
    client.closeNow()
  }

  @Test(
    "80 hosts logging in to their own accounts with the right password, in a loop: the real user logs in every time")
  func successfulLoginFlood() throws {
    let server = try TestServer { $0.maxClients = 2048 }
    try server.account("realuser", role: .customer)
    let hash = try TestAccounts.hash(for: "flooder")
    for host in 0..<80 { try server.server.addAccount(name: "flooder\(host)", passwordHash: hash, role: .customer) }
    try Self.loggedInBefore(server, from: "127.0.0.1")
    let (port, password, pool) = (server.port, LineClient.password(for: "flooder"), server.server.credentials)
    // Each flooding host has logged in about ten times before the user comes: more than a
    // person does, and so more than a known host's allowance (`JobPool.trustAllowance`).
    let ready = { pool.counters.completed >= 80 * 10 }
    let (succeeded, other, rounds) = try realUserLogins(
      server, from: "127.0.0.1", threads: 80, until: ready, between: 80,
      attack: { thread, _ in try Self.once(port, from: "127.0.0.\(2 + thread)", "LOGIN flooder\(thread) \(password)") })
    #expect(succeeded == Self.attempts, "\(succeeded) of \(Self.attempts); the others: \(other.prefix(3))")
    #expect(rounds >= 160, "the flood ran")
  }

  @Test("80 hosts registering fresh names in a loop: a user who never logged in before logs in every time")
  func registerFlood() throws {
    let server = try TestServer { $0.maxClients = 2048 }
    try server.account("realuser", role: .customer)
    let (port, pool) = (server.port, server.server.credentials)
    let ready = { pool.counters.completed >= 160 }
    let (succeeded, other, rounds) = try realUserLogins(
      server, from: "127.0.0.1", threads: 80, until: ready, between: 80,
      attack: { thread, _ in
        let name = "r\(UInt64.random(in: 0...UInt64.max))"
        try Self.once(port, from: "127.0.0.\(2 + thread)", "REGISTER \(name) \"a-long-password\"")
      })
    #expect(succeeded == Self.attempts, "\(succeeded) of \(Self.attempts); the others: \(other.prefix(3))")
    #expect(rounds >= 160, "the flood ran")
  }

  @Test("random-name LOGINs, each from the next of 1,000 addresses: a user who was here before logs in every time")
  func rotatingAddressFlood() throws {
    let server = try TestServer { $0.maxClients = 2048 }
    try server.account("realuser", role: .customer)
    try Self.loggedInBefore(server, from: "127.0.0.1")
    let port = server.port
    let next = Atomic<Int>(0)
    let (succeeded, other, rounds) = try realUserLogins(server, from: "127.0.0.1", threads: 100) { _, _ in
      let address = next.add(1, ordering: .relaxed).oldValue % 1_000
      try Self.randomLogin(port, from: "127.1.\(address / 250).\(1 + address % 250)")
    }
    #expect(succeeded == Self.attempts, "\(succeeded) of \(Self.attempts); the others: \(other.prefix(3))")
    #expect(rounds >= 200, "the flood ran")
  }
}
