import Foundation
import StockroomProtocol
import StockroomTestSupport
import Synchronization
import Testing

@testable import StockroomEngineHarness
@testable import StockroomServer

#if canImport(Glibc)
  import Glibc
#endif

/// History read from the database (STOCKTAKE's ledger, LIST orders) is read beside the event
/// loops: a read the database holds up keeps only its own connection waiting, and replies on
/// that connection keep their order.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct HistoryReadTests {
  /// Whether `fd` has bytes to read now.
  private func readable(_ fd: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) > 0
  }

  /// A server on one loop (so both clients are on the one thread that must not wait) whose
  /// start-up check of the ledger is done, with staff member alice logged in and bob greeted.
  private func serverWithTwoClients(
    _ data: DataDirectory
  ) throws -> (daemon: DaemonProcess, alice: LineClient, bob: LineClient) {
    try data.addAccount("alice", role: .staff)
    let (daemon, port) = try data.start(["--loops", "1"])
    // The whole-store check after start reads the ledger too; it must be done before the lock.
    #expect(daemon.logShows("verified "))
    let alice = try PostgresShop.client(port, as: "alice")
    // Short enough that a loop held up by the read fails a test rather than SQLite's wait.
    let bob = try LineClient(port: port, receiveTimeout: 5)
    _ = try bob.readReply()
    return (daemon, alice, bob)
  }

  @Test(
    "a STOCKTAKE held up by a locked database keeps neither PING nor STOCK on its loop waiting, and answers in full once the lock goes",
    arguments: StoreKind.allCases)
  func lockedHistoryLeavesTheLoopServing(store: StoreKind) throws {
    let data = try DataDirectory(store: store)
    let (daemon, alice, bob) = try serverWithTwoClients(data)
    defer { daemon.process.terminate() }
    let unlocked = try alice.request("STOCKTAKE banana")
    #expect(unlocked.isOK, "\(unlocked.lines)")

    let lock = try HistoryLock(data)
    defer { lock.release() }
    try alice.send("STOCKTAKE banana\n")
    #expect(
      try lock.readerWaits(in: daemon.process.processIdentifier), "the server's read of the ledger waits for the lock")
    let pong = try bob.request("PING")
    #expect(pong.isOK && pong.message == "PONG", "\(pong.lines)")
    let stock = try bob.request("STOCK banana")
    #expect(stock.rows.first?.id == "banana", "\(stock.lines)")
    #expect(!readable(alice.fd), "STOCKTAKE is still waiting for the database")

    lock.release()
    let locked = try alice.readReply()
    #expect(locked.lines == unlocked.lines, "the same full answer once the lock went")
    #expect(try alice.request("PING after").message == "after", "the connection takes requests again")
  }

  /// epoll reports the reset of a socket the loop is not reading; with `--io dispatch` the read
  /// source watches for it while reading waits (`DispatchDescriptor`), else the connection would
  /// hold its slot until the database let the read go.
  @Test("a client that resets while its STOCKTAKE waits for a locked database is gone at once, not when the lock goes")
  func resetWhileWaitingIsNoticed() throws {
    let data = try DataDirectory()
    let (daemon, alice, bob) = try serverWithTwoClients(data)
    defer { daemon.process.terminate() }
    #expect(try bob.request("INFO clients").rows.first?["clients"] == "2")

    let lock = try HistoryLock(data)
    defer { lock.release() }
    try alice.send("STOCKTAKE banana\n")
    #expect(
      try lock.readerWaits(in: daemon.process.processIdentifier), "the server's read of the ledger waits for the lock")
    alice.resetNow()
    // Before SQLite gives up on the read marks (about ten seconds, SQLITE_PROTOCOL), after which
    // the read would fail and the connection close anyway; the lock is held until this test
    // ends. Generous, since CI runs this beside the rest of the suite on two cores.
    let deadline = Date().addingTimeInterval(7)
    var clients: String?
    repeat {
      clients = try bob.request("INFO clients").rows.first?["clients"]
      if clients == "1" { break }
      usleep(10_000)
    } while Date() < deadline
    #expect(clients == "1", "alice's connection still counted 7 s after her reset; the server's log:\n\(daemon.log)")
  }

  @Test("pipelined STOCKTAKE, PING, LIST and LIST orders: replies in request order, each counted once by its result")
  func pipelinedRepliesKeepTheirOrder() throws {
    let data = try DataDirectory().addAccount()
    let server = try EngineHarness(data: data)
    let bob = try server.client(as: "bob")
    #expect(try bob.request("ORDER banana").isOK)
    let alice = try server.client(as: "alice", role: .staff)

    try alice.send("STOCKTAKE banana\nPING one\nSTOCKTAKE nothing\nPING two\nLIST orders page=2 size=1\nPING three\n")
    let replies = try (0..<6).map { _ in try alice.readReply() }
    #expect(replies[0].isOK && replies[0].rows.first?.id == "banana", "\(replies[0].lines)")
    #expect(replies[0].rows.dropFirst().first?["cause"] == "order", "the ledger, newest first: bob's order")
    #expect(replies[1].message == "one")
    #expect(replies[2].errorCode == .notFound)
    #expect(replies[3].message == "two")
    // Page 2 of one order is past the end: refused, from the history pool, still in its place.
    #expect(replies[4].errorCode == .invalid && replies[4].message.contains("past the last page, 1"))
    #expect(replies[5].message == "three")

    // A customer's LIST counts its own orders in the database; LIST orders lists them there.
    try bob.send("LIST\nPING four\nLIST orders\nPING five\n")
    let own = try (0..<4).map { _ in try bob.readReply() }
    #expect(own[0].rows.first { $0.id == "orders" }?["count"] == "1", "\(own[0].lines)")
    #expect(own[1].message == "four")
    #expect(own[2].rows.map { $0["kind"] } == ["order"], "\(own[2].lines)")
    #expect(own[3].message == "five")

    var counted: [String: Int] = [:]
    server.stats.commands.each { command, code, count in
      guard let command, count > 0 else { return }
      counted["\(command) \(code?.rawValue ?? "ok")"] = count
    }
    #expect(counted["STOCKTAKE ok"] == 1)
    #expect(counted["STOCKTAKE NOTFOUND"] == 1)
    #expect(counted["LIST ok"] == 2)
    #expect(counted["LIST INVALID"] == 1)
    #expect(counted["PING ok"] == 5)
  }
}
