import Foundation
import StockroomDomain

/// One committed change of a shared store, as the other nodes replay it: the mutations one node
/// applied in one transaction, numbered in commit order.
public struct ChangeRecord: Sendable, Equatable {
  /// The change's place in the store's commit order, counting up from 1 without gaps.
  public let sequence: Int
  /// The node that made it, for the log.
  public let node: String
  public let mutations: [Mutation]
  /// What the shop looked like after it on the node that made it (see `ShopDigest`): a replay
  /// that ends anywhere else has diverged, and the replaying node reloads instead.
  public let digest: String

  public init(sequence: Int, node: String, mutations: [Mutation], digest: String) {
    self.sequence = sequence
    self.node = node
    self.mutations = mutations
    self.digest = digest
  }

  /// Orders and restocks in `CompactMutations`' form, anything else as JSON.
  static func encode(_ mutations: [Mutation]) throws -> String {
    if let compact = CompactMutations.encode(mutations) { return compact }
    return String(decoding: try JSONEncoder().encode(mutations), as: UTF8.self)
  }

  static func decode(_ text: String, sequence: Int) throws -> [Mutation] {
    do {
      if let compact = try CompactMutations.decode(text) { return compact }
      return try JSONDecoder().decode([Mutation].self, from: Data(text.utf8))
    } catch {
      // Not the text: it may hold a password hash (an account's creation).
      throw StorageError("change \(sequence) of the store's change log cannot be read")
    }
  }
}
