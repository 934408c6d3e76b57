import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

/// What one customer can learn of another's diary, products, orders and keys: nothing but what
/// the shop shows everyone.
@Suite("Private data stays private", .timeLimit(.minutes(30)))
struct PrivacyTests {
  @Test("every diary, product, order and key command by the wrong user fails and leaks nothing")
  func wrongUserLearnsNothing() throws {
    let server = try EngineHarness(initialStock: 100)
    let alice = try server.client(as: "alice")
    let secretTitle = "alice-secret-title"
    let secretBody = "alice-secret-body"
    for index in 1...3 {
      #expect(try alice.request("DIARY NEW \(secretTitle)-\(index) \(secretBody)").statusFields["diary"] == "\(index)")
    }
    #expect(try alice.request("PRODUCT NEW name=Pear price=100 stock=5").isOK)
    let aliceOrder = try alice.request("ORDER kiwi key=alice-key")
    #expect(aliceOrder.isOK)

    let bob = try server.client(as: "bob")
    // Alice's entries are as missing to bob as entries no one wrote, word for word.
    for id in ["1", "2", "3"] {
      let theirs = try bob.request("DIARY SHOW \(id)")
      let nobodys = try bob.request("DIARY SHOW 9\(id)")
      #expect(theirs.errorCode == .notFound)
      #expect(theirs.message == nobodys.message.replacingOccurrences(of: "9\(id)", with: id))
      #expect(try bob.request("DIARY EDIT \(id) title=mine").errorCode == .notFound)
      #expect(try bob.request("DIARY DELETE \(id)").errorCode == .notFound)
    }
    #expect(try bob.request("DIARY LIST").rows.isEmpty)
    #expect(try bob.request("DIARY LIST").statusFields["total"] == "0")
    // Numbers are per owner: bob's first entry is his number 1, which says nothing of alice's three.
    #expect(try bob.request("DIARY NEW mine body").statusFields["diary"] == "1")
    #expect(try bob.request("DIARY SHOW 1").rows[0]["title"] == "mine")
    #expect(try alice.request("DIARY SHOW 1").rows[0]["title"] == "\(secretTitle)-1")
    #expect(try bob.request("INFO").rows[0]["diary_entries"] == "1")
    #expect(try bob.request("LIST").rows.first { $0.id == "diary" }?["count"] == "1")
    // Products are public, but only their seller changes them.
    #expect(try bob.request("PRODUCT EDIT p1 price=1").errorCode == .denied)
    #expect(try bob.request("PRODUCT DELETE p1").errorCode == .denied)
    #expect(try bob.request("SHOW p1").rows[0]["price"] == "100")
    // Orders are listed to their user; a key is its sender's own.
    #expect(try bob.request("LIST orders").rows.isEmpty)
    let bobOrder = try bob.request("ORDER kiwi key=alice-key")
    #expect(bobOrder.statusFields["order"] != aliceOrder.statusFields["order"], "bob's key is bob's own")
    #expect(try bob.request("LIST orders").rows.map(\.id) == [bobOrder.statusFields["order"]])
    #expect(try alice.request("LIST orders").rows.map(\.id) == [aliceOrder.statusFields["order"]])
    // Claiming alice's name gets bob nothing.
    #expect(try bob.request("HELLO alice").errorCode == .args)
    #expect(try bob.request("WHOAMI").message == "bob role=customer")
    #expect(try bob.request("LOGIN alice not-her-password").errorCode == .auth)
    #expect(try bob.request("WHOAMI").message == "bob role=customer", "a failed LOGIN changes no one")
    // Nothing bob was sent names alice's diary.
    let seen = bob.transcript.joined(separator: "\n")
    #expect(!seen.contains(secretTitle) && !seen.contains(secretBody), "\(seen)")
    // A guest sees neither anyone's diary nor anyone's orders, nor counts of them.
    let guest = try server.client()
    #expect(try guest.request("LIST").rows.allSatisfy { $0.id != "diary" && $0.id != "orders" })
    #expect(try guest.request("INFO").rows[0]["diary_entries"] == "0")
    #expect(try guest.request("DIARY SHOW 1").errorCode == .noAuth)
    // Staff see every order.
    let staff = try server.client(as: "clerk", role: .staff)
    #expect(try staff.request("LIST orders").rows.count == 2)
  }

  @Test("a watch event names who made the change to staff only")
  func eventsNameUsersToStaffOnly() throws {
    let server = try EngineHarness()
    let customer = try server.client(as: "watcher")
    let guest = try server.client()
    let staff = try server.client(as: "clerk", role: .staff)
    for watcher in [customer, guest, staff] { #expect(try watcher.request("WATCH kiwi").isOK) }
    let buyer = try server.client(as: "buyer")
    #expect(try buyer.request("ORDER kiwi").isOK)
    let seenByCustomer = try customer.readEvent()
    let seenByGuest = try guest.readEvent()
    let seenByStaff = try staff.readEvent()
    #expect(seenByCustomer["user"] == nil && seenByGuest["user"] == nil, "\(seenByCustomer) \(seenByGuest)")
    #expect(seenByCustomer["level"] == "9" && seenByCustomer["cause"] == "order")
    #expect(seenByStaff["user"] == "buyer")
  }

  @Test("diary numbers are never given twice, even after the newest is deleted")
  func diaryNumbersNotReused() throws {
    let server = try EngineHarness()
    let client = try server.client(as: "writer")
    #expect(try client.request("DIARY NEW one body").statusFields["diary"] == "1")
    #expect(try client.request("DIARY NEW two body").statusFields["diary"] == "2")
    #expect(try client.request("DIARY DELETE 2").isOK)
    #expect(try client.request("DIARY NEW three body").statusFields["diary"] == "3")
    #expect(try client.request("DIARY LIST").rows.map(\.id) == ["3", "1"])
  }
}
