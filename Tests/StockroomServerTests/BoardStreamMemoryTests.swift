import Foundation
import StockroomSystem
import StockroomTransport
import Synchronization
import Testing

/// Stalled board streams cannot grow the server without bound (issue 41, finding 2): every one
/// of the 64 `/events` places held by browsers that read the snapshot and then nothing, while
/// the shop's stock moves as fast as one client can move it. A stream holds at most
/// `EventStream.mailboxLimit` undelivered events, by reference, and frames them a chunk at a
/// time; past the limit its events are let go at once and it is closed as too slow when it
/// next reads.
@Suite("Stalled board streams have a memory bound", .timeLimit(.minutes(30)))
struct BoardStreamMemoryTests {
  /// Documented in docs/security.md ("Fair shares"). Measured: 50 MB; 156 MB when each stream
  /// framed every event it took at once and kept 100,000 undelivered.
  static let boundKiB = 96 * 1024

  @Test("64 stalled streams from 8 hosts and 200,000 stock changes: RSS stays under 96 MB, a reading stream stays")
  func stalledStreamsAreBounded() throws {
    // One client makes every change, standing for a busy shop: no per-address order rate.
    let daemon = try DaemonProcess([
      "--port", "0", "--memory", "--http", "127.0.0.1:0", "--initial-stock", "100000000", "--order-rate", "0",
      "--watch-timeout", "3600",
    ])
    defer { daemon.process.terminate() }
    let port = try daemon.port()
    var boardPort: UInt16?
    try waitUntil {
      boardPort = daemon.log.firstMatch(of: /board on http:\/\/127\.0\.0\.1:(\d+)\//).flatMap { UInt16($0.1) }
      return boardPort != nil
    }
    let board = try #require(boardPort)
    let stalled = try (0..<(HTTPLimits.streams - 1)).map { index in
      let stream = try EventStreamClient(
        port: board, receiveBuffer: 4096, from: "127.0.0.\(2 + index / HTTPLimits.streamsPerAddress)")
      _ = try stream.next()
      return stream
    }
    // The real user's board, on 127.0.0.1, reads everything.
    // Read on its own thread only, until closed below.
    nonisolated(unsafe) let reader = try EventStreamClient(port: board)
    _ = try reader.next()
    let readerEvents = Atomic<Int>(0)
    let readerEnded = Atomic<Bool>(false)
    let readerDone = DispatchSemaphore(value: 0)
    Thread {
      defer {
        readerEnded.store(true, ordering: .releasing)
        readerDone.signal()
      }
      while (try? reader.next("stock")) != nil { readerEvents.add(1, ordering: .relaxed) }
    }.start()
    let orders = try LineClient(port: port, receiveTimeout: 120)
    _ = try orders.readReply()
    var highest = 0
    var sent = 0
    for _ in 0..<200 {
      try orders.send(String(repeating: "ORDER banana\n", count: 1000))
      for _ in 0..<1000 { #expect(try orders.readReply().isOK) }
      sent += 1000
      highest = max(highest, ProcessMemory.residentKiB(of: daemon.process.processIdentifier) ?? 0)
      if highest > Self.boundKiB { break }
      // The reading board is kept within half its mailbox of the orders, however loaded the
      // machine: it stands for a browser that keeps up, which must never be cut. The stalled
      // streams read nothing, so each still fills its mailbox and is cut.
      try waitUntil(timeout: 120) {
        readerEnded.load(ordering: .acquiring)
          || readerEvents.load(ordering: .relaxed) >= sent - EventStream.mailboxLimit / 2
      }
      let cut = readerEnded.load(ordering: .acquiring)
      #expect(!cut, "the reading board was cut after \(sent) orders")
      if cut { break }
    }
    #expect(highest <= Self.boundKiB, "RSS reached \(highest / 1024) MB with 63 stalled streams")
    // The reading board saw the changes and was never cut.
    let seen = readerEvents.load(ordering: .relaxed)
    #expect(seen >= EventStream.mailboxLimit, "the reading board saw \(seen) changes")
    _ = stalled
    reader.closeNow()
    readerDone.wait()
  }
}
