import StockroomDomain

/// What a node writes for one shared-store transaction: the rows its mutations changed, the
/// mutations themselves for the other nodes to replay, and the digest they check their replay by.
public struct PreparedChange: Sendable {
  public var batch: JournalBatch
  public var mutations: [Mutation]
  public var digest: String
  /// The counters as the store held them before these mutations, so only those that moved are
  /// written (another node may have moved them since this node's last write).
  public var countersBefore: ShopCounters

  public init(batch: JournalBatch, mutations: [Mutation], digest: String, countersBefore: ShopCounters) {
    self.batch = batch
    self.mutations = mutations
    self.digest = digest
    self.countersBefore = countersBefore
  }
}
