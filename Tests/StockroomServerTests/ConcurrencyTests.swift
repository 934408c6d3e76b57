import Foundation
import StockroomProtocol
import Synchronization
import Testing

@Suite("Many users at once, over TCP, over TLS and through the engine alone", .timeLimit(.minutes(30)))
struct ConcurrencyTests {
  @Test(
    "50 connections ordering the same juices until stock runs out take exactly what the stock allowed",
    arguments: TestTransport.allCases)
  func rushUntilEmpty(transport: TestTransport) throws {
    let initial = 300
    let server = try transport.shop(initialStock: initial)
    let successes = Mutex<[String: Int]>([:])
    let shortages = Atomic<Int>(0)
    let juices = ["banana_juice", "strawberry_banana_juice", "딸바쥬스", "mango_kiwi_juice", "kiwi_juice"]
    together(50) { index in
      let client = try server.client()
      var exhausted = Set<Int>()
      var attempt = index
      while exhausted.count < juices.count {
        let choice = attempt % juices.count
        attempt += 1
        if exhausted.contains(choice) { continue }
        let reply = try client.request("ORDER \(juices[choice])")
        if reply.isOK {
          successes.withLock { $0[juices[choice], default: 0] += 1 }
        } else if reply.errorCode == .shortage {
          shortages.add(1, ordering: .relaxed)
          exhausted.insert(choice)
        } else {
          throw LineClient.Failure(description: "unexpected reply \(reply.lines)")
        }
      }
    }
    let made = successes.withLock { $0 }
    let bananaJuices = made["banana_juice", default: 0]
    let strawberryBanana = made["strawberry_banana_juice", default: 0] + made["딸바쥬스", default: 0]
    let mangoKiwi = made["mango_kiwi_juice", default: 0]
    let kiwiJuices = made["kiwi_juice", default: 0]
    let expectedTaken = [
      "banana": 2 * bananaJuices + strawberryBanana, "strawberry": 10 * strawberryBanana,
      "mango": 2 * mangoKiwi, "kiwi": mangoKiwi + 3 * kiwiJuices,
    ]
    let client = try server.client()
    var levels: [String: Int] = [:]
    for (fruit, taken) in expectedTaken {
      let row = try client.request("SHOW \(fruit)").rows[0]
      let stock = try #require(Int(row["stock"] ?? ""))
      levels[fruit] = stock
      #expect(stock >= 0)
      #expect(row["taken"] == String(taken), "\(fruit): server took \(row["taken"] ?? "?"), clients were told \(taken)")
      #expect(initial - taken == stock, "\(fruit): start - taken = current")
    }
    // Every client stopped only when each juice was short, so none of them can be made now.
    #expect(levels["banana"]! < 2)
    #expect(levels["strawberry"]! < 10 || levels["banana"]! < 1)
    #expect(levels["mango"]! < 2 || levels["kiwi"]! < 1)
    #expect(levels["kiwi"]! < 3)
    let info = try client.request("INFO").rows[0]
    #expect(info["orders"] == String(made.values.reduce(0, +)))
    #expect(shortages.load(ordering: .relaxed) >= 50 * juices.count)
  }

  @Test(
    "orders and restocks from many connections keep start + restocked - taken = current",
    arguments: TestTransport.allCases)
  func mixedLedger(transport: TestTransport) throws {
    let server = try transport.shop(initialStock: 50)
    let restocked = Atomic<Int>(0)
    let taken = Atomic<Int>(0)
    together(50) { index in
      let client = try server.client()
      for round in 0..<40 {
        if index % 5 == 0 {
          let amount = 1 + (round % 3)
          if try client.request("ADD banana \(amount) mango 1").isOK { restocked.add(amount, ordering: .relaxed) }
        } else {
          let reply = try client.request("ORDER banana_juice \(1 + round % 2)")
          if reply.isOK { taken.add(2 * (1 + round % 2), ordering: .relaxed) }
        }
      }
    }
    let row = try server.client().request("SHOW banana").rows[0]
    #expect(row["restocked"] == String(restocked.load(ordering: .relaxed)))
    #expect(row["taken"] == String(taken.load(ordering: .relaxed)))
    #expect(Int(row["stock"]!)! == 50 + restocked.load(ordering: .relaxed) - taken.load(ordering: .relaxed))
  }

  @Test("a watcher sees every change by others, in order, and never inside a reply", arguments: TestTransport.allCases)
  func watchEvents(transport: TestTransport) throws {
    let server = try transport.shop(initialStock: 10_000)
    // Staff, who alone are told who made a change.
    let watcher = try server.client(as: "watcher", role: .staff)
    #expect(try watcher.request("WATCH banana 딸기").statusFields["watching"] == "banana strawberry")
    let staff = try server.client(as: "staff", role: .staff)
    // Changes on other items are not sent to a watcher of banana and strawberry.
    try staff.request("ORDER kiwi_juice")
    let orderers = 8
    let perOrderer = 25
    together(orderers) { index in
      let client = try server.client(as: "u\(index)", role: .staff)
      for round in 0..<perOrderer {
        let line = round.isMultiple(of: 5) ? "ADD banana 3" : "ORDER strawberry_banana_juice"
        let reply = try client.request(line)
        if !reply.isOK { throw LineClient.Failure(description: "\(line): \(reply.lines)") }
        // Keep the watcher busy with multi-line replies while events arrive.
        if index == 0 { _ = try watcher.request("STOCK") }
      }
    }
    try staff.request("ADD banana -5")
    // 8 × (20 orders × 2 fruits + 5 restocks) + 1 stocktake.
    let expected = orderers * ((perOrderer - perOrderer / 5) * 2 + perOrderer / 5) + 1
    var events = watcher.takeEvents()
    while events.count < expected { events.append(try watcher.readEvent()) }
    #expect(events.count == expected)
    #expect(events.allSatisfy { $0.id == "stock" })
    // Each item's levels follow from its changes, one after another: nothing lost or reordered.
    for item in ["banana", "strawberry"] {
      var level = 10_000
      for event in events where event["item"] == item {
        level += Int(event["change"]!)!
        #expect(event["level"] == String(level), "\(item) event out of order")
      }
      #expect(try staff.request("STOCK \(item)").rows[0]["stock"] == String(level))
    }
    #expect(events.last?["cause"] == "stocktake")
    #expect(events.last?["user"] == "staff")
    #expect(events.contains { $0["cause"] == "order" && $0["order"] != nil && $0["user"]?.hasPrefix("u") == true })
    // In the raw stream, an event never follows a data line: replies are never split.
    let transcript = watcher.transcript
    for (previous, line) in zip(transcript, transcript.dropFirst()) where line.hasPrefix("! ") {
      #expect(!previous.hasPrefix("* "), "event inside a reply: \(previous) / \(line)")
    }
    #expect(try watcher.request("UNWATCH").isOK)
    try staff.request("ADD banana 1")
    #expect(try watcher.request("PING").isOK)
    #expect(watcher.takeEvents().isEmpty, "no events after UNWATCH")
  }
}
