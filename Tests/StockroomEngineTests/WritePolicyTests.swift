import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

/// The command table's `.write` flag is policy (issue 21): while the store refuses changes,
/// REGISTER, PASSWD, USER ADD and USER PASSWD are refused before any Argon2id work is queued
/// for them, instead of hashing a password for a change that cannot be made.
@Suite("A store that refuses changes refuses them before password work", .timeLimit(.minutes(30)))
struct WritePolicyTests {
  @Test("REGISTER, PASSWD, USER ADD and USER PASSWD on an unreachable store queue no password work")
  func refusedBeforeHashing() throws {
    let server = try EngineHarness()
    let admin = try server.client(as: "root", role: .admin)
    let customer = try server.client(as: "ann", role: .customer)
    let guest = try server.client()
    // The pool counts a job once it returns, which can be after its reply was sent: the logins
    // above are counted once it is idle.
    let pool = server.handler.credentials
    try waitUntil { pool.counters.queued == 0 && pool.counters.running == 0 }
    let checksBefore = pool.counters
    server.shop.locked.sharedLinkLost("the test took the store away")

    let replies = [
      try guest.request("REGISTER newcomer \"a long enough password\""),
      try customer.request("PASSWD \"ann's old password\" \"a new long password\""),
      try admin.request("USER ADD bob \"bob's long password\""),
      try admin.request("USER PASSWD ann \"another long password\""),
    ]
    for reply in replies {
      #expect(reply.errorCode == .unavailable, "\(reply.lines)")
      #expect(reply.message.contains("the test took the store away"), "\(reply.message)")
    }
    try waitUntil { pool.counters.queued == 0 && pool.counters.running == 0 }
    let checksAfter = pool.counters
    #expect(checksAfter == checksBefore, "password work queued: \(checksBefore) then \(checksAfter)")
    // Reads and LOGIN still work: a person can still look, and log in to look at their own.
    #expect(try guest.request("STOCK banana").isOK)
    #expect(try admin.request("USER LIST").isOK)
  }
}
