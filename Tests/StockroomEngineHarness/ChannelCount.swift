import Synchronization

/// How many harness channels are open, shared by the harness and the handler's client count.
final class ChannelCount: Sendable {
  private let count = Atomic<Int>(0)
  var value: Int { count.load(ordering: .relaxed) }
  func opened() { count.add(1, ordering: .relaxed) }
  func closed() { count.subtract(1, ordering: .relaxed) }
}
