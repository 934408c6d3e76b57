import Foundation
import StockroomProtocol
import Testing

/// Over the protocol and offline: a name that looks like an existing account's is refused.
@Suite("REGISTER, USER ADD and stockroomd user add refuse look-alike names")
struct LookalikeAccountTests {
  @Test("REGISTER: case, lookalike letters of one script, and mixed scripts are refused; PRODUCT LIST shows one seller")
  func register() throws {
    let server = try EngineHarness()
    let owner = try server.client()
    #expect(try owner.request("REGISTER realuser \"real-user-password\"").isOK)
    #expect(try owner.request("PRODUCT NEW name=\"Red apple\" price=1200 stock=5").isOK)
    let cases: [(String, ErrorCode, String)] = [
      ("RealUser", .exists, "looks like the existing account 'realuser'"),
      ("𝐫𝐞𝐚𝐥𝐮𝐬𝐞𝐫", .exists, "looks like the existing account 'realuser'"),
      ("reаluser", .invalid, "may not mix scripts"),
    ]
    for (name, code, text) in cases {
      let other = try server.client()
      let reply = try other.request("REGISTER \(name) \"other-password\"")
      #expect(reply.errorCode == code, "\(name): \(reply)")
      #expect(reply.message.contains(text), "\(name): \(reply.message)")
    }
    // All Cyrillic, so one script, and still read as Latin "paypa".
    let paypa = try server.client()
    #expect(try paypa.request("REGISTER paypa \"paypa-password\"").isOK)
    let cyrillic = try server.client().request("REGISTER раура \"other-password\"")
    #expect(cyrillic.errorCode == .exists && cyrillic.message.contains("looks like the existing account 'paypa'"))
    let sellers = try server.client().request("PRODUCT LIST").rows.compactMap { $0["seller"] }
    #expect(sellers == ["realuser"], "\(sellers)")
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
    let mixed = try data.user(["add", "reаluser"], input: "good-password\n")
    #expect(mixed.status == 1)
    #expect(mixed.errors.contains("may not mix scripts"), "\(mixed.errors)")
  }
}
