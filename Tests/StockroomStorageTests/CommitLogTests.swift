import Foundation
import StockroomDomain
import Testing

@testable import StockroomStorage

/// The commit log (`ShopDatabase+CommitLog`): a commit of orders and restocks writes one record
/// and no table row; the tables take it at a fold, which a history read, a reopening after a
/// crash and a clean stop each force; a load that may not write sees it without folding.
@Suite("The commit log", .timeLimit(.minutes(30)))
struct CommitLogTests {
  /// A fresh shop directory, its catalogue and the state a first load gives.
  private struct Shop {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-log-\(UUID())").path
    let catalog: Catalog
    var state: ShopState

    init() throws {
      catalog = try CatalogSource.load(path: ShopDatabaseReleaseTests.catalogPath, initialStock: nil)
      state = try ShopDatabase(directory: directory, fsync: .always).load(
        catalog: catalog, catalogJSON: "{}", limits: ShopLimits(), persist: true)
    }

    /// The shop's database, opened and loaded as a starting server does.
    func open() throws -> ShopDatabase {
      let database = try ShopDatabase(directory: directory, fsync: .always)
      _ = try load(database, persist: true)
      return database
    }

    /// Applies `mutations` to the state and gathers their rows as the committer does.
    mutating func batch(_ mutations: [Mutation]) throws -> JournalBatch {
      var batch = JournalBatch()
      for mutation in mutations {
        let applied = try state.apply(mutation)
        batch.record(applied, stock: state.stock, counters: state.counters, at: Date())
      }
      return batch
    }

    func load(_ database: ShopDatabase, persist: Bool) throws -> ShopState {
      try database.load(catalog: catalog, catalogJSON: "{}", limits: ShopLimits(), persist: persist)
    }
  }

  private func count(_ table: String, in database: ShopDatabase) throws -> Int {
    try SQLiteDatabase(path: database.path, readOnly: true).scalar("SELECT count(*) FROM \(table)") ?? -1
  }

  private static let orders: [Mutation] = [
    .order(user: "alice", lines: [ItemCount("banana_juice", 1)], at: Date()),
    .order(user: "bob", lines: [ItemCount("kiwi_juice", 2)], at: Date(), key: "k-1"),
    .restock(user: "staff", changes: [ItemCount("banana", 5)]),
  ]

  /// A fresh shop, opened, with `orders` written in one commit: the start of most tests here.
  private func withOrdersWritten(_ body: (inout Shop, ShopDatabase) throws -> Void) throws {
    var shop = try Shop()
    defer { try? FileManager.default.removeItem(atPath: shop.directory) }
    let database = try shop.open()
    try database.write(try shop.batch(Self.orders))
    try body(&shop, database)
  }

  /// A fresh shop, opened, with 1,000 bananas restocked in one commit: for the folds of many orders.
  private func withBananas(_ body: (inout Shop, ShopDatabase) throws -> Void) throws {
    var shop = try Shop()
    defer { try? FileManager.default.removeItem(atPath: shop.directory) }
    let database = try shop.open()
    try database.write(try shop.batch([.restock(user: "staff", changes: [ItemCount("banana", 1000)])]))
    try body(&shop, database)
  }

  /// `loaded` holds what the commits made: the levels, the counters and the kept key.
  private func expectRestored(_ loaded: ShopState, _ shop: Shop) {
    #expect(loaded.level(of: "banana") == shop.state.level(of: "banana"))
    #expect(loaded.level(of: "kiwi") == shop.state.level(of: "kiwi"))
    #expect(loaded.counters == shop.state.counters)
    #expect(loaded.orderKeyCount == 1)
  }

  @Test("a commit of orders and restocks writes one record, and a history read folds it into the tables")
  func historyReadFolds() throws {
    try withOrdersWritten { shop, database in
      #expect(try count("commit_log", in: database) == 1)
      #expect(try count("orders", in: database) == 0)
      #expect(try count("ledger", in: database) == 0)

      let ledger = try database.ledger(of: "banana", paging: Paging(page: 1, size: 10))
      #expect(ledger.entries.map(\.change) == [5, -2])
      #expect(try count("commit_log", in: database) == 0)
      #expect(try database.orders(from: 1, through: 2).map(\.user) == ["bob", "alice"])
      let receipt = try database.receipt(of: OrderKey(user: "bob", key: "k-1"))
      #expect(receipt?.order.id == 2)
      #expect(receipt?.levels == [ItemCount("kiwi", shop.state.level(of: "kiwi")!.current)])
      try database.verify()
    }
  }

  @Test("a database dropped with records in its log (a crash) folds them when it is opened again")
  func reopeningFolds() throws {
    var shop = try Shop()
    defer { try? FileManager.default.removeItem(atPath: shop.directory) }
    do {
      let database = try shop.open()
      try database.write(try shop.batch(Array(Self.orders.prefix(2))))
      try database.write(try shop.batch([Self.orders[2]]))
      #expect(try count("commit_log", in: database) == 2)
    }
    let database = try ShopDatabase(directory: shop.directory, fsync: .always)
    #expect(try count("commit_log", in: database) == 0)
    #expect(try count("orders", in: database) == 2)
    expectRestored(try shop.load(database, persist: true), shop)
    try database.verify()
  }

