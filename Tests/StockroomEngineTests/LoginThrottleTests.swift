import StockroomEngine
import StockroomSystem
import Testing

/// The login throttle's rules on its own (issue 20, item 2): failures count per name and
/// address, a refusal never asks for more than 30 s, and the per-name brake slows without
/// locking out.
@Suite("The login throttle", .timeLimit(.minutes(30)))
struct LoginThrottleTests {
  static let second: UInt64 = 1_000_000_000
  static func source(_ host: String) -> PeerSource {
    PeerSource(bytes: host.split(separator: ".").compactMap { UInt8($0) })
  }

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
      case .refuse(let seconds), .braked(let seconds): longest = max(longest, seconds)
      }
      if round % 4 == 0 { now += Self.second / 10 }
    }
    #expect(longest > 0, "some attempts were refused")
    #expect(longest <= 30)
  }

  @Test(
    "past 100 failures on a name from everywhere, attempts take turns a second apart; the owner's login keeps the brake and later skips it"
  )
  func brakeSlowsWithoutLocking() {
    let throttle = LoginThrottle()
    for host in 0..<120 { throttle.failed("realuser", from: Self.source("127.0.1.\(host)"), now: 1) }
    let owner = Self.source("127.0.0.2")
    #expect(throttle.reserve("realuser", from: owner, now: 2) == .go(afterNanoseconds: 0))
    #expect(throttle.reserve("realuser", from: Self.source("127.0.0.3"), now: 2) == .go(afterNanoseconds: Self.second))
    throttle.succeeded("realuser", from: owner, now: 3)
    // The owner's login does not release the name: the next turn is still two seconds on.
    #expect(
      throttle.reserve("realuser", from: Self.source("127.0.0.4"), now: 3) == .go(afterNanoseconds: 2 * Self.second - 1)
    )
    // The owner's address skips the turns now, until it fails there.
    #expect(throttle.reserve("realuser", from: owner, now: 4) == .go(afterNanoseconds: 0))
    throttle.failed("realuser", from: owner, now: 5)
    guard case .go(let wait) = throttle.reserve("realuser", from: owner, now: 6), wait > 0 else {
      Issue.record("a failure ends the skip")
      return
    }
  }

  @Test("past the brake, addresses that failed on the name book at most 5 s ahead; one that has not, up to 10 s")
  func turnsKeptForNewcomers() {
    let throttle = LoginThrottle()
    for host in 0..<120 { throttle.failed("realuser", from: Self.source("127.0.1.\(host)"), now: 1) }
    var refusals: [LoginThrottle.Decision] = []
    for host in 0..<20 {
      // A second on: past each address's own 250 ms gap.
      let decision = throttle.reserve("realuser", from: Self.source("127.0.1.\(host)"), now: 1 + Self.second)
      if case .braked = decision { refusals.append(decision) }
    }
    #expect(refusals.count == 14, "6 turns (0 to 5 s) for 20 failing addresses")
    #expect(refusals.first == .braked(retryInSeconds: 1))
    let newcomer = throttle.reserve("realuser", from: Self.source("127.0.0.2"), now: 1 + Self.second)
    #expect(newcomer == .go(afterNanoseconds: 6 * Self.second))
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
