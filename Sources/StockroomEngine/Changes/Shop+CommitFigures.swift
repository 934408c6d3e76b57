extension Shop {
  /// What the writer of this shop's changes counts; nil for a shop in memory.
  package var commitFigures: CommitFigures? { changes.commitFigures }
}
