import Foundation
import StockroomDomain
import StockroomEngine
import StockroomProtocol
import Testing

@testable import StockroomEngineHarness
@testable import StockroomServer

#if canImport(Glibc)
  import Glibc
#endif

/// A watcher that stops reading is cut off at the output's hard limit; what it never received is
/// counted, so that `events_dropped` says how much a slow watcher lost.
@Suite("A watcher cut off for not reading: the events it lost are counted", .timeLimit(.minutes(30)))
struct WatcherOverflowTests {
  /// Events of one length (order ids 100 to 999), so that "ten and a half sent" is exact.
  private func event(_ number: Int) -> WatchEvent {
    .stock(
      StockEvent(item: "banana", name: "Banana", level: 5, change: -1, cause: .order(id: 100 + number, user: "ann")))
  }

  @Test("closing at the hard limit counts the events not yet begun, none of those sent")
  func lostEventsCounted() {
    let host = FakeConnectionHost()
    let limits = ConnectionLimits(
      maxLine: 64, outputHighWater: 1 << 20, outputHardLimit: 4096, idleTimeout: 600, lineTimeout: 30)
    var core = ConnectionCore(limits: limits, now: 0)
    core.start(rejection: nil, now: 0)
    _ = core.takeOutput(now: 0, host: host)
    core.received(Array("WATCH\n".utf8), now: 0, host: host)
    #expect(String(decoding: core.takeOutput(now: 0, host: host), as: UTF8.self) == "OK watching\n")

    // Ten events go out whole, and half of the eleventh: the client has those (or part of one).
    var made = 0
    for _ in 0..<11 {
      made += 1
      core.eventsArrived([EncodedEvent(event(made))], host: host)
    }
    let lineLength = core.withPendingOutput { $0.count } / 11
    let sent = lineLength * 10 + lineLength / 2
    core.outputSent(sent, now: 0)
    core.outputBlocked(now: 0)
    // Then it stops reading, and events pile up until the limit.
    while core.phase != .closed {
      made += 1
      core.eventsArrived([EncodedEvent(event(made))], host: host)
    }
    guard case .outputOverflow(let bytes, let events) = core.closeReason else {
      Issue.record("closed for another reason: \(core.closeReason)")
      return
    }
    #expect(bytes == 4096)
    #expect(events == made - 11, "made \(made), of which 10 sent whole and one in part")
    #expect(events > 40)
    #expect(core.closeReason.description.hasSuffix("; \(made - 11) events never sent"))
  }
}

/// The same over real TCP: a watcher with a tiny receive buffer that never reads, while another
/// client orders, until the server cuts it off; INFO's `events_dropped` then counts what it lost.
@Suite("A silent watcher's lost events reach INFO", .timeLimit(.minutes(30)))
struct WatcherOverflowServerTests {
  /// A socket with a tiny receive buffer that has sent `WATCH banana` and will never read.
  private func silentWatcher(port: UInt16) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    try #require(fd >= 0)
    var small: Int32 = 4096
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    let watch = Array("WATCH banana\n".utf8)
    guard Loopback.connect(fd, port: port) == 0,
      watch.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == watch.count
    else {
      close(fd)
      throw LineClient.Failure(description: "the watcher could not connect and send WATCH")
    }
    return fd
  }

  @Test("events_dropped and slow_consumer_disconnects move when a silent watcher is cut off")
  func countedInInfo() throws {
    // One client stands for the many that make a busy shop's events: no per-address order rate.
    let server = try TestServer(initialStock: 1_000_000) {
      $0.outputHardLimit = 64 * 1024
      $0.orderRate = 0
    }
    let fd = try silentWatcher(port: server.port)
    defer { close(fd) }

    let client = try server.client()
    let batch = String(repeating: "ORDER banana\n", count: 500)
    var orders = 0
    var stats: Row?
    // The kernel's buffers take a few MB before the server's own output grows; bounded, so a
    // server that never cuts the watcher off fails here instead of running on.
    while orders < 400_000 {
      try client.send(batch)
      for _ in 0..<500 { #expect(try client.readReply().isOK) }
      orders += 500
      stats = try client.request("INFO stats").rows.first
      if stats?["slow_consumer_disconnects"] != "0" { break }
    }
    #expect(stats?["slow_consumer_disconnects"] == "1", "after \(orders) orders: \(String(describing: stats))")
    let dropped = Int(stats?["events_dropped"] ?? "") ?? 0
    // At least what the 64 KiB of unsent output held, a line of some 80 bytes each.
    #expect(dropped > 64 * 1024 / 100, "events_dropped=\(dropped)")
    #expect(dropped < orders)
  }

  @Test("a watcher that takes none of its output for --watch-timeout is cut off well below the hard limit")
  func watchTimeout() throws {
    // A hard limit these orders cannot reach: only the watch timeout can close the watcher.
    let server = try TestServer(initialStock: 1_000_000) {
      $0.outputHardLimit = 256 << 20
      $0.watchTimeout = 1
      $0.orderRate = 0
    }
    let fd = try silentWatcher(port: server.port)
    defer { close(fd) }

    let client = try server.client()
    let batch = String(repeating: "ORDER banana\n", count: 500)
    var orders = 0
    func disconnects() throws -> String? { try client.request("INFO stats").rows.first?["slow_consumer_disconnects"] }
    // Enough events to fill the kernel's buffers many times over (about 8 MB), then no more.
    while orders < 100_000, try disconnects() == "0" {
      try client.send(batch)
      for _ in 0..<500 { #expect(try client.readReply().isOK) }
      orders += 500
    }
    try waitUntil(timeout: 60) { try disconnects() == "1" }
    let stats = try client.request("INFO stats").rows.first
    let dropped = Int(stats?["events_dropped"] ?? "") ?? 0
    #expect(dropped > 0, "events_dropped=\(dropped)")
    #expect(dropped < orders)
    try waitUntil { try client.request("INFO clients").rows.first?["clients"] == "1" }
  }
}
