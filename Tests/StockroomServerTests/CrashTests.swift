import Foundation
import StockroomProtocol
import StockroomTLS
import StockroomTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Once per store, and on SQLite once more over TLS, one after the other: each run loads both
/// cores for minutes.
@Suite("kill -9 in the middle of a rush", .serialized, .timeLimit(.minutes(20)))
struct CrashTests {
  /// What one client was told, and what it had asked without hearing back.
  struct Tally: Sendable {
    var user = ""
    var orders: [(key: String, request: String, reply: [String])] = []
    var restocked: [String: Int] = [:]
    var diary: [(id: String, title: String)] = []
    var inFlightOrder: (key: String, request: String)?
    var inFlightRestock: [String: Int] = [:]
  }

  /// One round's rush as its connections report it, for the test to decide when to kill.
  final class Rush: Sendable {
    let round: Int
    let port: UInt16
    let tls: TLSContext?
    /// Acknowledged orders, per connection.
    let orders = Mutex<[Int]>(Array(repeating: 0, count: CrashTests.connections))
    /// Set just before the kill: a request that fails after it is the kill's doing.
    let killing = Atomic<Bool>(false)
    /// A connection failed for a reason that is not the kill: the round cannot be checked.
    let failed = Atomic<Bool>(false)
    /// What went wrong on the connections' threads, for the test to record as its own issues.
    let failures = Mutex<[String]>([])

    init(round: Int, port: UInt16, tls: TLSContext?) {
      self.round = round
      self.port = port
      self.tls = tls
    }

    func fail(_ message: String) {
      failures.withLock { $0.append(message) }
      failed.store(true, ordering: .relaxed)
    }
  }

  static let fruits = ["strawberry", "banana", "pineapple", "kiwi", "mango"]
  static let juices = ["strawberry_juice", "banana_juice", "kiwi_juice", "pineapple_juice", "mango_kiwi_juice"]

  private func levels(_ client: LineClient) throws -> [String: (taken: Int, restocked: Int, balances: Bool)] {
    var out: [String: (Int, Int, Bool)] = [:]
    for fruit in Self.fruits {
      let row = try client.request("SHOW \(fruit)").rows[0]
      out[fruit] = (Int(row["taken"]!)!, Int(row["restocked"]!)!, row["stock"].flatMap(Int.init)! >= 0)
    }
    return out
  }

  /// Connections per round. Each logs in, and so does its check after the kill: at about a tenth
  /// of a second of Argon2id per login on two cores, 16 keeps the logins to a minute in all.
  static let connections = 16

  /// Acknowledged orders each connection has before the kill, at the least: a connect, login or
  /// order that stopped working would otherwise leave a round with nothing to check, and pass.
  static let leastOrdersPerConnection = 2

  /// Starts the server on `data`; the port returned is the one `transport`'s clients use.
  private func start(_ data: DataDirectory, _ transport: TestTransport) throws -> (DaemonProcess, UInt16) {
    let certificates = try TestCertificates.shared()
    let tls =
      transport == .tls
      ? ["--tls-cert", certificates.serverCertificate, "--tls-key", certificates.serverKey, "--tls-port", "0"] : []
    // The rush's connections all come from 127.0.0.1: no per-address order rate.
    let (daemon, port) = try data.start(["--initial-stock", "100000000", "--order-rate", "0"] + tls)
    return (daemon, transport == .tls ? try daemon.tlsPort() : port)
  }

