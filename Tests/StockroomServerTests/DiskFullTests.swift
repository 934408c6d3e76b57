import Foundation
import StockroomProtocol
import Testing

@Suite("A disk that fills up", .timeLimit(.minutes(30)))
struct DiskFullTests {
  @Test("a failed commit answers ERR, refuses writes, keeps serving reads, and writing resumes when space returns")
  func fillTheDisk() throws {
    let data = try DataDirectory().addAccount()
    // A file-size limit on the server process plays a small disk: writes past it fail with EFBIG.
    let (daemon, port) = try data.start(prefix: ["/usr/bin/prlimit", "--fsize=393216:unlimited"])
    let watcher = try LineClient.greeted(port)
    #expect(try watcher.request("WATCH").isOK)
    let writer = try LineClient.greeted(port, user: "writer", role: .staff)
    let body = String(repeating: "가", count: 2000)
    var saved: [String] = []
    var failure: Reply?
    for index in 0..<400 {
      let reply = try writer.request("DIARY NEW \"entry \(index)\" \"\(body)\"")
      if let id = reply.statusFields["diary"], reply.isOK {
        saved.append(id)
      } else {
        failure = reply
        break
      }
    }
    let failed = try #require(failure, "the disk never filled")
    #expect(failed.errorCode == .readOnly, "\(failed.lines)")
    #expect(!saved.isEmpty)

    // Refusing writes, serving reads, saying so in INFO and in the log.
    let info = try writer.request("INFO").rows[0]
    #expect(info["read_only"] == "yes")
    #expect(info["read_only_reason"]?.isEmpty == false)
    #expect(try writer.request("ORDER banana_juice").errorCode == .readOnly)
    #expect(try writer.request("ADD kiwi 1").errorCode == .readOnly)
    #expect(try writer.request("STOCK banana").rows[0]["stock"] == "10")
    #expect(try writer.request("DIARY LIST size=100").statusFields["total"] == String(saved.count))
    try waitUntil { daemon.log.contains(" ERROR commit of ") }
    #expect(try watcher.request("PING").isOK)
    #expect(watcher.takeEvents().isEmpty, "no event for a change that was not saved")

    // Space comes back: the server notices by itself and takes writes again.
    let raise = Process()
    raise.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
    raise.arguments = ["--pid", String(daemon.process.processIdentifier), "--fsize=unlimited:unlimited"]
    try raise.run()
    raise.waitUntilExit()
    #expect(raise.terminationStatus == 0)
    try waitUntil { (try? writer.request("INFO").rows[0]["read_only"]) == "no" }
    // The log arrives through a pipe, a moment after INFO can already tell.
    try waitUntil { daemon.log.contains("writes accepted again") }
    let order = try writer.request("ORDER banana_juice")
    #expect(order.isOK)
    #expect(try watcher.readEvent()["item"] == "banana")
    let after = try writer.request("DIARY NEW late \"after the disk had room\"")
    #expect(after.isOK)

    // What was acknowledged is on disk; what was refused is not.
    daemon.process.terminate()
    _ = try daemon.waitForExit()
    let (restarted, restartedPort) = try data.start()
    let check = try LineClient.greeted(restartedPort, user: "writer", role: .staff)
    let entries = try check.request("DIARY LIST size=100")
    #expect(Int(entries.statusFields["total"] ?? "") == saved.count + 1)
    for id in saved { #expect(try check.request("DIARY SHOW \(id)").isOK) }
    #expect(try check.request("STOCK banana").rows[0]["stock"] == "8")
    restarted.process.terminate()
  }
}
