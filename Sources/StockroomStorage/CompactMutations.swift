import Foundation
import StockroomDomain

/// The change log's text form for orders and restocks from schema 4 to 5, read for the changes
/// logged then; a node writes `MutationRecord` now (schema 6), which holds every kind of
/// mutation in the binary form of the SQLite commit log's records.
///
/// The form: `~1` followed by one `;`-led mutation each: `o USER LINES (ITEM COUNT)… AT KEY` or
/// `r USER LINES (ITEM COUNT)…`, fields apart by one space. A string is its UTF-8 length, `:` and
/// its bytes (so any byte may be in it), a number is decimal, a time is its `Double`'s bit
/// pattern in hex (exact), and a missing key is `-`. Any other change was JSON, which starts
/// with `[` and so never looks like this.
enum CompactMutations {
  static let header = "~1"

  /// The mutations of a compact `text`; nil when it is not in the compact form.
  static func decode(_ text: String) throws -> [Mutation]? {
    guard text.utf8.starts(with: header.utf8) else { return nil }
    let read = { (bytes: UnsafeBufferPointer<UInt8>) throws(CompactMutationsError) -> [Mutation] in
      var reader = CompactMutationsReader(bytes, from: header.utf8.count)
      var mutations: [Mutation] = []
      while !reader.atEnd { mutations.append(try reader.mutation()) }
      return mutations
    }
    // A string from libpq is native and contiguous; a copy only for one that is not.
    if let mutations = try text.utf8.withContiguousStorageIfAvailable(read) { return mutations }
    return try Array(text.utf8).withUnsafeBufferPointer(read)
  }
}
