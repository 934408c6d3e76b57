/// What a descriptor is ready for, as a loop tells its handler: the same on every backend, so
/// handlers never see epoll's masks or Dispatch's sources.
package struct Readiness: OptionSet, Sendable {
  package let rawValue: UInt8
  package init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Input waits, or its end (a read returns 0).
  package static let readable = Readiness(rawValue: 1)
  package static let writable = Readiness(rawValue: 2)
  /// The peer hung up or the socket failed; told even when input is not wanted.
  package static let hangUp = Readiness(rawValue: 4)
}
