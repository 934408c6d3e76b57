import StockroomProtocol
import Testing

@testable import StockroomServer

/// REGISTER tells a person their name is taken, but a script cannot use it to list the
/// accounts (issue 20, item 7): past five taken names an address waits a growing gap for each
/// next REGISTER, while other addresses are answered as before. Other loopback addresses
/// (127.0.0.2 and up) stand for other hosts.
@Suite("REGISTER cannot be used to list the accounts")
struct RegisterEnumerationTests {
  @Test("a prober learns five taken names, then is refused; another address registers and is told as before")
  func probingSlowed() throws {
    let server = try TestServer()
    for name in ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hana"] {
      try server.account(name, role: .customer)
    }
    let prober = try LineClient(port: server.port, from: "127.0.0.2")
    _ = try prober.readReply()
    // Pipelined, so all of them reach the server within the first gap (250 ms) of each other.
    let names =
      ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hana"]
      + (0..<12).map { "probe\($0)" }
    try prober.send(names.map { "REGISTER \($0) \"long-enough-pw\"\n" }.joined())
    var answers: [ErrorCode?] = []
    for _ in names { answers.append(try prober.readReply().errorCode) }
    let taken = answers.filter { $0 == .exists }.count
    let refused = answers.filter { $0 == .limit }.count
    #expect(taken >= 5 && taken <= 7, "\(answers)")
    #expect(refused >= 12, "\(answers)")
    #expect(answers.prefix(5).allSatisfy { $0 == .exists }, "a person's first tries are answered")

    let person = try LineClient(port: server.port, from: "127.0.0.3")
    _ = try person.readReply()
    #expect(try person.request("REGISTER alice \"long-enough-pw\"").errorCode == .exists)
    #expect(try person.request("REGISTER ivy \"long-enough-pw\"").isOK)
  }
}
