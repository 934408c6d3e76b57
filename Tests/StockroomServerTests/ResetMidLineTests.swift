import Foundation
import StockroomTransport
import Testing

@testable import StockroomServer

/// A client that resets with part of a request line sent: the server must give its place back at
/// once. With a line longer than one read takes, the Dispatch backend heard the reset once, read
/// part of what was left and then nothing more (issue 19: after a fuzz run its clients came back
/// to 1 only ~28 s later, as each dead connection's line timeout fired and its ERR TIMEOUT could
/// not be written).
@Suite("A reset in the middle of a request line", .timeLimit(.minutes(30)))
struct ResetMidLineTests {
  @Test(
    "the connection is let go at once, not when its line times out",
    arguments: IOBackend.allCases, [9, 60_000])
  func placeFreedAtOnce(io: IOBackend, partial: Int) throws {
    // A line timeout far beyond the wait below: only the reset itself can free the place.
    let server = try TestServer {
      $0.io = io
      $0.lineTimeout = 3600
    }
    let checker = try server.client()
    func clients() throws -> Int { Int(try checker.request("INFO clients").rows.first?["clients"] ?? "") ?? -1 }
    let before = try clients()
    // Each greeted, so counted; each resets with most of its half line still unread by the server
    // (the line is under --max-line, and several times what the server reads at once).
    for _ in 0..<8 {
      let client = try server.client()
      try client.send("PING\nSTOCK " + String(repeating: "b", count: partial - 6))
      client.resetNow()
    }
    try waitUntil(timeout: 60) { try clients() == before }
  }
}
