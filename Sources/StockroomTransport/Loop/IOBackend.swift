/// How the event loops wait on their sockets (`--io`).
public enum IOBackend: String, Sendable, Equatable, CaseIterable {
  /// Each loop is a thread of its own in `epoll_wait`, and reads, answers and writes on the
  /// thread that waited: Linux only, and the default there (docs/performance.md).
  case epoll
  /// Each loop is a serial Dispatch queue, and each socket has Dispatch read and write sources
  /// on it: the design card's Dispatch server, about twice epoll's CPU a request. Linux only,
  /// like the rest of the package (docs/architecture.md).
  case dispatch
}
