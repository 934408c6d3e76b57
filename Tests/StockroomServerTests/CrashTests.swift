import Foundation
import StockroomProtocol
import StockroomTLS
import StockroomTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Once per store, and on SQLite once more over TLS, at the same time: a round spends most of its
/// time on logins and round trips, not on the cores, and its kill waits on counts of
/// acknowledged orders, so rounds of the other cases running beside it only slow it down.
@Suite("kill -9 in the middle of a rush", .timeLimit(.minutes(20)))
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

  /// Kills per case. Each round's kill comes at a count of acknowledged orders drawn from its own
  /// slice of `killAfter` (`killTarget`), so the rounds reach from a kill right after the rush's
  /// first commits to one deep in it, instead of twenty draws that may bunch up.
  static let rounds = 6

  /// The acknowledged orders before a kill, over all rounds: from every connection's least, at
  /// once after the logins, to 800.
  static let killAfter = (connections * leastOrdersPerConnection)...800

  /// The count of acknowledged orders round `round` (from 1) kills at: a random one in the
  /// round's slice of `killAfter`.
  static func killTarget(round: Int, using generator: inout some RandomNumberGenerator) -> Int {
    let width = (killAfter.count + rounds - 1) / rounds
    let low = killAfter.lowerBound + (round - 1) * width
    return Int.random(in: low...min(low + width - 1, killAfter.upperBound), using: &generator)
  }

  /// The cases: each store in plain text, and SQLite over TLS. With `STOCKROOM_IO=dispatch` only
  /// the SQLite ones: what the I/O backend does here (read requests, write replies, notice a
  /// dead peer) does not depend on the store, and PostgreSQL's kills ran with epoll.
  static let cases: [(StoreKind, TestTransport)] =
    ProcessInfo.processInfo.environment["STOCKROOM_IO"] == "dispatch"
    ? [(.sqlite, .plain), (.sqlite, .tls)] : [(.sqlite, .plain), (.postgresql, .plain), (.sqlite, .tls)]

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
    "rounds of kill -9, early to late in a rush of 16 connections, lose nothing acknowledged and apply nothing twice",
    arguments: cases)
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
    for round in 1...Self.rounds {
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
      // The kill comes after a number of acknowledged orders, a count rather than a time, and
      // only once every connection has had some: a slow machine only makes the wait longer.
      // The deadline bounds a rush that stopped taking orders.
      let target = Self.killTarget(round: round, using: &generator)
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
      "crash test (\(store), \(transport)): \(Self.rounds) rounds, \(totals.orders) orders, \(totals.diary) diary entries, \(totals.inFlight) requests in flight at a kill; nothing lost, nothing twice"
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

  /// What one connection's tally came to after the restart, checked on a connection of its own.
  struct Verified: Sendable {
    var problems: [String] = []
    var taken: [String: Int] = [:]
    var restockLow: [String: Int] = [:]
    var restockHigh: [String: Int] = [:]
    var inFlight = 0
  }

  /// After the restart: every acknowledged change is there once, what was in flight at most
  /// once, and the stock balances. Returns how many requests were in flight at the kill. Each
  /// tally is checked on a thread of its own, so the connections' logins (Argon2id, on the
  /// server's password pool) overlap instead of taking turns.
  private func check(
    _ all: [Tally], round: Int, port: UInt16, tls: TLSContext?,
    before: inout [String: (taken: Int, restocked: Int, balances: Bool)]
  ) throws -> Int {
    let checker = try LineClient.greeted(port, user: "admin", tls: tls)
    let results = Mutex<[Verified]>([])
    let finished = DispatchGroup()
    for tally in all {
      finished.enter()
      Thread {
        defer { finished.leave() }
        let verified = Self.verify(tally, port: port, tls: tls)
        results.withLock { $0.append(verified) }
      }.start()
    }
    #expect(finished.wait(timeout: .now() + 300) == .success, "round \(round): the check did not finish")
    var total = Verified()
    for verified in results.withLock({ $0 }) {
      for problem in verified.problems { Issue.record(Comment(rawValue: problem)) }
      total.taken.merge(verified.taken, uniquingKeysWith: +)
      total.restockLow.merge(verified.restockLow, uniquingKeysWith: +)
      total.restockHigh.merge(verified.restockHigh, uniquingKeysWith: +)
      total.inFlight += verified.inFlight
    }
    let after = try levels(checker)
    for fruit in Self.fruits {
      let (taken, restocked, nonNegative) = after[fruit]!
      #expect(nonNegative)
      #expect(taken - before[fruit]!.taken == total.taken[fruit, default: 0], "\(fruit) taken, round \(round)")
      let gained = restocked - before[fruit]!.restocked
      let low = total.restockLow[fruit, default: 0]
      #expect(
        (low...total.restockHigh[fruit, default: 0]).contains(gained),
        "\(fruit) restocked \(gained), acknowledged \(low), round \(round)")
      #expect(try checker.request("STOCKTAKE \(fruit) size=1").rows.first?["balances"] == "yes")
    }
    before = after
    let acknowledged = all.reduce(0) { $0 + $1.orders.count + $1.restocked.values.count + $1.diary.count }
    print("crash round \(round): \(acknowledged) acknowledged changes checked, \(total.inFlight) in flight at the kill")
    return total.inFlight
  }

  /// One tally against the restarted server, as its own user: every acknowledged keyed order
  /// answers the very same reply when retried, the order in flight at the kill happened at most
  /// once (retrying settles it either way), and every acknowledged diary entry is there. What
  /// went wrong comes back as problems, for the test's thread to record.
  private static func verify(_ tally: Tally, port: UInt16, tls: TLSContext?) -> Verified {
    var verified = Verified()
    do {
      let client = try LineClient.greeted(port, user: tally.user, tls: tls)
      for order in tally.orders {
        let again = try client.request("\(order.request) key=\(order.key)")
        if again.lines != order.reply {
          verified.problems.append("order \(order.key) was acknowledged but is not the same after the crash")
        }
      }
      var settled = tally.orders.map(\.request)
      if let pending = tally.inFlightOrder {
        verified.inFlight += 1
        let retried = try client.request("\(pending.request) key=\(pending.key)")
        if !retried.isOK { verified.problems.append("order \(pending.key), in flight, retried: \(retried.lines)") }
        settled.append(pending.request)
      }
      for request in settled {
        for (fruit, amount) in fruitTaken(by: request) { verified.taken[fruit, default: 0] += amount }
      }
      verified.restockLow = tally.restocked
      verified.restockHigh = tally.restocked
      for (fruit, amount) in tally.inFlightRestock {
        verified.inFlight += 1
        verified.restockHigh[fruit, default: 0] += amount
      }
      for entry in tally.diary {
        let shown = try client.request("DIARY SHOW \(entry.id)").rows.first?["title"]
        if shown != entry.title {
          verified.problems.append("diary entry \(entry.id) (\(entry.title)) was acknowledged but is not there")
        }
      }
    } catch {
      verified.problems.append("\(tally.user): the check after the restart failed: \(error)")
    }
    return verified
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
