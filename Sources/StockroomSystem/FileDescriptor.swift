import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An open descriptor that is closed exactly once: at `close()`, or when the last holder lets
/// it go, whichever comes first; a second `close()` does nothing. A throwing initializer that
/// made one needs no cleanup of its own (a class's throwing `init` runs `deinit` once its
/// properties are set, which is how a descriptor got closed twice, the second time after
/// another thread had been given its number).
///
/// A class rather than a non-copyable struct: with a non-copyable descriptor stored in
/// `FileLock`, an engine restart in the tests found the shop's lock still held in three runs of
/// three, and never without it; that is not understood, so it is not risked, and a reference
/// count is cheap beside a leaked lock. (`FileLock` keeps its own descriptor for the same reason.)
public final class FileDescriptor: Sendable {
  private let number: Atomic<Int32>

  /// Owns `rawValue` from now on.
  public init(_ rawValue: Int32) {
    number = Atomic(rawValue)
  }

  /// The descriptor's number; -1 once closed.
  public var rawValue: Int32 { number.load(ordering: .acquiring) }

  /// Closes it now (EINTR is not retried: Linux frees the number whatever close returns).
  public func close() {
    let old = number.exchange(-1, ordering: .acquiringAndReleasing)
    if old >= 0 { Glibc.close(old) }
  }

  deinit { close() }
}
