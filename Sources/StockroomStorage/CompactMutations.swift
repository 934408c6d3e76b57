import Foundation
import StockroomDomain

/// The change log's own form for the changes every node replays most: orders and restocks.
///
/// Foundation's JSON coders were a third of a node's CPU on a shared store (each node encodes
/// its own changes and decodes every other node's), so a change made only of these is written as
/// `~1` followed by one `;`-led mutation each: `o USER LINES (ITEM COUNT)… AT KEY` or
/// `r USER LINES (ITEM COUNT)…`, fields apart by one space. A string is its UTF-8 length, `:` and
/// its bytes (so any byte may be in it), a number is decimal, a time is its `Double`'s bit
/// pattern in hex (exact), and a missing key is `-`. Any other change stays JSON, which starts
/// with `[` and so never looks like this.
enum CompactMutations {
  static let header = "~1"

  /// The compact form, or nil when a mutation is neither an order nor a restock.
  static func encode(_ mutations: [Mutation]) -> String? {
    var bytes: [UInt8] = Array(header.utf8)
    bytes.reserveCapacity(64 * mutations.count)
    for mutation in mutations {
      switch mutation {
      case .order(let user, let lines, let at, let key):
        bytes.append(contentsOf: ";o ".utf8)
        append(user, lines, to: &bytes)
        bytes.append(contentsOf: " \(String(at.timeIntervalSinceReferenceDate.bitPattern, radix: 16)) ".utf8)
        if let key { append(key, to: &bytes) } else { bytes.append(UInt8(ascii: "-")) }
      case .restock(let user, let changes):
        bytes.append(contentsOf: ";r ".utf8)
        append(user, changes, to: &bytes)
      default:
        return nil
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

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

  private static func append(_ user: String, _ lines: [ItemCount], to bytes: inout [UInt8]) {
    append(user, to: &bytes)
    bytes.append(contentsOf: " \(lines.count)".utf8)
    for line in lines {
      bytes.append(UInt8(ascii: " "))
      append(line.item, to: &bytes)
      bytes.append(contentsOf: " \(line.count)".utf8)
    }
  }

  private static func append(_ string: String, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: "\(string.utf8.count):".utf8)
    bytes.append(contentsOf: string.utf8)
  }
}
