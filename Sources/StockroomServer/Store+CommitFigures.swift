extension Store {
  /// Whichever writer commits this store's changes; nil for a shop in memory.
  var commitFigures: (any CommitFigures)? { committer ?? writer }
}