  @Test(
    "20 rounds of kill -9 under 16 connections lose nothing acknowledged and apply nothing twice",
    arguments: [(StoreKind.sqlite, TestTransport.plain), (.postgresql, .plain), (.sqlite, .tls)])
  func killNineRounds(store: StoreKind, transport: TestTransport) throws {
    let data = try DataDirectory(store: store).addAccount()
    let tls = transport == .tls ? try TestTransport.clientContext() : nil
    var generator = SystemRandomNumberGenerator()
    var (daemon, port) = try start(data, transport)
    var before = try levels(try LineClient.greeted(port, tls: tls))
    // The staff accounts are made once; four sets of names rotate through the rounds, keeping
    // each diary far below its 1,000 entries.
    let admin = try LineClient.greeted(port, user: "admin", role: .customer, tls: tls)
    for connection in 0..<Self.connections {
      for set in 0..<4 {
        let password = Quoting.quote(LineClient.password(for: "c\(connection)s\(set)"))
        #expect(try admin.request("USER ADD c\(connection)s\(set) \(password) role=staff").isOK)
      }
    }
    var totals = (orders: 0, diary: 0, inFlight: 0)
    for round in 1...20 {
      let rush = Rush(round: round, port: port, tls: tls)
      let tallies = Mutex<[Tally]>([])
      let started = DispatchGroup()
      let finished = DispatchGroup()
      for connection in 0..<Self.connections {
        started.enter()
        finished.enter()
        Thread {
          defer { finished.leave() }
          let tally = Self.run(connection, of: rush, started: started)
          tallies.withLock { $0.append(tally) }
        }.start()
      }
      #expect(started.wait(timeout: .now() + 30) == .success)
      // The kill comes after a random number of acknowledged orders, a count rather than a
      // time, and only once every connection has had some: a slow machine only makes the wait
      // longer. The deadline bounds a rush that stopped taking orders.
      let target = Int.random(in: 100...800, using: &generator)
      try waitUntil(timeout: 300) {
        let orders = rush.orders.withLock { $0 }
        return rush.failed.load(ordering: .relaxed)
          || (orders.min()! >= Self.leastOrdersPerConnection && orders.reduce(0, +) >= target)
      }
      rush.killing.store(true, ordering: .sequentiallyConsistent)
      #expect(try daemon.kill9() == SIGKILL)
      #expect(finished.wait(timeout: .now() + 60) == .success, "clients did not notice the kill")
      for failure in rush.failures.withLock({ $0 }) { Issue.record(Comment(rawValue: failure)) }
      let failed = rush.failed.load(ordering: .relaxed)
      try #require(!failed, "round \(round) failed before the kill")

      (daemon, port) = try start(data, transport)
      let all = tallies.withLock { $0 }
      for tally in all {
        #expect(tally.orders.count >= Self.leastOrdersPerConnection, "\(tally.user): \(tally.orders.count) orders")
      }
      let inFlight = try check(all, round: round, port: port, tls: tls, before: &before)
      totals.orders += all.reduce(0) { $0 + $1.orders.count }
      totals.diary += all.reduce(0) { $0 + $1.diary.count }
      totals.inFlight += inFlight
    }
    print(
      "crash test (\(store), \(transport)): 20 rounds, \(totals.orders) orders, \(totals.diary) diary entries, \(totals.inFlight) requests in flight at a kill; nothing lost, nothing twice"
    )
    daemon.process.terminate()
  }

  /// One connection's rush, until the kill ends it: mostly keyed orders, some restocks, a few
  /// diary entries. Failing to connect or log in, a refusal, or a lost connection before the
  /// kill marks the round failed.
  private static func run(_ connection: Int, of rush: Rush, started: DispatchGroup) -> Tally {
    var tally = Tally()
    tally.user = "c\(connection)s\(rush.round % 4)"
    let client: LineClient
    do {
      client = try LineClient.greeted(rush.port, user: tally.user, tls: rush.tls)
    } catch {
      rush.fail("connection \(connection) could not connect and log in before the kill: \(error)")
      started.leave()
      return tally
    }
    started.leave()
    var counter = 0
    var random = SystemRandomNumberGenerator()
    while true {
      counter += 1
      do {
        try step(client, counter: counter, connection: connection, of: rush, into: &tally, using: &random)
      } catch let error as UnexpectedReply {
        rush.fail("the server refused a request it should take: \(error.lines)")
        return tally
      } catch {
        // Killed under this request: its fate is for the check to find out. Before the kill,
        // a lost connection is a failure of its own.
        if !rush.killing.load(ordering: .sequentiallyConsistent) {
          rush.fail("connection \(connection) failed before the kill: \(error)")
        }
        return tally
      }
    }
  }

