extension JobPool {
  /// Two threads hash and check passwords for every connection, fairly by address (see
  /// `JobPool`: a waiting check yields as its address's work and failures grow, even failures
  /// found after it was queued); a full queue answers busy.
  package static func credentials(
    throttle: LoginThrottle, clock: any EngineClock, starter: any ThreadStarter
  ) -> JobPool {
    JobPool(name: "credentials", threads: 2, capacity: 64, starter: starter, clock: clock) { source in
      guard case .address(let address) = source else { return 0 }
      return throttle.penalty(of: address, now: clock.now())
    }
  }

  /// Two threads read history from the database (STOCKTAKE, older orders, receipts) for every
  /// connection, so a slow query never stalls a loop; shared fairly by account (or address, for
  /// a guest), so one customer reading on many connections cannot keep others' reads out; a full
  /// queue answers busy.
  package static func history(starter: any ThreadStarter, clock: any EngineClock = MonotonicEngineClock()) -> JobPool {
    JobPool(name: "history", threads: 2, capacity: 256, starter: starter, clock: clock)
  }
}