  @Test("a load that may not write sees the log's records without folding them")
  func readOnlyLoadOverlays() throws {
    try withOrdersWritten { shop, database in
      let loaded = try shop.load(database, persist: false)
      #expect(try count("commit_log", in: database) == 1)
      expectRestored(loaded, shop)
    }
  }

  @Test("a batch the log cannot hold folds the log first, so the tables take changes in order")
  func otherChangesFoldFirst() throws {
    try withOrdersWritten { shop, database in
      try database.write(
        try shop.batch([.order(user: "carol", lines: [ItemCount("banana_juice", 1)], at: Date())]))
      try database.write(try shop.batch([.createDiary(owner: "carol", title: "t", body: "b", at: Date())]))
      #expect(try count("commit_log", in: database) == 0)
      #expect(try count("orders", in: database) == 3)
      let sequences = try database.ledger(of: "banana", paging: Paging(page: 1, size: 10)).entries.map(\.change)
      #expect(sequences == [-2, 5, -2])
      expectRestored(try shop.load(database, persist: true), shop)
    }
  }

  @Test("a batch the log cannot hold writes its orders, ledger, receipts, stock and counters as a fold does")
  func mixedBatchWritesEveryRow() throws {
    try withOrdersWritten { shop, database in
      let batch = try shop.batch([
        .order(user: "carol", lines: [ItemCount("banana_juice", 1)], at: Date(), key: "k-2"),
        .createDiary(owner: "carol", title: "t", body: "b", at: Date()),
        .restock(user: "staff", changes: [ItemCount("kiwi", 3)]),
      ])
      #expect(!CommitRecord.holds(batch))
      try database.write(batch)
      #expect(try count("commit_log", in: database) == 0)
      #expect(try count("diary", in: database) == 1)
      #expect(try database.orders(from: 1, through: 3).map(\.user) == ["carol", "bob", "alice"])
      #expect(try database.receipt(of: OrderKey(user: "carol", key: "k-2"))?.order.id == 3)
      let kiwi = try database.ledger(of: "kiwi", paging: Paging(page: 1, size: 10)).entries.map(\.change)
      #expect(kiwi.count == 2 && kiwi.first == 3)
      let loaded = try shop.load(database, persist: true)
      #expect(loaded.level(of: "banana") == shop.state.level(of: "banana"))
      #expect(loaded.level(of: "kiwi") == shop.state.level(of: "kiwi"))
      #expect(loaded.counters == shop.state.counters)
      try database.verify()
      // A batch without counters leaves them as they are.
      var bare = JournalBatch()
      bare.deletedDiary = Set(batch.diary.keys)
      bare.count = 1
      try database.write(bare)
      #expect(try count("diary", in: database) == 0)
      #expect(try shop.load(database, persist: true).counters == shop.state.counters)
    }
  }

  @Test("a fold of many orders writes every row in order, sixteen to a statement and the rest one by one")
  func foldOfManyOrders() throws {
    try withBananas { shop, database in try foldManyOrders(&shop, database) }
  }

  private func foldManyOrders(_ shop: inout Shop, _ database: ShopDatabase) throws {
    // 17, 16 and 7 orders: full statements across two records, and rows left for one by one.
    var written: [Order] = []
    var next = 0
    for size in [17, 16, 7] {
      let mutations = (0..<size).map { _ -> Mutation in
        next += 1
        let key = next.isMultiple(of: 3) ? "key-\(next)" : nil
        return .order(user: "user\(next % 4)", lines: [ItemCount("banana_juice", 1 + next % 2)], at: Date(), key: key)
      }
      let batch = try shop.batch(mutations)
      written += batch.orders
      try database.write(batch)
    }
    #expect(try count("commit_log", in: database) == 4)
    let read = try database.orders(from: 1, through: 40).reversed()
    #expect(read.map(\.id) == written.map(\.id))
    #expect(read.map(\.user) == written.map(\.user))
    #expect(read.map(\.lines) == written.map(\.lines))
    #expect(read.map(\.taken) == written.map(\.taken))
    #expect(try count("commit_log", in: database) == 0)
    let ledger = try database.ledger(of: "banana", paging: Paging(page: 1, size: 100))
    #expect(ledger.total == 41)
    #expect(ledger.entries.map(\.orderID) == written.reversed().map(\.id) + [nil])
    #expect(ledger.entries.map(\.change) == written.reversed().map { -$0.taken[0].count } + [1000])
    for order in written where order.id.isMultiple(of: 3) {
      #expect(try database.receipt(of: OrderKey(user: order.user, key: "key-\(order.id)"))?.order.id == order.id)
    }
    try database.verify()
    #expect(try shop.load(database, persist: true).counters == shop.state.counters)
  }

  @Test("a fold whose texts outgrow its first 4 KiB of parameter space writes every text whole")
  func foldOfLongTexts() throws {
    try withBananas { shop, database in try foldLongTexts(&shop, database) }
  }

