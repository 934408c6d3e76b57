extension Store {
  /// What the writer of this store's changes counts; nil for a shop in memory.
  var commitFigures: CommitFigures? { committer?.figures ?? writer?.figures }
}
