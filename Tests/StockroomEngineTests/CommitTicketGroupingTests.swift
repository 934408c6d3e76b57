import Testing

@testable import StockroomEngine

/// A finished commit tells its waiters with one task per loop they are on (`CommitTicket.byLoop`),
/// each loop's waiters in the order they asked.
@Suite struct CommitTicketGroupingTests {
  /// A loop that runs nothing: the tests look at the grouping, not at the tasks.
  final class Loop: LoopExecutor, @unchecked Sendable {
    func execute(_ task: @escaping @Sendable () -> Void) -> Bool { true }
    func executeLater(_ delay: Duration, _ task: @escaping @Sendable () -> Void) {}
  }

  final class Waiter: CommitWaiter, @unchecked Sendable {
    let executor: any LoopExecutor
    let name: String
    init(_ name: String, on loop: Loop) {
      self.name = name
      executor = loop
    }
    func commitFinished() {}
  }

  static func names(_ groups: [(any LoopExecutor, [any CommitWaiter])]) -> [[String]] {
    groups.map { $0.1.map { ($0 as? Waiter)?.name ?? "?" } }
  }

  @Test("waiters on one loop make one group, in the order they asked")
  func oneLoop() {
    let loop = Loop()
    let groups = CommitTicket.byLoop([Waiter("a", on: loop), Waiter("b", on: loop), Waiter("c", on: loop)])
    #expect(groups.count == 1)
    #expect(groups.first?.0 === loop)
    #expect(Self.names(groups) == [["a", "b", "c"]])
  }

  @Test("waiters on several loops make a group per loop, loops in the order they first appear")
  func severalLoops() {
    let (first, second) = (Loop(), Loop())
    let groups = CommitTicket.byLoop([
      Waiter("a", on: first), Waiter("b", on: second), Waiter("c", on: first), Waiter("d", on: second),
      Waiter("e", on: first),
    ])
    #expect(groups.map { $0.0 === first } == [true, false])
    #expect(Self.names(groups) == [["a", "c", "e"], ["b", "d"]])
  }

  @Test("no waiters, no tasks")
  func none() {
    #expect(CommitTicket.byLoop([]).isEmpty)
  }
}
