import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

@Suite("INFO by section", .timeLimit(.minutes(30)))
struct InfoSectionTests {
  /// Which fields each section holds; plain INFO has them all, in this order.
  static let sections: [InfoSection: [String]] = [
    .server: ["version", "protocol", "uptime_seconds", "max_line", "registration", "io", "loops"],
    .clients: ["clients", "max_clients", "watchers", "throttled_names", "user", "role"],
    .store: ["storage", "read_only", "orders_listed", "products", "diary_entries", "names_generation"],
    .stats: [
      "connections_total", "connections_rejected", "commands", "failed_logins", "orders", "shortages", "events_dropped",
      "slow_consumer_disconnects", "store_errors",
    ],
  ]

  @Test("INFO <section> gives one row with that section's fields under their usual names; INFO gives every section")
  func sections() throws {
    let server = try EngineHarness()
    let client = try server.client()
    let all = try client.request("INFO")
    #expect(all.rows.count == 1)
    #expect(all.rows[0].id == "stockroomd")
    let allKeys = all.rows[0].fields.map(\.key)
    #expect(allKeys == InfoSection.allCases.flatMap { Self.sections[$0]! }, "\(allKeys)")
    for section in InfoSection.allCases {
      let reply = try client.request("INFO \(section.rawValue)")
      #expect(reply.isOK)
      #expect(reply.rows.count == 1 && reply.rows[0].id == "stockroomd")
      #expect(reply.rows[0].fields.map(\.key) == Self.sections[section]!, "\(section)")
    }
    // Several at once, in any order and case, come in section order; one named twice, once.
    let two = try client.request("INFO STATS clients stats")
    #expect(two.rows[0].fields.map(\.key) == Self.sections[.clients]! + Self.sections[.stats]!)
  }

  @Test("an unknown section is ERR NOTFOUND naming the sections, with a guess")
  func unknownSection() throws {
    let server = try EngineHarness()
    let client = try server.client()
    let reply = try client.request("INFO cleints")
    #expect(reply.errorCode == .notFound)
    #expect(reply.rows.isEmpty)
    #expect(reply.message == "no INFO section 'cleints'; sections: server clients store stats; did you mean 'clients'?")
    #expect(
      try client.request("INFO keyspace").message == "no INFO section 'keyspace'; sections: server clients store stats")
    #expect(try client.request("INFO server keyspace").errorCode == .notFound, "one bad section fails the request")
  }

  @Test("the stats section counts shortages, and HELP INFO shows the section argument from the table")
  func counts() throws {
    let server = try EngineHarness()
    let client = try server.client()
    #expect(try client.request("ORDER banana 1000").errorCode == .shortage)
    #expect(try client.request("ORDER banana 1000 kiwi 1000").errorCode == .shortage)
    #expect(try client.request("INFO stats").rows[0]["shortages"] == "2")
    let help = try client.request("HELP INFO")
    #expect(help.rows[0]["usage"] == "INFO [section] [[section] ...]")
  }
}
