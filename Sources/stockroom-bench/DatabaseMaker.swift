import Foundation
import StockroomDomain
import StockroomStorage

/// `stockroom-bench make-db DIR`: a shop database of a given size, written through the same
/// rules and the same batch writer the server uses, to measure how long a server takes to start
/// on it. Every order has `lines` lines on distinct products, so the ledger grows `lines` rows
/// per order, as a busy market's does.
struct DatabaseMaker {
  var directory: String
  var orders = 80_000
  var keyed = 60_000
  var products = 10_000
  var diary = 100_000
  var lines = 100

  static let usage = """
    usage: stockroom-bench make-db DIR [--orders N] [--keyed N] [--products N] [--diary N] [--lines N]

    Writes a new shop to DIR/stockroom.sqlite (DIR must not hold one): N products, N diary
    entries, N orders of --lines lines each, the last --keyed of them with an order key.
    Defaults: 80000 orders, 60000 keyed, 10000 products, 100000 diary entries, 100 lines.
    """

  static func parse(_ words: [String]) throws(BenchError) -> DatabaseMaker {
    guard let directory = words.first, !directory.hasPrefix("--") else { throw BenchError("make-db needs a DIR") }
    var maker = DatabaseMaker(directory: directory)
    var index = 1
    while index < words.count {
      guard index + 1 < words.count, let number = Int(words[index + 1]), number >= 0 else {
        throw BenchError("\(words[index]) needs a whole number")
      }
      switch words[index] {
      case "--orders": maker.orders = number
      case "--keyed": maker.keyed = number
      case "--products": maker.products = number
      case "--diary": maker.diary = number
      case "--lines": maker.lines = max(1, min(number, 100))
      default: throw BenchError("make-db does not take \(words[index])")
      }
      index += 2
    }
    maker.keyed = min(maker.keyed, maker.orders)
    return maker
  }

  func make() throws {
    let path = (directory as NSString).appendingPathComponent(ShopDatabase.fileName)
    guard !FileManager.default.fileExists(atPath: path) else { throw BenchError("\(path) already exists") }
    let (catalog, text) = try CatalogSource.loadWithText(path: nil, initialStock: nil)
    let database = try ShopDatabase(directory: directory, fsync: .off)
    var shop = try database.load(catalog: catalog, catalogJSON: text, limits: ShopLimits())
    var batch = JournalBatch()
    let now = Date()
    func apply(_ mutation: Mutation) throws {
      let applied = try shop.apply(mutation)
      batch.record(applied, stock: shop.stock, counters: shop.counters, at: now)
      if batch.count >= 2_000 {
        try database.write(batch)
        batch = JournalBatch()
      }
    }
    let sellers = (0..<50).map { "seller\($0)" }
    for index in 0..<products {
      let draft = ProductDraft(
        name: "Product number \(index)", description: "Made for measuring start-up, number \(index).",
        price: Money(minorUnits: 1000 + index, currency: .krw), stock: Catalog.maximumStock)
      try apply(.createProduct(seller: sellers[index % sellers.count], draft: draft, at: now))
    }
    let body = String(repeating: "A day at the market. ", count: 10)
    for index in 0..<diary {
      try apply(.createDiary(owner: "user\(index % 1000)", title: "Entry \(index)", body: body, at: now))
    }
    var generator = SystemRandomNumberGenerator()
    let stocked = products > 0 ? (1...products).map { "p\($0)" } : catalog.fruits.map(\.id)
    for index in 0..<orders {
      var picked = Set<Int>()
      while picked.count < min(lines, stocked.count) {
        picked.insert(Int.random(in: 0..<stocked.count, using: &generator))
      }
      let requested = picked.map { ItemCount(stocked[$0], 1) }
      let key = index >= orders - keyed ? "key-\(index)" : nil
      try apply(.order(user: "user\(index % 1000)", lines: requested, at: now, key: key))
    }
    if !batch.isEmpty { try database.write(batch) }
    try database.checkpoint()
  }
}
