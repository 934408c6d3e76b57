import Foundation
import StockroomDomain
import StockroomText
import Testing

@testable import StockroomStorage

/// The change log's one form for every mutation (`MutationRecord`, schema 6): what goes in
/// comes out exactly, its records and the commit log's share one numbering of layouts, and a
/// damaged record is refused without its text.
@Suite("The change log's record of a change's mutations", .timeLimit(.minutes(30)))
struct MutationRecordTests {
  private static let at = Date(timeIntervalSinceReferenceDate: 786_543_210.123_456_7)
  private static let hash = "$argon2id$v=19$m=65536,t=2,p=1$c2VjcmV0c2FsdA$SECRETHASH"

  /// One of every kind, with the edge values each field may take.
  static let everyKind: [Mutation] = [
    .restock(user: "staff", changes: [ItemCount("banana", 40), ItemCount("mango", -3)]),
    .order(user: "alice", lines: [ItemCount("banana_juice", 1)], at: at),
    .order(
      user: "김 민수", lines: [ItemCount("🍌", Int.max), ItemCount("p:1 ;x", Int.min)],
      at: Date(timeIntervalSince1970: 0), key: ""),
    .order(user: "", lines: [], at: Date(timeIntervalSinceReferenceDate: -1.5), key: "retry-7"),
    .createProduct(
      seller: "bob", draft: ProductDraft(name: "Jam", price: Money(minorUnits: 450, currency: .krw)), at: at),
    .createProduct(
      seller: "bob",
      draft: ProductDraft(
        name: "Tea", description: "green\nleaves", price: Money(minorUnits: 1_000, currency: .usd),
        discount: .salePrice(Money(minorUnits: 900, currency: .usd)), stock: 12),
      at: .distantFuture),
    .editProduct(id: "p7", user: "bob", changes: ProductChanges(), at: at),
    .editProduct(
      id: "p7", user: "bob",
      changes: ProductChanges(
        name: "Jam", description: "", price: Money(minorUnits: 0, currency: .krw), discount: .some(nil)),
      at: at),
    .editProduct(id: "p7", user: "bob", changes: ProductChanges(discount: .some(.percent(15))), at: at),
    .deleteProduct(id: "p7", user: "admin"),
    .deleteProduct(id: "p8", user: "admin", anySeller: true),
    .createDiary(owner: "alice", title: "", body: "dear diary\u{1E}\u{1F}\0", at: at),
    .editDiary(id: 3, owner: "alice", title: nil, body: "new", at: at),
    .editDiary(id: -1, owner: "alice", title: "t", body: nil, at: at),
    .deleteDiary(id: 3, owner: "alice"),
    .createAccount(
      Account(name: "carol", role: .customer, passwordHash: hash, created: at, updated: .distantPast),
      selfRegistered: true),
    .createAccount(
      Account(name: "dave", role: .admin, passwordHash: "", created: at, updated: at), selfRegistered: false),
    .deleteAccount(name: "carol"),
    .setRole(name: "dave", role: .staff, at: at),
    .setPassword(name: "dave", hash: hash, at: at),
  ]

  @Test("every kind of mutation comes back exactly, in order, whatever its strings hold")
  func everyKindRoundTrips() throws {
    let bytes = MutationRecord.encode(Self.everyKind)
    #expect(bytes.first == UInt8(RecordLayout.mutations.rawValue))
    #expect(try MutationRecord.decode(bytes, sequence: 1) == Self.everyKind)
    #expect(try MutationRecord.decode(MutationRecord.encode([]), sequence: 1) == [])
    // Each alone, so that no field of one can make up for a field of another.
    for mutation in Self.everyKind {
      #expect(try MutationRecord.decode(MutationRecord.encode([mutation]), sequence: 1) == [mutation])
    }
  }

