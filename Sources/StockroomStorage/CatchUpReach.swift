/// How far a node's catch-up reads the change log (`changesThroughHead`).
public enum CatchUpReach: Sendable {
  /// To the last change committed, which may not yet be on disk when its commit left the flush
  /// to a barrier: the caller forces a flush of its own before showing such a change.
  case head
  /// To the last change some node's flush barrier has confirmed on disk (with `--fsync always`;
  /// otherwise the head): every change acknowledged anywhere is within it, and nothing in it
  /// needs a flush of the reader's.
  case durableHead
}
