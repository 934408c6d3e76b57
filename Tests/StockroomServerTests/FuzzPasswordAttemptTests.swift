import Foundation
import StockroomProtocol
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The fuzzer's model of the fifth LOGIN or PASSWD on a connection, as it went wrong in issue 19
/// (seed 0x1c980034bbd1a377, w24c17): four attempts failed, and the fifth logged in, because
/// another connection had registered the name meanwhile; the fuzzer called the `OK login` that
/// answered it a failure, since it expected the fifth attempt to fail and close the connection.
@Suite("The fuzzer's fifth password attempt", .timeLimit(.minutes(30)))
struct FuzzPasswordAttemptTests {
  @Test("a fifth attempt that logs in is answered and the conversation goes on")
  func fifthAttemptSucceeds() throws {
    signal(SIGPIPE, SIG_IGN)
    let server = try TestServer()
    // What another fuzzing connection's REGISTER 민지 pw-민지-stockroom did in the failing run.
    try server.account("민지", role: .customer)
    let checker = try server.client()
    let maxLine = Int(try checker.request("INFO").rows.first?["max_line"] ?? "") ?? 65536
    let lines =
      ["PING", "LOGIN alice wrong-passphrase", "STOCK banana", "LOGIN bob \"also wrong\"", "LOGIN carol x"]
      + ["LOGIN dave \"wrong again\"", "LOGIN 민지 pw-민지-stockroom"]
    let script = FuzzScript(label: "w24c17", lines: lines, maxLine: maxLine)
    try #require(script.expectation.ending == .mayClose(index: 6, kind: .passwordAttempt))
    let outcome = FuzzConnection(script: script, port: server.port).run()
    #expect(outcome.problems == [])
    #expect(outcome.replies == 7)
  }
}