  private func foldLongTexts(_ shop: inout Shop, _ database: ShopDatabase) throws {
    // Each user is ~600 bytes of non-ASCII text, in a ledger row and an order row: either
    // table's sixteen rows a statement hold ~10 KiB of text, so the space grows while rows are
    // read.
    let mutations = (1...20).map { number -> Mutation in
      .order(user: String(repeating: "바나나", count: 66) + "\(number)", lines: [ItemCount("banana_juice", 1)], at: Date())
    }
    let batch = try shop.batch(mutations)
    try database.write(batch)
    let read = try database.orders(from: 1, through: 40).reversed()
    #expect(read.map(\.user) == batch.orders.map(\.user))
    let ledger = try database.ledger(of: "banana", paging: Paging(page: 1, size: 100))
    #expect(ledger.entries.dropLast().map(\.user) == batch.orders.reversed().map(\.user))
    try database.verify()
  }

  @Test("orders of one to eight lines, their texts either side of 128 bytes, are folded and read back whole")
  func foldOfManyLines() throws {
    var shop = try Shop()
    defer { try? FileManager.default.removeItem(atPath: shop.directory) }
    let database = try shop.open()
    let fruits = ["strawberry", "banana", "pineapple", "kiwi", "mango"]
    try database.write(try shop.batch([.restock(user: "staff", changes: fruits.map { ItemCount($0, 100) })]))
    // A line's text is 20 to 50 bytes: the longer orders write one whose length takes two bytes
    // of the record, written after the text is built in place.
    let items = fruits + ["banana_juice", "kiwi_juice", "strawberry_banana_juice"]
    let mutations = (1...items.count).map { count -> Mutation in
      .order(user: "alice", lines: items.prefix(count).map { ItemCount($0, 1) }, at: Date())
    }
    let batch = try shop.batch(mutations)
    #expect(batch.orders.contains { RowText.lines($0.lines).utf8.count >= 128 })
    #expect(batch.orders.contains { RowText.lines($0.lines).utf8.count < 128 })
    try database.write(batch)
    let read = try database.orders(from: 1, through: 10).reversed()
    #expect(read.map(\.lines) == batch.orders.map(\.lines))
    #expect(read.map(\.taken) == batch.orders.map(\.taken))
    try database.verify()
  }

  @Test("a damaged record in the log refuses the file at opening, naming the file and the record")
  func damagedRecordRefusesTheFile() throws {
    var shop = try Shop()
    defer { try? FileManager.default.removeItem(atPath: shop.directory) }
    let path = try {
      let database = try shop.open()
      try database.write(try shop.batch(Self.orders))
      return database.path
    }()
    try SQLiteDatabase(path: path).execute("UPDATE commit_log SET record = x'01ff'")
    let error = #expect(throws: StorageError.self) { try ShopDatabase(directory: shop.directory, fsync: .always) }
    let message = error?.description ?? ""
    #expect(message.contains("\(path) is damaged: bad commit record 1"), "\(message)")
  }

  /// A commit record as servers have written it since the log began (layout 1, before the change
  /// log took the same encoding): alice's keyed order of one banana, order 1, at 1_765_000_000.5.
  private static let layoutOneRecord =
    "01010662616e616e612800000226010662616e616e6101056f726465720305616c696365000020d0f04cda4101"
    + "0205616c696365000020d0f04cda411762616e616e611f42616e616e611f66727569741f311f1f0862616e616e"
    + "611f310105616c696365036b2d31020862616e616e611f310962616e616e611f3139000020d0f04cda41040202"
    + "0002"

  @Test("a file whose log holds a record written before the change log shared its encoding opens and folds it")
  func layoutOneRecordOpens() throws {
    let shop = try Shop()
    defer { try? FileManager.default.removeItem(atPath: shop.directory) }
    let path = try shop.open().path
    try SQLiteDatabase(path: path).execute("INSERT INTO commit_log(record) VALUES (x'\(Self.layoutOneRecord)')")
    let database = try ShopDatabase(directory: shop.directory, fsync: .always)
    #expect(try count("commit_log", in: database) == 0)
    let loaded = try shop.load(database, persist: true)
    var level = StockLevel(initial: 20)
    level.taken = 1
    level.current = 19
    #expect(loaded.level(of: "banana") == level)
    #expect(loaded.counters.nextOrderID == 2)
    #expect(loaded.counters.ordersMade == 1)
    let order = try database.orders(from: 1, through: 1).first
    #expect(order?.user == "alice")
    #expect(order?.placed == Date(timeIntervalSince1970: 1_765_000_000.5))
    #expect(order?.taken == [ItemCount("banana", 1)])
    #expect(try database.receipt(of: OrderKey(user: "alice", key: "k-1"))?.levels == [ItemCount("banana", 19)])
    try database.verify()
  }

  @Test("a record no version wrote is refused, naming the record")
  func damagedRecord() throws {
    let error = #expect(throws: DamagedRow.self) { try CommitRecord(decoding: [1, 200], sequence: 7) }
    #expect(error?.kind == "commit record 7")
    let unknown = #expect(throws: DamagedRow.self) { try CommitRecord(decoding: [9], sequence: 8) }
    #expect(unknown?.text.contains("layout 9") == true)
  }
}
