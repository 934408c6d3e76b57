extension JobPool {
  /// Whose job it is, for sharing the pool fairly: password work from an address flooding the
  /// server must not keep anyone else's out (issue 20).
  ///
  /// A thread takes the waiting job with the lowest penalty, then the one whose address has the
  /// fewest jobs running, then the oldest. When the queue is full, a new job takes the place of
  /// the newest waiting job of an address with a higher penalty, or, at the same penalty, of an
  /// address holding more jobs than the newcomer's; that job is told it was refused. So a host
  /// with no failed logins gets in ahead of hosts that have been failing, however many of them
  /// there are, and no one address fills the queue against the others.
  struct Lane: Sendable, Equatable {
    /// nil: jobs of no address (history reads, tests of the pool), all sharing one lane.
    var source: PeerSource?
    /// The address's failed password attempts lately (`LoginThrottle.penalty`).
    var penalty: Int

    static let shared = Lane(source: nil, penalty: 0)
  }
}