  @Test("the change log's column takes the record as hex, and reads it back")
  func throughTheColumn() throws {
    let text = ChangeRecord.encode(Self.everyKind)
    #expect(
      text.utf8.allSatisfy {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
      })
    #expect(try ChangeRecord.decode(record: text, legacy: nil, sequence: 1) == Self.everyKind)
    #expect(try ChangeRecord.decode(record: text.uppercased(), legacy: "ignored", sequence: 1) == Self.everyKind)
  }

  @Test("a change record and a commit record share the layout numbers, and neither reads as the other")
  func oneNumberingForBothLogs() throws {
    let change = MutationRecord.encode([.restock(user: "staff", changes: [ItemCount("banana", 5)])])
    #expect(throws: DamagedRow.self) { try CommitRecord(decoding: change, sequence: 9) }
    var batch = JournalBatch()
    batch.counters = ShopCounters()
    let commit = CommitRecord.encode(batch)
    #expect(commit.first == UInt8(RecordLayout.commitRows.rawValue))
    #expect(throws: DamagedRow.self) { try MutationRecord.decode(commit, sequence: 9) }
  }

  @Test("an order's record is smaller than its compact text was")
  func smallerThanTheCompactText() {
    let order = Mutation.order(user: "alice", lines: [ItemCount("banana_juice", 1)], at: Self.at, key: "k-1")
    // `CompactMutations`' text for the same order, as schema 4 and 5 logged it.
    let compact = "~1;o 5:alice 1 12:banana_juice 1 41c770d9350fcd6e 3:k-1"
    #expect(MutationRecord.encode([order]).count < compact.utf8.count)
  }

  @Test(
    "a text that is not UTF-8 is refused as such, a name's and an optional key's, short or long",
    arguments: ["alice", "an-order-key-long-enough", "k-1"])
  func textNotUTF8(text: String) throws {
    let order = Mutation.order(
      user: text == "alice" ? text : "bob", lines: [ItemCount("banana_juice", 1)], at: Self.at,
      key: text == "alice" ? nil : text)
    let bytes = MutationRecord.encode([order])
    let needle = Array(text.utf8)
    let at = try #require(
      (0...(bytes.count - needle.count)).first { Array(bytes[$0..<$0 + needle.count]) == needle })
    for position in at..<at + needle.count {
      var damaged = bytes
      damaged[position] = 0xFF
      #expect(throws: DamagedRow.self) { try MutationRecord.decode(damaged, sequence: 9) }
      do {
        _ = try MutationRecord.decode(damaged, sequence: 9)
      } catch {
        #expect("\(error)".contains("not UTF-8"), "\(error)")
      }
    }
  }

  @Test("a record cut anywhere is refused, naming the change and never its text")
  func cutShort() {
    let bytes = MutationRecord.encode(Self.everyKind)
    for length in 0..<bytes.count { expectRefused(HexBytes.text(Array(bytes.prefix(length)))) }
  }

  @Test(
    "damaged records are refused, naming the change and never its text",
    arguments: [
      "03",  // a layout no server knows
      "01",  // the commit log's layout
      "0201ff01", "020100",  // mutation kinds no server knows
      "02010a0561",  // a deleteAccount whose name is cut
      "020102056361726f6c",  // an order cut after its user
      "0200ff",  // bytes after the end
      "020109046361726507637573746f6d6572",  // an account with a role no server knows
      "02010b0464617665046b696e67" + "0000000000000000",  // a role no server knows
      "zz", "0",  // not hex
    ])
  func damaged(hex: String) {
    expectRefused(hex)
  }

  private func expectRefused(_ hex: String) {
    do {
      _ = try ChangeRecord.decode(record: hex, legacy: nil, sequence: 42)
      Issue.record("'\(hex)' was read")
    } catch {
      #expect("\(error)".contains("change 42"))
      for secret in ["alice", "carol", "SECRET", "dear diary", "argon2"] { #expect(!"\(error)".contains(secret)) }
    }
  }
}
