/// When the REPL tries a lost server again, and whether the loss has been said: once per
/// outage, attempts between keys on the board's backoff, and none at all after the server's
/// idle notice, since it closed us on purpose.
struct Reconnector {
  /// What the screen should say about a connection that just went.
  enum Notice: Equatable {
    /// The first loss of this outage: say that it went and that retries have begun.
    case announce
    /// The server's idle notice has said it all already; a second line would say it again.
    case idleNoticeShown
    /// This outage was announced before.
    case alreadySaid
  }

  /// How long one background attempt may hold the editor: keys typed meanwhile wait in the
  /// terminal and appear when it ends.
  static let attemptLimitMilliseconds: Int32 = 1000
  /// Set by the server's idle notice: it closed us on purpose, so retrying at once would only
  /// hold a connection it wants back; the next command reconnects instead.
  var closedForIdleness = false
  private var lossAnnounced = false
  /// When the next attempt is due (monotonic seconds); nil while connected, and before the
  /// first connection, where a failure is the user's to fix rather than an outage.
  private var nextRetry: Double? = nil
  /// The waits between background attempts, the same schedule as the board's.
  private var backoff = RetryBackoff()

  /// The connection went at `now`: starts the background retries (unless the server asked
  /// for quiet) and says what to tell the user.
  mutating func lost(at now: Double) -> Notice {
    if nextRetry == nil, !closedForIdleness {
      backoff.reset()
      nextRetry = now + backoff.failed()
    }
    guard !lossAnnounced else { return .alreadySaid }
    lossAnnounced = true
    return closedForIdleness ? .idleNoticeShown : .announce
  }

  /// Connected again, by a retry, a command or `:connect`: the next loss is a new outage.
  mutating func reconnected() {
    lossAnnounced = false
    closedForIdleness = false
    nextRetry = nil
    backoff.reset()
  }

  /// How long the prompt may wait before the next attempt, in milliseconds; -1 for no limit.
  func millisecondsToRetry(at now: Double) -> Int32 {
    guard let nextRetry else { return -1 }
    // Rounded up, so a wait that ends a hair early does not spin until the attempt is due.
    return Int32(max(0, ((nextRetry - now) * 1000).rounded(.up)))
  }

  func isDue(at now: Double) -> Bool {
    guard let nextRetry else { return false }
    return now >= nextRetry
  }

  /// A background attempt failed: the wait doubles, up to a ceiling.
  mutating func attemptFailed(at now: Double) {
    nextRetry = now + backoff.failed()
  }
}
