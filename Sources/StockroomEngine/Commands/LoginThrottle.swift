import Synchronization

/// Slows password guessing without letting anyone aim it at a user (issue 20).
///
/// Three records, each forgotten `memory` after its last failure:
/// - per name and source address (`PeerSource`): after the k-th failure, each further attempt on
///   that name from that address starts at least `gap(k)` after the one before it, so guesses in
///   parallel are spaced as much as guesses in a row; an attempt that would wait longer than
///   `maximumWait` is refused at once. Failures from one address never slow another address.
/// - per name, from every address: a brake well above what a person types. Past
///   `brakeFailures` failures the name's attempts take turns, one start every `brakeDelay`: each
///   reserves the name's next free second, so however many addresses guess at once, at most one
///   guess a second is checked (issue 41: a flat wait in parallel let 200 hosts check 660 in
///   40 s). An attempt whose turn is further off than `maximumWait` is refused at once
///   (`.braked`); an address that has failed on the name may book only `maximumWait / 2` ahead,
///   so turns in the other half are left for addresses that have not, the owner's new device
///   among them. The owner's logins do not release the brake (an attacker who knows the owner
///   logs in would wait for it); an address that logged in to the name since it last failed there
///   skips the turns, so the owner's usual devices get in at once during an attack.
/// - per address: its wrong passwords on any name, counted as each check ends (`checkFailed`),
///   the penalty by which its password work yields to other addresses' on the credential pool
///   (`JobPool`).
/// Names without an account are treated exactly like names with one, so the throttle tells
/// nothing. A success clears the name's record for that address, and marks the address as one that
/// logged in to the name, until it fails there again or `memory` passes without an attempt.
package final class LoginThrottle: Sendable {
  package enum Decision: Sendable, Equatable {
    /// Start the attempt after this many nanoseconds (0: now).
    case go(afterNanoseconds: UInt64)
    /// Refuse without trying; the name may be tried again from this address in this many seconds.
    case refuse(retryInSeconds: Int)
    /// Refuse without trying: the name's turns (the brake) are taken for longer than anyone
    /// should wait; one may be had in this many seconds.
    case braked(retryInSeconds: Int)
  }

  private struct Key: Hashable {
    let name: String
    let source: PeerSource?
  }

  private struct Record {
    var failures = 0
    /// The earliest the next attempt may start (the loop clock).
    var nextStart: UInt64 = 0
    var lastFailure: UInt64 = 0
    /// The address logged in to the name since it last failed there (attempt records only).
    var loggedIn = false
    /// The last attempt, for how long `loggedIn` is kept.
    var lastAttempt: UInt64 = 0

    var lastUsed: UInt64 { max(lastFailure, lastAttempt) }
  }

  private struct State {
    var attempts: [Key: Record] = [:]
    var names: [String: Record] = [:]
    var sources: [PeerSource: Record] = [:]
  }

  /// At most this many records of each kind are kept, about 200 bytes each; past it the
  /// stalest is dropped.
  package static let capacity = 10_000
  /// Longer waits are refused at once: a client waiting in silence looks like a hung server.
  package static let maximumWait: UInt64 = 10 * 1_000_000_000
  /// The longest any gap grows, and so the longest a refusal asks anyone to wait.
  package static let maximumGap: UInt64 = 30 * 1_000_000_000
  package static let memory: UInt64 = 15 * 60 * 1_000_000_000
  /// Failures on one name, from every address, before the brake: far more than a person
  /// mistyping, from every device they have, in a quarter of an hour.
  package static let brakeFailures = 100
  package static let brakeDelay: UInt64 = 1_000_000_000

  private let state = Mutex(State())

  /// 250 ms after the first failure, doubling to at most 30 s.
  package static func gap(afterFailures failures: Int) -> UInt64 {
    guard failures > 0 else { return 0 }
    let milliseconds = UInt64(250 << min(failures - 1, 7)) * 1_000_000
    return min(milliseconds, maximumGap)
  }

  /// Reserves the next start for an attempt on `name` from `source`: its address's turn, and
  /// past the brake the name's.
  package func reserve(_ name: String, from source: PeerSource?, now: UInt64) -> Decision {
    state.withLock { state in
      let key = Key(name: name, source: source)
      var record = Self.current(state.attempts[key], now: now)
      var start = max(now, record.nextStart)
      guard start - now <= Self.maximumWait else {
        return .refuse(retryInSeconds: Self.retry(start - now, limit: Self.maximumWait))
      }
      var brake = Self.current(state.names[name], now: now)
      let braked = brake.failures >= Self.brakeFailures && !record.loggedIn
      if braked {
        let limit = record.failures > 0 ? Self.maximumWait / 2 : Self.maximumWait
        start = max(start, brake.nextStart)
        guard start - now <= limit else { return .braked(retryInSeconds: Self.retry(start - now, limit: limit)) }
        brake.nextStart = start + Self.brakeDelay
        state.names[name] = brake
      }
      record.nextStart = start + Self.gap(afterFailures: record.failures)
      record.lastAttempt = now
      if record.failures > 0 || record.loggedIn || braked {
        Self.keep(record, at: key, in: &state.attempts)
      } else {
        state.attempts[key] = nil
      }
      return .go(afterNanoseconds: start - now)
    }
  }

  /// Once the wait is back within the limit an attempt is taken: that is the retry time, and it
  /// is never more than one gap.
  private static func retry(_ wait: UInt64, limit: UInt64) -> Int {
    Int(max((wait - limit + 999_999_999) / 1_000_000_000, 1))
  }

  package func failed(_ name: String, from source: PeerSource?, now: UInt64) {
    state.withLock { state in
      let key = Key(name: name, source: source)
      var record = Self.current(state.attempts[key], now: now)
      record.failures += 1
      record.lastFailure = now
      record.loggedIn = false
      record.nextStart = max(record.nextStart, now + Self.gap(afterFailures: record.failures))
      Self.keep(record, at: key, in: &state.attempts)
      var brake = Self.current(state.names[name], now: now)
      brake.failures += 1
      brake.lastFailure = now
      Self.keep(brake, at: name, in: &state.names)
    }
  }

  /// A password check from `source` found the password wrong. Counted where the check ran,
  /// whether or not its connection is still there to hear it: a flood that closes each
  /// connection at once is not spared its penalty.
  package func checkFailed(from source: PeerSource?, now: UInt64) {
    guard let source else { return }
    state.withLock { state in
      var penalty = Self.current(state.sources[source], now: now)
      penalty.failures += 1
      penalty.lastFailure = now
      Self.keep(penalty, at: source, in: &state.sources)
    }
  }

  /// The name's brake stays: see above.
  package func succeeded(_ name: String, from source: PeerSource?, now: UInt64) {
    state.withLock { state in
      Self.keep(Record(loggedIn: true, lastAttempt: now), at: Key(name: name, source: source), in: &state.attempts)
    }
  }

  /// Failed attempts from `source` in the last `memory`, on any name: how far its password work
  /// yields to other addresses'.
  package func penalty(of source: PeerSource?, now: UInt64) -> Int {
    guard let source else { return 0 }
    return state.withLock { Self.current($0.sources[source], now: now).failures }
  }

  /// Names slowed down for some address now, for INFO.
  package var trackedNames: Int {
    state.withLock { Set($0.attempts.filter { $0.value.failures > 0 }.keys.map(\.name)).count }
  }

  /// A record as it stands at `now`: a new one once the old is past `memory`.
  private static func current(_ record: Record?, now: UInt64) -> Record {
    guard let record, now &- record.lastUsed < memory else { return Record() }
    return record
  }

  /// Keeps `record` at `key`, dropping the least recently used record when `records` is full.
  private static func keep<K: Hashable>(_ record: Record, at key: K, in records: inout [K: Record]) {
    if records[key] == nil && records.count >= capacity,
      let stalest = records.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
    {
      records[stalest] = nil
    }
    records[key] = record
  }

  package init() {}
}
