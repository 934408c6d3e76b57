import Synchronization

/// What a store's writer counts of its commits, for INFO and the metrics, whichever writer it
/// is: the committer of this node's own database, or the shared writer of a PostgreSQL store.
protocol CommitFigures: AnyObject, Sendable {
  var commits: Atomic<Int> { get }
  var committedMutations: Atomic<Int> { get }
  var largestBatch: Atomic<Int> { get }
  /// How long each commit took to write and, as --fsync says, force to disk.
  var commitDuration: Histogram { get }
  /// Changes per commit.
  var batchSize: Histogram { get }
  /// Failed commits by `CommitFailure.Kind`, in `allCases` order.
  var failures: AtomicCounters { get }
}

extension CommitFigures {
  static var durationBounds: [Double] {
    [0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
  }
  static var batchBounds: [Int] { [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096] }

  func recordFailure(_ kind: CommitFailure.Kind) {
    failures.add(CommitFailure.Kind.allCases.firstIndex(of: kind) ?? 0)
  }

  /// Every failed commit, whatever its kind.
  var failureCount: Int { (0..<failures.count).reduce(0) { $0 + failures[$1] } }
}
