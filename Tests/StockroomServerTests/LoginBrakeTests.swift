import StockroomEngine
import StockroomSystem
import StockroomTransport
import Testing

@testable import StockroomServer

/// Past 100 failures on one name from everywhere, at most one guess at it a second is checked,
/// however many hosts guess (issue 41, finding 6: 200 hosts had 660 checked in 40 s, the brake
/// being a flat wait that ran in parallel). Counted against the seconds that passed on the
/// throttle's own clock: an injected one here, the server's in the socket test.
@Suite("The per-name brake: one checked guess a second", .timeLimit(.minutes(30)))
struct LoginBrakeTests {
  static let second: UInt64 = 1_000_000_000
  static func source(_ host: String) -> PeerSource { PeerSource(SocketAddress(host: host, port: 1)!) }

  /// Failures on `name` from 127.0.2.x, enough for the brake.
  static func brake(_ throttle: LoginThrottle, _ name: String, now: UInt64) {
    for host in 0..<LoginThrottle.brakeFailures { throttle.failed(name, from: source("127.0.2.\(host)"), now: now) }
  }

  @Test("200 hosts trying every 100 ms for 30 s of the throttle's clock: checks start at most once a second")
  func twoHundredHostsInjectedClock() {
    let throttle = LoginThrottle()
    let start = 1_000 * Self.second
    Self.brake(throttle, "realuser", now: start)
    var checks: [(end: UInt64, host: Int)] = []
    var reported = 0
    let end = start + 30 * Self.second
    var now = start
    while now < end {
      // Each check fails 50 ms after it starts; the throttle hears it then, in time order.
      checks.sort { $0.end < $1.end }
      while reported < checks.count, checks[reported].end <= now {
        throttle.failed("realuser", from: Self.source("127.0.1.\(checks[reported].host)"), now: checks[reported].end)
        reported += 1
      }
      for host in 1...200 {
        let decision = throttle.reserve("realuser", from: Self.source("127.0.1.\(host)"), now: now)
        if case .go(let wait) = decision, now + wait < end {
          checks.append((now + wait + Self.second / 20, host))
        }
      }
      now += Self.second / 10
    }
    #expect(checks.count <= 31, "\(checks.count) checks started in 30 s")
    #expect(checks.count >= 20, "the name is slowed, not locked: \(checks.count) checks in 30 s")
  }

  @Test("200 hosts guessing at one name over real sockets: checks ≤ seconds elapsed + 1; the owner logs in meanwhile")
  func twoHundredHostsRealServer() throws {
    let server = try TestServer { $0.maxClients = 2048 }
    try server.account("realuser", role: .customer)
    let throttle = server.server.throttle
    let pool = server.server.credentials
    let password = LineClient.password(for: "realuser")
    Self.brake(throttle, "realuser", now: EventLoop.clock())
    // The owner's usual device.
    let owner = try LineClient(port: server.port, receiveTimeout: 60, from: "127.0.0.1")
    _ = try owner.readReply()
    #expect(try owner.request("LOGIN realuser \(password)").message.hasPrefix("login realuser"))
    try waitUntil { pool.counters.queued == 0 && pool.counters.running == 0 }
    let before = pool.counters.completed
    let began = EventLoop.clock()

    var guessers: [LineClient] = []
    for host in 1...200 {
      let guesser = try LineClient(port: server.port, receiveTimeout: 60, from: "127.0.1.\(host)")
      _ = try guesser.readReply()
      try guesser.send("LOGIN realuser \"guess-number-\(host)\"\n")
      guessers.append(guesser)
    }
    // While every turn is taken, the owner still gets in.
    let again = try LineClient(port: server.port, receiveTimeout: 60, from: "127.0.0.1")
    _ = try again.readReply()
    let reply = try again.request("LOGIN realuser \(password)")
    #expect(reply.message.hasPrefix("login realuser"), "\(reply.lines)")
    var wrong = 0
    for guesser in guessers {
      let answer = try guesser.readReply()
      #expect(answer.errorCode == .auth, "\(answer.lines)")
      if answer.message.hasPrefix("wrong name or password") { wrong += 1 }
      guesser.closeNow()
    }
    try waitUntil { pool.counters.queued == 0 && pool.counters.running == 0 }
    let seconds = Int((EventLoop.clock() - began) / Self.second)
    let checks = pool.counters.completed - before - 1
    #expect(checks == wrong, "each checked guess was answered wrong")
    #expect(wrong >= 1, "some guesses were checked")
    #expect(checks <= seconds + 1, "\(checks) guesses checked in \(seconds) s")
  }
}
