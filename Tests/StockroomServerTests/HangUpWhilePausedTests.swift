import Foundation
import StockroomSystem
import StockroomTransport
import Synchronization
import Testing

@testable import StockroomServer

#if canImport(Glibc)
  import Glibc
#endif

/// A peer that hangs up while the server is not reading it, with requests it sent still unread:
/// epoll reports the hang-up whatever the interest; the Dispatch backend used to hear nothing
/// until it read again, so the dead connection kept its place among --max-clients (issue 19:
/// the Dispatch fuzzer turned away 3,491 connections to epoll's 125).
@Suite("A hang-up while reading is paused", .timeLimit(.minutes(30)))
struct HangUpWhilePausedTests {
  /// Polls `condition` until it holds or `seconds` pass.
  private func eventually(_ seconds: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      usleep(2000)
    }
    return condition()
  }

  /// Stops reading at its first input without taking it, as a connection waiting for a
  /// password check or a commit does.
  private final class PausingReader: EventLoop.Handler, @unchecked Sendable {
    let loop: EventLoop
    let fd: Int32
    let paused = Atomic<Bool>(false)
    /// Why reading could not be turned off, if it could not.
    let refused = Mutex<String?>(nil)
    let heardHangUp = Atomic<Bool>(false)
    init(loop: EventLoop, fd: Int32) {
      self.loop = loop
      self.fd = fd
    }
    func ready(_ readiness: Readiness) {
      if readiness.contains(.hangUp) {
        heardHangUp.store(true, ordering: .releasing)
        loop.deregister(fd)
        return
      }
      do {
        try loop.change(fd, interest: [])
      } catch {
        refused.withLock { $0 = "change: \(error)" }
      }
      paused.store(true, ordering: .releasing)
    }
    func loopStopped() {}
  }

  @Test("a descriptor that stopped reading with input unread hears its peer hang up", arguments: IOBackend.allCases)
  func loopTellsHangUp(io: IOBackend) throws {
    let loop = EventLoop(name: "test.paused-hangup", io: io)
    defer { loop.stop() }
    var ends: [Int32] = [0, 0]
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
    defer { close(ends[0]) }
    try Syscall.setNonBlocking(ends[0])
    let reader = PausingReader(loop: loop, fd: ends[0])
    try loop.runAndWait { try loop.register(reader.fd, reader, interest: .read) }
    var byte: UInt8 = 1
    #expect(write(ends[1], &byte, 1) == 1)
    #expect(eventually { reader.paused.load(ordering: .acquiring) })
    #expect(reader.refused.withLock { $0 } == nil)
    // A few turns of the loop, for Dispatch to see the unread byte again with reading off (the
    // moment it used to stop watching).
    for _ in 0..<3 {
      let turned = Atomic<Bool>(false)
      loop.execute { turned.store(true, ordering: .relaxed) }
      #expect(eventually { turned.load(ordering: .relaxed) })
    }
    close(ends[1])
    #expect(eventually { reader.heardHangUp.load(ordering: .acquiring) })
  }

  @Test(
    "a client that resets while its LOGIN waits out the throttle gives its place back before the LOGIN ends",
    arguments: IOBackend.allCases)
  func placeFreedAtOnce(io: IOBackend) throws {
    let server = try TestServer { $0.io = io }
    let checker = try server.client()
    func figures() throws -> (clients: Int, failedLogins: Int) {
      let row = try checker.request("INFO clients stats").rows.first
      return (Int(row?["clients"] ?? "") ?? -1, Int(row?["failed_logins"] ?? "") ?? -1)
    }
    // Four failures on the name: the next attempt on it waits 2 s before it is even checked.
    let guesser = try server.client()
    for _ in 0..<4 {
      let reply = try guesser.request("LOGIN nobody \"wrong password\"")
      try #require(reply.lines.first?.hasPrefix("ERR AUTH ") == true, "\(reply.lines)")
    }
    let before = try figures()
    try #require(before.failedLogins == 4)
    let doomed = try server.client()
    // The PING's answer comes once the LOGIN, read with it, has started waiting. The requests
    // behind it are more than one read takes: the rest stay unread in the kernel, where the
    // Dispatch backend stopped watching the socket.
    try doomed.send("PING\nLOGIN nobody \"wrong password\"\n" + String(repeating: "PING\n", count: 12_000))
    #expect(try doomed.readReply().message == "PONG")
    _ = try figures()
    doomed.resetNow()
    var now = try figures()
    #expect(
      eventually {
        now = (try? figures()) ?? now
        return now.clients == before.clients
      })
    // The LOGIN was still waiting when the place came back: the reset, not its end, freed it.
    #expect(now.failedLogins == 4, "clients=\(now.clients), failed_logins=\(now.failedLogins)")
  }
}
