extension JobPool {
  /// Two threads hash and check passwords for every connection, fairly by address (a waiting
  /// check yields as its address's failures grow, even those found after it was queued); a full
  /// queue answers busy.
  package static func credentials(
    throttle: LoginThrottle, clock: any EngineClock, starter: any ThreadStarter
  ) -> JobPool {
    JobPool(name: "credentials", threads: 2, capacity: 64, starter: starter) { source in
      throttle.penalty(of: source, now: clock.now())
    }
  }

  /// Two threads read history from the database (STOCKTAKE, older orders, receipts) for every
  /// connection, so a slow query never stalls a loop; a full queue answers busy.
  package static func history(starter: any ThreadStarter) -> JobPool {
    JobPool(name: "history", threads: 2, capacity: 256, starter: starter)
  }
}
