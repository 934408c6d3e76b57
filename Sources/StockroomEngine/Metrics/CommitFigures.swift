import Synchronization

/// What a store's writer counts of its commits, for INFO and the metrics, whichever writer it
/// is: the committer of this node's own database, or the shared writer of a PostgreSQL store.
package final class CommitFigures: Sendable {
  package static let durationBounds = [
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
  ]
  package static let batchBounds = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096]

  package let commits = Atomic<Int>(0)
  package let committedMutations = Atomic<Int>(0)
  package let largestBatch = Atomic<Int>(0)
  /// How long each commit that changed something took to write and, as --fsync says, force to disk.
  package let commitDuration = Histogram.seconds(CommitFigures.durationBounds)
  /// Changes per commit that changed something.
  package let batchSize = Histogram(bounds: CommitFigures.batchBounds)
  /// Failed commits by `CommitFailure.Kind`, in `allCases` order.
  package let failures = AtomicCounters(count: CommitFailure.Kind.allCases.count)

  /// One commit done, with `changes` changes in it, written in `duration`.
  package init() {}

  package func recordCommit(changes: Int, duration: Duration) {
    commits.add(1, ordering: .relaxed)
    guard changes > 0 else { return }
    committedMutations.add(changes, ordering: .relaxed)
    if changes > largestBatch.load(ordering: .relaxed) { largestBatch.store(changes, ordering: .relaxed) }
    commitDuration.observe(duration)
    batchSize.observe(changes)
  }

  package func recordFailure(_ kind: CommitFailure.Kind) {
    failures.add(CommitFailure.Kind.allCases.firstIndex(of: kind) ?? 0)
  }

  /// Every failed commit, whatever its kind.
  package var failureCount: Int { (0..<failures.count).reduce(0) { $0 + failures[$1] } }
}
