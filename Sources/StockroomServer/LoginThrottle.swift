import Synchronization

/// Slows password guessing by account name, across every connection.
///
/// After the k-th failed attempt for a name, each further attempt for that name starts at least
/// `gap(k)` after the one before it, so guesses in parallel are spaced as much as guesses in a
/// row; an attempt that would have to wait longer than `maximumWait` is refused at once. Names
/// without an account are treated exactly like names with one, so the throttle tells nothing.
/// A success clears the name; a name's record is forgotten `memory` after its last failure.
final class LoginThrottle: Sendable {
  enum Decision: Sendable, Equatable {
    /// Start the attempt after this many nanoseconds (0: now).
    case go(afterNanoseconds: UInt64)
    /// Refuse without trying; the name may be tried again in this many seconds.
    case refuse(retryInSeconds: Int)
  }

  private struct Record {
    var failures = 0
    /// The earliest the next attempt for this name may start (the loop clock).
    var nextStart: UInt64 = 0
    var lastFailure: UInt64 = 0
  }

  /// At most this many names are tracked, about 200 bytes each; past it the stalest is dropped.
  static let capacity = 10_000
  /// Longer waits are refused at once: a client waiting in silence looks like a hung server.
  static let maximumWait: UInt64 = 10 * 1_000_000_000
  static let memory: UInt64 = 15 * 60 * 1_000_000_000

  private let records = Mutex<[String: Record]>([:])

  /// 250 ms after the first failure, doubling to at most 30 s.
  static func gap(afterFailures failures: Int) -> UInt64 {
    guard failures > 0 else { return 0 }
    let milliseconds = 250 << min(failures - 1, 7)
    return UInt64(min(milliseconds, 30_000)) * 1_000_000
  }

  /// Reserves the next start for an attempt on `name`.
  func reserve(_ name: String, now: UInt64) -> Decision {
    records.withLock { records in
      guard var record = records[name], now &- record.lastFailure < Self.memory else {
        records[name] = nil
        return .go(afterNanoseconds: 0)
      }
      let start = max(now, record.nextStart)
      let wait = start - now
      guard wait <= Self.maximumWait else {
        return .refuse(retryInSeconds: Int((wait + 999_999_999) / 1_000_000_000))
      }
      record.nextStart = start + Self.gap(afterFailures: record.failures)
      records[name] = record
      return .go(afterNanoseconds: wait)
    }
  }

  func failed(_ name: String, now: UInt64) {
    records.withLock { records in
      if records[name] == nil && records.count >= Self.capacity,
        let stalest = records.min(by: { $0.value.lastFailure < $1.value.lastFailure })?.key
      {
        records[stalest] = nil
      }
      var record = records[name] ?? Record()
      record.failures += 1
      record.lastFailure = now
      record.nextStart = max(record.nextStart, now + Self.gap(afterFailures: record.failures))
      records[name] = record
    }
  }

  func succeeded(_ name: String) {
    _ = records.withLock { $0.removeValue(forKey: name) }
  }

  /// Names currently slowed down, for INFO.
  var trackedNames: Int { records.withLock { $0.count } }
}
