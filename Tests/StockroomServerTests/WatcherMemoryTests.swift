import Foundation
import StockroomSystem
import Synchronization
import Testing

/// Stalled watchers cannot grow the server without bound (issue 41, finding 2): one host with its
/// 256 watchers that never read, and a guest ordering a hundred products in one line as fast as
/// it can. Each watcher is bounded on its own, and all of them together by the server's budget for
/// unsent output, which cuts the furthest behind of the source holding most, never a watcher
/// that reads.
@Suite("Stalled watchers from one host have a total memory bound", .timeLimit(.minutes(30)))
struct WatcherMemoryTests {
  /// Documented in docs/security.md: a server stays under this however its watchers stall.
  static let boundKiB = 512 * 1024

  @Test(
    "256 stalled watchers and a guest ordering 100 products a line: RSS stays under 512 MB, a reading watcher stays")
  func stalledWatchersAreBounded() throws {
    // The guest's orders come from one address; with the rate per address (OrderRateTests) an
    // attacker would spread them over several, so the rate is off here.
    let daemon = try DaemonProcess(["--port", "0", "--memory", "--max-clients", "2048", "--order-rate", "0"])
    defer { daemon.process.terminate() }
    let port = try daemon.port()
    let seller = try LineClient(port: port, receiveTimeout: 60, from: "127.0.0.5")
    _ = try seller.readReply()
    #expect(try seller.request("REGISTER stall-seller \"a-long-password-1\"").isOK)
    var products: [String] = []
    for index in 0..<100 {
      let reply = try seller.request("PRODUCT NEW name=\"Stall \(index)\" price=100 stock=1000000000")
      products.append(try #require(reply.statusFields["product"], "\(reply.lines)"))
    }
    let stalled = try (0..<256).map { _ in
      let watcher = try LineClient(port: port, receiveTimeout: 60, receiveBuffer: 4096, from: "127.0.0.2")
      _ = try watcher.readReply()
      try watcher.send("WATCH\n")
      return watcher
    }
    // The real user's watcher, on another host, reads everything.
    let reader = try LineClient(port: port, receiveTimeout: 60, from: "127.0.0.1")
    _ = try reader.readReply()
    #expect(try reader.request("WATCH").isOK)
    let readerOpen = Atomic<Bool>(true)
    let readerDone = DispatchSemaphore(value: 0)
    Thread {
      defer { readerDone.signal() }
      while (try? reader.readLine()) != nil {}
      readerOpen.store(false, ordering: .relaxed)
    }.start()
    let guest = try LineClient(port: port, receiveTimeout: 120, from: "127.0.0.3")
    _ = try guest.readReply()
    let order = "ORDER " + products.map { "\($0) 1" }.joined(separator: " ")
    var highest = 0
    let observer = try LineClient(port: port, receiveTimeout: 60, from: "127.0.0.4")
    _ = try observer.readReply()
    // Far more than it takes to fill every watcher's own limit: without a total bound the
    // server would hold 256 of them.
    for round in 1...1_500 {
      #expect(try guest.request(order).isOK)
      guard round % 10 == 0 else { continue }
      highest = max(highest, ProcessMemory.residentKiB(of: daemon.process.processIdentifier) ?? 0)
      if highest > Self.boundKiB { break }
      if try observer.request("INFO").rows[0]["watchers"] == "1" { break }
    }
    #expect(highest <= Self.boundKiB, "RSS reached \(highest / 1024) MB with 256 stalled watchers")
    let readerStayed = readerOpen.load(ordering: .relaxed)
    #expect(readerStayed, "the watcher that reads was cut")
    #expect(try observer.request("INFO").rows[0]["watchers"] == "1", "stalled watchers remain")
    _ = stalled
    reader.closeNow()
    readerDone.wait()
  }
}
