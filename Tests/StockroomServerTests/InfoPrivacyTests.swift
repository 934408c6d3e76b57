import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

/// INFO tells anyone how the shop is doing, but where it is kept on the machine only to staff:
/// a guest on the network learns no path.
@Suite(.timeLimit(.minutes(30))) struct InfoPrivacyTests {
  @Test("INFO store shows the data file to staff and admins, not to guests or customers")
  func dataPathOnlyForStaff() throws {
    let data = try DataDirectory().addAccount()
    let engine = try EngineHarness(data: data)
    let guest = try engine.client()
    let customer = try engine.client(as: "minji")
    let staff = try engine.client(as: "bob", role: .staff)
    for (client, sees) in [(guest, false), (customer, false), (staff, true)] {
      let info = try client.request("INFO store")
      #expect(info.isOK && info.rows.first?["storage"] == "sqlite", "\(info.lines)")
      #expect((info.rows.first?["data"] != nil) == sees, "\(info.lines)")
      #expect(info.lines.joined().contains(data.path) == sees, "\(info.lines)")
    }
  }
}
