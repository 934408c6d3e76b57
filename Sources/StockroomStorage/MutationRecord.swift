import Foundation
import StockroomDomain

/// A change's mutations as the PostgreSQL change log keeps them (`changes.record`, bytea): a
/// `RecordWriter` record of layout `RecordLayout.mutations`, then the count and every mutation
/// field by field, its kind's number first. Every kind has this one form, written by
/// `RecordWriter.mutation` and read by `RecordReader.mutation`; it replaced two,
/// `CompactMutations`' text for orders and restocks and Foundation's JSON for the rest, which
/// `ChangeRecord` still reads in changes logged before it (`mutations`, text).
enum MutationRecord {
  /// The number each mutation starts with. A number is never reused: a new kind takes the next.
  enum Kind: UInt64 {
    case restock = 1
    case order = 2
    case createProduct = 3
    case editProduct = 4
    case deleteProduct = 5
    case createDiary = 6
    case editDiary = 7
    case deleteDiary = 8
    case createAccount = 9
    case deleteAccount = 10
    case setRole = 11
    case setPassword = 12
  }

  static func encode(_ mutations: [Mutation]) -> [UInt8] {
    var out = RecordWriter(capacity: 8 + 48 * mutations.count)
    out.layout(.mutations)
    out.unsigned(UInt64(mutations.count))
    for mutation in mutations { out.mutation(mutation) }
    return out.bytes
  }

  /// The mutations of change `sequence`; throws `DamagedRow` for bytes no version wrote, whose
  /// message names the change and the byte but holds none of its text (an account's creation
  /// holds a password hash).
  static func decode(_ bytes: [UInt8], sequence: Int) throws -> [Mutation] {
    var input = RecordReader(bytes, sequence: sequence, name: "change")
    try input.layout(.mutations)
    var mutations: [Mutation] = []
    for _ in 0..<(try input.count()) { mutations.append(try input.mutation()) }
    guard input.atEnd else { throw input.damaged("bytes after the end") }
    return mutations
  }
}
