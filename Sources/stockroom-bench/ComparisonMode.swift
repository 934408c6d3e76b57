/// How much of the comparison `Scripts/bench` runs: the full rounds, `--quick` or `--smoke`.
enum ComparisonMode: String, Sendable {
  case full = "no"
  /// One round, a third of the requests, fewer idle connections and watchers: indicative only.
  case quick = "yes"
  /// Every row once with a few hundred requests, so that the bench is seen to run end to end.
  case smoke
}
