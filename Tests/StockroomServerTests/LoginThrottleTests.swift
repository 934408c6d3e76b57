import StockroomEngine
import StockroomSystem
import Testing

@testable import StockroomServer

/// The login throttle's rules on its own (issue 20, item 2): failures count per name and
/// address, a refusal never asks for more than 30 s, and the per-name brake slows without
/// locking out.
@Suite("The login throttle")
struct LoginThrottleTests {
  static let second: UInt64 = 1_000_000_000
  static func source(_ host: String) -> PeerSource { PeerSource(SocketAddress(host: host, port: 1)!) }

  @Test("failures from one address slow that address only")
  func perAddress() {
    let throttle = LoginThrottle()
    let attacker = Self.source("127.0.0.1")
    let owner = Self.source("127.0.0.2")
    for _ in 0..<20 { throttle.failed("realuser", from: attacker, now: 1) }
    guard case .refuse = throttle.reserve("realuser", from: attacker, now: 2) else {
      Issue.record("the failing address is not slowed")
      return
    }
    #expect(throttle.reserve("realuser", from: owner, now: 2) == .go(afterNanoseconds: 0))
  }

  @Test("however many attempts wait in parallel, a refusal asks for at most 30 s")
  func retryBounded() {
    let throttle = LoginThrottle()
    let attacker = Self.source("127.0.0.1")
    var now = Self.second
    var longest = 0
    for round in 0..<400 {
      switch throttle.reserve("realuser", from: attacker, now: now) {
      case .go: throttle.failed("realuser", from: attacker, now: now)
      case .refuse(let seconds): longest = max(longest, seconds)
      }
      if round % 4 == 0 { now += Self.second / 10 }
    }
    #expect(longest > 0, "some attempts were refused")
    #expect(longest <= 30)
  }

  @Test("past 100 failures on a name from everywhere, the right password still gets in after the brake")
  func brakeSlowsWithoutLocking() {
    let throttle = LoginThrottle()
    for host in 0..<120 { throttle.failed("realuser", from: Self.source("127.0.1.\(host)"), now: 1) }
    #expect(throttle.reserve("realuser", from: Self.source("127.0.0.2"), now: 2) == .go(afterNanoseconds: Self.second))
    throttle.succeeded("realuser", from: Self.source("127.0.0.2"))
    #expect(throttle.reserve("realuser", from: Self.source("127.0.0.2"), now: 3) == .go(afterNanoseconds: 0))
  }

  @Test("an address's penalty is its failures on any name, forgotten after 15 minutes")
  func penalty() {
    let throttle = LoginThrottle()
    let flooder = Self.source("127.0.0.1")
    for _ in 0..<5 { throttle.checkFailed(from: flooder, now: 1) }
    #expect(throttle.penalty(of: flooder, now: 2) == 5)
    #expect(throttle.penalty(of: Self.source("127.0.0.2"), now: 2) == 0)
    #expect(throttle.penalty(of: flooder, now: 2 + LoginThrottle.memory) == 0)
  }
}
