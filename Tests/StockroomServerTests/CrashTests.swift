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
@Suite("kill -9 in the middle of a rush", .serialized)
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

  /// Starts the server on `data`; the port returned is the one `transport`'s clients use.
  private func start(_ data: DataDirectory, _ transport: TestTransport) throws -> (DaemonProcess, UInt16) {
    let certificates = try TestCertificates.shared()
    let tls =
      transport == .tls
      ? ["--tls-cert", certificates.serverCertificate, "--tls-key", certificates.serverKey, "--tls-port", "0"] : []
    let (daemon, port) = try data.start(["--initial-stock", "100000000"] + tls)
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
    var totals = (orders: 0, restocks: 0, diary: 0, inFlight: 0)
    for round in 1...20 {
      let tallies = Mutex<[Tally]>([])
      let roundPort = port
      let started = DispatchGroup()
      let finished = DispatchGroup()
      for connection in 0..<Self.connections {
        started.enter()
        finished.enter()
        let thread = Thread {
          defer { finished.leave() }
          var tally = Tally()
          tally.user = "c\(connection)s\(round % 4)"
          defer { tallies.withLock { $0.append(tally) } }
          guard let client = try? LineClient.greeted(roundPort, user: tally.user, tls: tls) else {
            started.leave()
            return
          }
          started.leave()
          var counter = 0
          var random = SystemRandomNumberGenerator()
          while true {
            counter += 1
            // Mostly orders; diary entries are kept rarer so twenty rounds stay far below the
            // shop's 100,000-entry diary limit on a faster machine too.
            let choice = Int.random(in: 0..<10, using: &random)
            do {
              if choice < 7 {
                let key = "r\(round)-c\(connection)-\(counter)"
                let request =
                  "ORDER \(Self.juices.randomElement(using: &random)!) \(Int.random(in: 1...3, using: &random))"
                tally.inFlightOrder = (key, request)
                let reply = try client.request("\(request) key=\(key)")
                guard reply.isOK else { throw UnexpectedReply(lines: reply.lines) }
                tally.orders.append((key, request, reply.lines))
                tally.inFlightOrder = nil
              } else if choice < 9 {
                let fruit = Self.fruits.randomElement(using: &random)!
                let amount = Int.random(in: 1...9, using: &random)
                tally.inFlightRestock = [fruit: amount]
                let reply = try client.request("ADD \(fruit) \(amount)")
                guard reply.isOK else { throw UnexpectedReply(lines: reply.lines) }
                tally.restocked[fruit, default: 0] += amount
                tally.inFlightRestock = [:]
              } else {
                let title = "round \(round) note \(counter)"
                let reply = try client.request("DIARY NEW \"\(title)\" \"결과 \(counter)\"")
                guard reply.isOK, let id = reply.statusFields["diary"] else {
                  throw UnexpectedReply(lines: reply.lines)
                }
                tally.diary.append((id, title))
              }
            } catch let error as UnexpectedReply {
              Issue.record("the server refused a request it should take: \(error.lines)")
              return
            } catch {
              // The server was killed under this request: its fate is for the check to find out.
              return
            }
          }
        }
        thread.start()
      }
      #expect(started.wait(timeout: .now() + 30) == .success)
      usleep(UInt32.random(in: 500_000...3_000_000, using: &generator))
      #expect(try daemon.kill9() == SIGKILL)
      #expect(finished.wait(timeout: .now() + 60) == .success, "clients did not notice the kill")

      (daemon, port) = try start(data, transport)
      let checker = try LineClient.greeted(port, user: "admin", tls: tls)
      let all = tallies.withLock { $0 }
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
          let words = request.split(separator: " ")
          let juice = String(words[1])
          let count = Int(words[2])!
          switch juice {
          case "strawberry_juice": expectedTaken["strawberry", default: 0] += 16 * count
          case "banana_juice": expectedTaken["banana", default: 0] += 2 * count
          case "kiwi_juice": expectedTaken["kiwi", default: 0] += 3 * count
          case "pineapple_juice": expectedTaken["pineapple", default: 0] += 2 * count
          default:
            expectedTaken["mango", default: 0] += 2 * count
            expectedTaken["kiwi", default: 0] += count
          }
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
        totals.orders += tally.orders.count
        totals.diary += tally.diary.count
        totals.restocks += tally.restocked.count
      }
      totals.inFlight += inFlight
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
    }
    print(
      "crash test (\(store), \(transport)): 20 rounds, \(totals.orders) orders, \(totals.diary) diary entries, \(totals.inFlight) requests in flight at a kill; nothing lost, nothing twice"
    )
    daemon.process.terminate()
  }
}

struct UnexpectedReply: Error {
  var lines: [String]
}
