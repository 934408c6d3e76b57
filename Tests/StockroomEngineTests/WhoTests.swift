import Foundation
import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

/// WHO through the engine: counts for everyone, names for staff only, and a connection counted
/// as what it is now (gone, logged out, its account removed).
@Suite("WHO: who is connected, names for staff only", .timeLimit(.minutes(30)))
struct WhoTests {
  /// Polls WHO until `condition` holds, holding the thread (see TerminalSession.waitFor);
  /// the server notices a closed connection on its own loop, a moment after the close.
  private func waitForWho(
    _ client: EngineClient, _ what: String, _ condition: (Reply) -> Bool
  ) throws -> Reply {
    let deadline = Date().addingTimeInterval(10)
    while true {
      let reply = try client.request("WHO")
      if condition(reply) { return reply }
      guard Date() < deadline else {
        Issue.record("timed out waiting for \(what): \(reply.lines)")
        return reply
      }
      usleep(20_000)
    }
  }

  @Test("guests and customers get counts only; staff and admins get each logged-in account with its connections")
  func namesForStaffOnly() throws {
    let server = try EngineHarness()
    let minji = try server.client(as: "minji")
    let minjiPhone = try server.client(as: "minji")
    #expect(try minjiPhone.request("WATCH").isOK)
    let guest = try server.client()
    #expect(try guest.request("WATCH banana").isOK)
    let bob = try server.client(as: "bob", role: .staff)

    for caller in [guest, minji] {
      let reply = try caller.request("WHO")
      #expect(reply.isOK)
      #expect(reply.rows.isEmpty, "names shown to a non-staff caller: \(reply.lines)")
      #expect(!reply.lines.joined().contains("bob"))
      let status = reply.statusFields
      #expect(status["clients"] == "4" && status["guests"] == "1", "\(reply.lines)")
      #expect(status["users"] == "2" && status["watchers"] == "2", "\(reply.lines)")
    }
    let reply = try bob.request("WHO")
    #expect(reply.rows.map(\.id) == ["bob", "minji"], "\(reply.lines)")
    let row = try #require(reply.rows.last)
    #expect(row["kind"] == "user" && row["role"] == "customer", "\(reply.lines)")
    #expect(row["connections"] == "2" && row["watching"] == "1", "\(reply.lines)")
    #expect(reply.rows.first?["role"] == "staff")
    let admin = try server.client(as: "admin", role: .admin)
    #expect(try admin.request("WHO").rows.map(\.id) == ["admin", "bob", "minji"])
  }

  @Test("a connection that closes, logs out or loses its account leaves the list")
  func leavingTheList() throws {
    let server = try EngineHarness()
    let staff = try server.client(as: "bob", role: .staff)
    let carol = try server.client(as: "carol")
    let dave = try server.client(as: "dave")
    let erin = try server.client(as: "erin")
    let names = { (reply: Reply) in reply.rows.compactMap(\.id) }
    #expect(names(try staff.request("WHO")) == ["bob", "carol", "dave", "erin"])
    carol.closeNow()
    _ = try waitForWho(staff, "carol to leave") { names($0) == ["bob", "dave", "erin"] }
    #expect(try dave.request("LOGOUT").isOK)
    let afterLogout = try staff.request("WHO")
    #expect(names(afterLogout) == ["bob", "erin"], "\(afterLogout.lines)")
    #expect(afterLogout.statusFields["guests"] == "1", "dave is a guest now: \(afterLogout.lines)")
    let admin = try server.client(as: "admin", role: .admin)
    #expect(try admin.request("USER DEL erin").isOK)
    // erin's connection has sent nothing since: it is a guest all the same, as it would be at its next request.
    let afterDelete = try staff.request("WHO")
    #expect(names(afterDelete) == ["admin", "bob"], "\(afterDelete.lines)")
    #expect(afterDelete.statusFields["guests"] == "2", "\(afterDelete.lines)")
    #expect(try erin.request("WHOAMI").message == "guest role=guest")
  }
}
