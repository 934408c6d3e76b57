/// What a read on a node of a shared store may answer from its cache (`--reads`).
public enum ReadMode: String, Sendable, Equatable, CaseIterable {
  /// Every read reflects every change acknowledged on any node before it arrived: the node
  /// first learns the store's change position (one round trip shared by the reads that wait
  /// together) and replays up to it.
  case linearizable
  /// Reads answer from the cache at once, which may lack another node's change until its
  /// announcement arrives (milliseconds; up to the one-second poll when one is lost).
  case cached
}
