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

  /// The mutations as the log's `record` column takes them: `MutationRecord`'s bytes, as hex.
  static func encode(_ mutations: [Mutation]) -> String {
    HexBytes.text(MutationRecord.encode(mutations))
  }

  /// The mutations of one row of the log: `record` (hex of `MutationRecord`) when it has one,
  /// else `legacy`, the text column of changes logged before schema 6 (`CompactMutations`' form
  /// or JSON). An error names the change, never its text: it may hold a password hash.
  static func decode(record: String?, legacy: String?, sequence: Int) throws -> [Mutation] {
    if let record {
      guard let bytes = HexBytes.bytes(record) else { throw unreadable(sequence, "its record is not hex") }
      do {
        return try MutationRecord.decode(bytes, sequence: sequence)
      } catch {
        // `DamagedRow` from `RecordReader`: what and at which byte, no text of the change's.
        throw unreadable(sequence, "\(error)")
      }
    }
    do {
      let text = legacy ?? ""
      if let compact = try CompactMutations.decode(text) { return compact }
      return try JSONDecoder().decode([Mutation].self, from: Data(text.utf8))
    } catch {
      throw unreadable(sequence, nil)
    }
  }

  private static func unreadable(_ sequence: Int, _ why: String?) -> StorageError {
    StorageError("change \(sequence) of the store's change log cannot be read" + (why.map { ": \($0)" } ?? ""))
  }
}
