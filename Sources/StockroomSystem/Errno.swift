#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A POSIX error number as a value, so failures travel as errors instead of a global.
public struct Errno: Error, Sendable, Equatable, CustomStringConvertible {
  public var rawValue: Int32

  public init(_ rawValue: Int32) { self.rawValue = rawValue }

  /// The calling thread's current `errno`.
  public static var current: Errno { Errno(errno) }

  public static let interrupted = Errno(EINTR)

  public var isWouldBlock: Bool { rawValue == EAGAIN || rawValue == EWOULDBLOCK }

  public var description: String { String(cString: strerror(rawValue)) + " (errno \(rawValue))" }
}
