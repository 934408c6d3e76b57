#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Time that only moves forward, for deadlines and latencies: a wall-clock step (NTP, a person
/// setting the date) must not fire a timeout or turn into a latency. The one clock the server,
/// the client and the bench read.
public enum MonotonicClock {
  /// Nanoseconds since an arbitrary start (boot).
  public static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// The same instant in seconds, for arithmetic in `Double`.
  public static func seconds() -> Double { Double(now()) / 1e9 }

  /// The same instant in whole milliseconds.
  public static func milliseconds() -> Int { Int(now() / 1_000_000) }
}