  /// One request of a connection's rush, recorded in `tally` once it is acknowledged.
  private static func step(
    _ client: LineClient, counter: Int, connection: Int, of rush: Rush, into tally: inout Tally,
    using random: inout SystemRandomNumberGenerator
  ) throws {
    // Mostly orders; diary entries are kept rarer so twenty rounds stay far below the shop's
    // 100,000-entry diary limit on a faster machine too.
    let choice = Int.random(in: 0..<10, using: &random)
    if choice < 7 {
      let key = "r\(rush.round)-c\(connection)-\(counter)"
      let request = "ORDER \(juices.randomElement(using: &random)!) \(Int.random(in: 1...3, using: &random))"
      tally.inFlightOrder = (key, request)
      let reply = try client.request("\(request) key=\(key)")
      guard reply.isOK else { throw UnexpectedReply(lines: reply.lines) }
      tally.orders.append((key, request, reply.lines))
      tally.inFlightOrder = nil
      rush.orders.withLock { $0[connection] += 1 }
    } else if choice < 9 {
      let fruit = fruits.randomElement(using: &random)!
      let amount = Int.random(in: 1...9, using: &random)
      tally.inFlightRestock = [fruit: amount]
      let reply = try client.request("ADD \(fruit) \(amount)")
      guard reply.isOK else { throw UnexpectedReply(lines: reply.lines) }
      tally.restocked[fruit, default: 0] += amount
      tally.inFlightRestock = [:]
    } else {
      let title = "round \(rush.round) note \(counter)"
      let reply = try client.request("DIARY NEW \"\(title)\" \"결과 \(counter)\"")
      guard reply.isOK, let id = reply.statusFields["diary"] else { throw UnexpectedReply(lines: reply.lines) }
      tally.diary.append((id, title))
    }
  }

  /// After the restart: every acknowledged change is there once, what was in flight at most
  /// once, and the stock balances. Returns how many requests were in flight at the kill.
  private func check(
    _ all: [Tally], round: Int, port: UInt16, tls: TLSContext?,
    before: inout [String: (taken: Int, restocked: Int, balances: Bool)]
  ) throws -> Int {
    let checker = try LineClient.greeted(port, user: "admin", tls: tls)
    var expectedTaken: [String: Int] = [:]
    var restockLow: [String: Int] = [:]
    var restockHigh: [String: Int] = [:]
    var inFlight = 0
    for tally in all {
      let client = try LineClient.greeted(port, user: tally.user, tls: tls)
      // Every acknowledged keyed order is there: retrying it answers the very same reply.
      for order in tally.orders {
        let again = try client.request("\(order.request) key=\(order.key)")
        #expect(again.lines == order.reply, "order \(order.key) was acknowledged but is not the same after the crash")
      }
      // An order in flight at the kill happened at most once: retrying settles it either way.
      var settled = tally.orders.map(\.request)
      if let pending = tally.inFlightOrder {
        inFlight += 1
        #expect(try client.request("\(pending.request) key=\(pending.key)").isOK)
        settled.append(pending.request)
      }
      for request in settled {
        for (fruit, amount) in Self.fruitTaken(by: request) { expectedTaken[fruit, default: 0] += amount }
      }
      for (fruit, amount) in tally.restocked {
        restockLow[fruit, default: 0] += amount
        restockHigh[fruit, default: 0] += amount
      }
      for (fruit, amount) in tally.inFlightRestock {
        inFlight += 1
        restockHigh[fruit, default: 0] += amount
      }
      for entry in tally.diary {
        #expect(try client.request("DIARY SHOW \(entry.id)").rows.first?["title"] == entry.title)
      }
    }
    let after = try levels(checker)
    for fruit in Self.fruits {
      let (taken, restocked, nonNegative) = after[fruit]!
      #expect(nonNegative)
      #expect(taken - before[fruit]!.taken == expectedTaken[fruit, default: 0], "\(fruit) taken, round \(round)")
      let gained = restocked - before[fruit]!.restocked
      #expect(
        (restockLow[fruit, default: 0]...restockHigh[fruit, default: 0]).contains(gained),
        "\(fruit) restocked \(gained), acknowledged \(restockLow[fruit, default: 0]), round \(round)")
      #expect(try checker.request("STOCKTAKE \(fruit) size=1").rows.first?["balances"] == "yes")
    }
    before = after
    let acknowledged = all.reduce(0) { $0 + $1.orders.count + $1.restocked.values.count + $1.diary.count }
    print("crash round \(round): \(acknowledged) acknowledged changes checked, \(inFlight) in flight at the kill")
    return inFlight
  }

  /// The fruit an `ORDER juice count` request takes, by the shipped recipes.
  private static func fruitTaken(by request: String) -> [String: Int] {
    let words = request.split(separator: " ")
    let count = Int(words[2])!
    switch words[1] {
    case "strawberry_juice": return ["strawberry": 16 * count]
    case "banana_juice": return ["banana": 2 * count]
    case "kiwi_juice": return ["kiwi": 3 * count]
    case "pineapple_juice": return ["pineapple": 2 * count]
    default: return ["mango": 2 * count, "kiwi": count]
    }
  }
}

struct UnexpectedReply: Error {
  var lines: [String]
}
