import Foundation
import StockroomEngine
import StockroomProtocol
import StockroomSystem
import StockroomTransport
import Testing

@testable import StockroomEngineHarness
@testable import StockroomServer

/// Over the protocol and offline: a name that looks like an existing account's is refused.
@Suite("REGISTER, USER ADD and stockroomd user add refuse look-alike names", .timeLimit(.minutes(30)))
struct LookalikeAccountTests {
  @Test("REGISTER: case, lookalike letters of one script, and mixed scripts are refused; PRODUCT LIST shows one seller")
  func register() throws {
    let server = try EngineHarness()
    let owner = try server.client()
    #expect(try owner.request("REGISTER realuser \"real-user-password\"").isOK)
    #expect(try owner.request("PRODUCT NEW name=\"Red apple\" price=1200 stock=5").isOK)
    let cases: [(String, ErrorCode, String)] = [
      ("RealUser", .exists, "looks like an existing account's"),
      ("𝐫𝐞𝐚𝐥𝐮𝐬𝐞𝐫", .exists, "looks like an existing account's"),
      ("reаluser", .invalid, "may not mix scripts"),
    ]
    for (name, code, text) in cases {
      let other = try server.client()
      let reply = try other.request("REGISTER \(name) \"other-password\"")
      #expect(reply.errorCode == code, "\(name): \(reply)")
      #expect(reply.message.contains(text), "\(name): \(reply.message)")
      #expect(!reply.message.contains("'realuser'"), "\(name): \(reply.message)")
    }
    // All Cyrillic, so one script, and still read as Latin "paypa".
    let paypa = try server.client()
    #expect(try paypa.request("REGISTER paypa \"paypa-password\"").isOK)
    let cyrillic = try server.client().request("REGISTER раура \"other-password\"")
    #expect(cyrillic.errorCode == .exists && cyrillic.message.contains("looks like an existing account's"))
    let sellers = try server.client().request("PRODUCT LIST").rows.compactMap { $0["seller"] }
    #expect(sellers == ["realuser"], "\(sellers)")
  }

  /// Issue 41, finding 9: the skeleton was taken after case folding only.
  static let issue41Pairs = [
    ("reaIuser", "realuser"), ("paypaI", "paypal"), ("aIice", "alice"), ("ALlCE", "alice"), ("ΤΟΜ", "tom"),
    ("ТОМ", "tom"), ("ВОВ", "bob"), ("КАТЕ", "kate"), ("ΚΑΤΕ", "kate"), ("ᎪᎠᎷᎥᏁ", "admin"), ("ʀealuser", "realuser"),
  ]
  static let issue41Owners = ["realuser", "paypal", "alice", "tom", "bob", "kate", "admin"]

  @Test(
    "capital I for l, mixed case, all-capital Greek, Cyrillic and Cherokee, a small capital R: REGISTER and USER ADD refuse each"
  )
  func issue41() throws {
    let server = try EngineHarness()
    for owner in Self.issue41Owners { try server.account(owner, role: owner == "admin" ? .admin : .customer) }
    let admin = try server.client(as: "root", role: .admin)
    for (name, existing) in Self.issue41Pairs {
      let reply = try server.client().request("REGISTER \(name) \"other-password\"")
      #expect(reply.errorCode == .exists, "\(name): \(reply)")
      #expect(!reply.message.contains(existing), "\(name): \(reply.message)")
      let added = try admin.request("USER ADD \(name) \"other-password\"")
      #expect(added.errorCode == .exists, "\(name): \(added)")
      #expect(added.message.contains("looks like the existing account '\(existing)'"), "\(name): \(added.message)")
    }
    #expect(try server.client().request("REGISTER tomas \"other-password\"").isOK)
    // The other way round: Cherokee `ᎠᎪᎷᏁ` (D, A, M and NE) first, then the Latin name it passes for.
    #expect(try admin.request("USER ADD ᎠᎪᎷᏁ \"other-password\"").isOK)
    #expect(try server.client().request("REGISTER damn \"other-password\"").errorCode == .exists)
  }

  @Test("a look-alike REGISTER costs a password check and, with a wrong password, a failure for the address")
  func lookalikeCostsACheck() throws {
    let server = try EngineHarness()
    try server.account("bob", role: .customer)
    let pool = server.handler.credentials
    try waitUntil { pool.counters.queued == 0 && pool.counters.running == 0 }
    let checksBefore = pool.counters.completed
    let prober = server.connect(from: "127.0.0.2")
    _ = try prober.readReply()
    let names = ["Bob", "BOB", "ВОВ", "b0b"]
    try prober.send(names.map { "REGISTER \($0) \"a-long-password-1\"\n" }.joined())
    for name in names {
      let reply = try prober.readReply()
      #expect(reply.errorCode == .exists, "\(name): \(reply.lines)")
      #expect(!reply.message.contains("'bob'"), "\(name): \(reply.message)")
    }
    try waitUntil { pool.counters.queued == 0 && pool.counters.running == 0 }
    #expect(pool.counters.completed - checksBefore == names.count, "one password check per look-alike")
    let probing = PeerSource(SocketAddress(host: "127.0.0.2", port: 1)!)
    #expect(server.handler.throttle.penalty(of: probing, now: server.clock.now()) == names.count)
  }

  @Test("USER ADD by an admin is held to the same rule")
  func userAdd() throws {
    let server = try EngineHarness()
    let admin = try server.client(as: "root", role: .admin)
    #expect(try admin.request("USER ADD shopkeeper \"keeper-password\" role=staff").isOK)
    let reply = try admin.request("USER ADD ShopKeeper \"keeper-password\" role=staff")
    #expect(reply.errorCode == .exists, "\(reply)")
    #expect(try admin.request("USER ADD аdmin \"admin-password\"").errorCode == .invalid)
  }

  @Test("stockroomd user add refuses a look-alike of an account in the data directory, before any password")
  func offline() throws {
    let data = try DataDirectory()
    #expect(try data.user(["add", "realuser"], input: "good-password\n").status == 0)
    let alike = try data.user(["add", "RealUser"], input: "good-password\n")
    #expect(alike.status == 1)
    #expect(alike.errors.contains("looks like the existing account 'realuser'"), "\(alike.errors)")
    for owner in Self.issue41Owners where owner != "realuser" {
      #expect(try data.user(["add", owner], input: "good-password\n").status == 0)
    }
    for (name, existing) in Self.issue41Pairs {
      let refused = try data.user(["add", name], input: "good-password\n")
      #expect(refused.status == 1, "\(name)")
      #expect(refused.errors.contains("looks like the existing account '\(existing)'"), "\(name): \(refused.errors)")
    }
    let mixed = try data.user(["add", "reаluser"], input: "good-password\n")
    #expect(mixed.status == 1)
    #expect(mixed.errors.contains("may not mix scripts"), "\(mixed.errors)")
  }
}
