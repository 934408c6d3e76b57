import Foundation
import StockroomDomain
import StockroomText
import Testing

@Suite("Shop state", .timeLimit(.minutes(30)))
struct ShopStateTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  private func shop(initialStock: Int = 10) throws -> ShopState {
    ShopState(catalog: try ShippedCatalog.load().withInitialStock(initialStock))
  }

  private func balanced(_ state: ShopState) -> Bool {
    state.stock.values.allSatisfy { $0.balances && $0.current >= 0 }
  }

  @Test("ordering a juice takes every ingredient of its recipe")
  func orderTakesRecipe() throws {
    var state = try shop()
    let applied = try state.apply(.order(user: "a", lines: [ItemCount("딸바쥬스", 1)], at: now))
    #expect(state.level(of: "strawberry")?.current == 0)
    #expect(state.level(of: "banana")?.current == 9)
    #expect(applied.events.map(\.item) == ["strawberry", "banana"])
    #expect(applied.events.map(\.change) == [-10, -1])
    #expect(balanced(state))
  }

  /// Whether the short line comes first (nothing taken yet) or after lines already taken (which
  /// are put back), the order takes nothing.
  @Test(
    "a short order takes nothing and names each short ingredient with what it needed and had",
    arguments: [
      [ItemCount("kiwi_juice", 3), ItemCount("mango_kiwi_juice", 2), ItemCount("banana_juice", 1)],
      [ItemCount("banana_juice", 1), ItemCount("kiwi_juice", 3), ItemCount("mango_kiwi_juice", 2)],
    ])
  func shortageTakesNothing(lines: [ItemCount]) throws {
    var state = try shop()
    let before = state.stock
    do {
      _ = try state.apply(.order(user: "a", lines: lines, at: now))
      Issue.record("order should have been short")
    } catch {
      #expect(error.kind == .shortage)
      #expect(error.shortages == [Shortage(item: "kiwi", needed: 11, available: 10)])
    }
    #expect(state.stock == before)
    #expect(state.ordersMade == 0)
  }

  @Test("lines of one order are summed before checking, so two lines cannot each take the last fruit")
  func linesSummed() throws {
    var state = try shop()
    #expect(throws: ShopError.self) {
      try state.apply(
        .order(user: "a", lines: [ItemCount("strawberry_juice", 1), ItemCount("strawberry_banana_juice", 1)], at: now))
    }
    #expect(state.level(of: "strawberry")?.current == 10)
  }

  @Test("dish and product prices apply discounts and totals add per currency")
  func pricesAndTotals() throws {
    var state = try shop()
    let draft = ProductDraft(
      name: "Teapot", price: try Money.parse("24.50", currency: .usd), discount: .percent(10), stock: 5)
    _ = try state.apply(.createProduct(seller: "s", draft: draft, at: now))
    let applied = try state.apply(
      .order(
        user: "a", lines: [ItemCount("galbi_jjim", 2), ItemCount("kimchi_jjigae", 1), ItemCount("p1", 3)], at: now))
    guard case .ordered(let receipt, _) = applied.outcome else {
      Issue.record("no order")
      return
    }
    let order = receipt.order
    // 32,000 at 10% off is 28,800; kimchi jjigae has a sale price of 7,500; 24.50 at 10% off is 22.05.
    #expect(order.lines.map { $0.subtotal?.plain } == ["57600", "7500", "66.15"])
    #expect(order.totals.map(\.display) == ["₩65,100", "$66.15"])
  }

  @Test("a keyed order placed twice takes stock once and answers the same receipt")
  func keyedOrder() throws {
    var state = try shop()
    let first = try state.apply(.order(user: "a", lines: [ItemCount("banana_juice", 2)], at: now, key: "k1"))
    let again = try state.apply(.order(user: "a", lines: [ItemCount("banana_juice", 2)], at: now, key: "k1"))
    #expect(state.level(of: "banana")?.current == 6)
    #expect(again.events.isEmpty)
    guard case .ordered(let one, false) = first.outcome, case .ordered(let two, true) = again.outcome else {
      Issue.record("outcomes")
      return
    }
    #expect(one == two)
    #expect(throws: ShopError.self, "a different order under the same key") {
      try state.apply(.order(user: "a", lines: [ItemCount("banana_juice", 1)], at: now, key: "k1"))
    }
    // Past the retention the key is forgotten and a new order is placed.
    let later = now.addingTimeInterval(25 * 60 * 60)
    _ = try state.apply(.order(user: "a", lines: [ItemCount("banana_juice", 2)], at: later, key: "k1"))
    #expect(state.level(of: "banana")?.current == 2)
  }

  @Test("order keys belong to their user, and a settled receipt leaves memory but still names its order")
  func keysPerUser() throws {
    var state = try shop()
    let banana = [ItemCount("banana", 1)]
    let alice = try state.apply(.order(user: "alice", lines: banana, at: now, key: "k1"))
    let bob = try state.apply(.order(user: "bob", lines: banana, at: now, key: "k1"))
    guard case .ordered(let hers, false) = alice.outcome, case .ordered(let his, false) = bob.outcome else {
      Issue.record("two new orders, not a retry: \(bob.outcome)")
      return
    }
    #expect(hers.order.id != his.order.id)
    #expect(state.level(of: "banana")?.current == 8)
    #expect(state.orderKeyCount == 2)
    #expect(state.heldReceiptCount == 2)
    state.settleReceipts(through: hers.order.id)
    #expect(state.heldReceiptCount == 1)
    let retry = try state.apply(.order(user: "alice", lines: banana, at: now, key: "k1"))
    #expect(retry.outcome == .reordered(OrderKey(user: "alice", key: "k1"), orderID: hers.order.id))
    let held = try state.apply(.order(user: "bob", lines: banana, at: now, key: "k1"))
    #expect(held.outcome == .ordered(his, repeated: true))
    #expect(state.level(of: "banana")?.current == 8)
  }

  @Test("percent discounts round down to the minor unit and sale prices must be lower")
  func discounts() throws {
    let price = Money(minorUnits: 999, currency: .usd)
    #expect(Discount.percent(33).apply(to: price).minorUnits == 669)
    #expect(throws: ShopError.self) {
      try Discount.salePrice(Money(minorUnits: 999, currency: .usd)).validate(against: price)
    }
    #expect(throws: ShopError.self) { try Discount.parse("100%", price: price) }
    #expect(try Discount.parse("none", price: price) == nil)
    #expect(try Discount.parse("9.50", price: price) == .salePrice(Money(minorUnits: 950, currency: .usd)))
  }

  @Test("money reads whole won and two-decimal dollars and refuses anything else")
  func moneyParsing() throws {
    #expect(try Money.parse("32000", currency: .krw).display == "₩32,000")
    #expect(try Money.parse("1234.5", currency: .usd).display == "$1,234.50")
    for bad in ["-1", "1.5", "1,000", "", "1e3", "12.", ".5"] {
      #expect(throws: ShopError.self, "\(bad)") { try Money.parse(bad, currency: .krw) }
    }
    for bad in ["1.234", "abc", "99999999999999"] {
      #expect(throws: ShopError.self, "\(bad)") { try Money.parse(bad, currency: .usd) }
    }
  }

  @Test("restocks and downward corrections keep the ledger balanced and never go below zero")
  func restockAndCorrect() throws {
    var state = try shop()
    _ = try state.apply(.restock(user: "staff", changes: [ItemCount("banana", 5), ItemCount("kiwi", -4)]))
    var banana = StockLevel(initial: 10)
    banana.restocked = 5
    banana.current = 15
    #expect(state.level(of: "banana") == banana)
    #expect(state.level(of: "kiwi")?.corrected == 4)
    #expect(throws: ShopError.self) {
      try state.apply(.restock(user: "staff", changes: [ItemCount("mango", 3), ItemCount("kiwi", -7)]))
    }
    #expect(state.level(of: "mango")?.current == 10, "all or nothing")
    #expect(throws: ShopError.self) {
      try state.apply(.restock(user: "staff", changes: [ItemCount("banana_juice", 3)]))
    }
    #expect(balanced(state))
  }

  @Test("a diary entry is visible to its owner only")
  func diaryPrivacy() throws {
    var state = try shop()
    _ = try state.apply(.createDiary(owner: "민지", title: "첫 일기", body: "딸기를 샀다\n맛있다", at: now))
    #expect(state.diaryEntries(of: "민지").map(\.title) == ["첫 일기"])
    #expect(state.diaryEntries(of: "guest").isEmpty)
    #expect(throws: ShopError.self) { try state.diaryEntry(1, of: "guest") }
    #expect(throws: ShopError.self) { try state.apply(.deleteDiary(id: 1, owner: "guest")) }
    #expect(try state.diaryEntry(1, of: "민지").preview() == "딸기를 샀다")
  }

  @Test("products belong to their seller")
  func productOwnership() throws {
    var state = try shop()
    _ = try state.apply(
      .createProduct(
        seller: "alice", draft: ProductDraft(name: "Pear", price: Money(minorUnits: 900, currency: .krw)), at: now))
    do {
      _ = try state.apply(.deleteProduct(id: "p1", user: "bob"))
      Issue.record("bob deleted alice's product")
    } catch {
      #expect(error.kind == .denied)
    }
    _ = try state.apply(.deleteProduct(id: "P1", user: "alice"))
    #expect(state.products.isEmpty)
    #expect(state.level(of: "p1") == nil)
  }

  @Test("lists page newest first and report the page count")
  func paging() throws {
    var state = try shop()
    for index in 1...45 {
      _ = try state.apply(.createDiary(owner: "a", title: "t\(index)", body: "", at: now))
    }
    let entries = state.diaryEntries(of: "a")
    let first = Paging(page: 1, size: 20).slice(entries)
    #expect(first.items.first?.title == "t45")
    #expect(first.pageCount == 3)
    let last = Paging(page: 3, size: 20).slice(entries)
    #expect(last.items.map(\.title) == ["t5", "t4", "t3", "t2", "t1"])
    #expect(Paging(page: 9, size: 20).slice(entries).items.isEmpty)
    #expect(throws: ShopError.self) { try Paging(page: "0", size: nil) }
    #expect(throws: ShopError.self) { try Paging(page: nil, size: "101") }
  }

  @Test("the order history keeps the newest orders when it is full")
  func orderHistoryRing() {
    var history = OrderHistory(capacity: 3)
    for id in 1...5 {
      history.append(Order(id: id, user: "u", placed: now, lines: [], taken: []))
    }
    #expect(history.count == 3)
    #expect(history.page(Paging(page: 1, size: 10)).items.map(\.id) == [5, 4, 3])
  }

  @Test("unknown names suggest the closest known one")
  func suggestions() throws {
    let state = try shop()
    for (typo, guess) in [("bananna", "banana"), ("stawberry_juice", "strawberry_juice"), ("딸바쥬수", "딸바쥬스")] {
      do {
        _ = try state.resolve(typo)
        Issue.record("\(typo) resolved")
      } catch {
        #expect(error.kind == .notFound)
        #expect(error.message.contains("did you mean '\(guess)'"), "\(error.message)")
      }
    }
    #expect(NameSuggestion.closest(to: "zzzzzz", among: ["banana", "kiwi"]) == nil)
  }

  @Test("display names resolve, Korean and English, in any case")
  func displayNamesResolve() throws {
    let state = try shop()
    for (name, id) in [
      ("김치찌개", "kimchi_jjigae"), ("잡채", "japchae"), ("소갈비찜", "galbi_jjim"), ("Strawberry Juice", "strawberry_juice"),
      ("strawberry banana juice", "strawberry_banana_juice"), ("MANGO", "mango"), ("Soups", "soup"),
      ("Gare d'Orsay", "gare_d_orsay"),
    ] {
      #expect(try state.resolve(name).id == id, "\(name)")
    }
    #expect(try state.resolveStocked("된장찌개", allowJuice: false).id == "doenjang_jjigae")
  }

  @Test("a display name shared by two items names neither; one equal to another item's alias leaves the alias alone")
  func ambiguousDisplayName() throws {
    let data = try ShippedCatalog.edited { object in
      var dishes = object["dishes"] as! [[String: Any]]
      dishes[1]["name"] = "소갈비찜"
      dishes[2]["name"] = "바나나"
      object["dishes"] = dishes
    }
    let state = ShopState(catalog: try Catalog.decode(from: data))
    do {
      _ = try state.resolve("소갈비찜")
      Issue.record("an ambiguous name resolved")
    } catch {
      #expect(error.kind == .notFound)
      #expect(error.message.contains("galbi_jjim, ori_jumulleok"), "\(error.message)")
    }
    #expect(try state.resolve("바나나").id == "banana")
    #expect(try state.resolve("갈비찜").id == "galbi_jjim")
  }

  @Test("a product resolves by its name when no other product has it, and a renamed one by its new name only")
  func productNames() throws {
    var state = try shop()
    let won = Money(minorUnits: 900, currency: .krw)
    _ = try state.apply(.createProduct(seller: "alice", draft: ProductDraft(name: "떡", price: won, stock: 3), at: now))
    _ = try state.apply(
      .createProduct(seller: "alice", draft: ProductDraft(name: "Rice Cake", price: won, stock: 3), at: now))
    #expect(try state.resolve("떡") == .product("p1"))
    #expect(try state.resolve("rice cake") == .product("p2"))
    let applied = try state.apply(.restock(user: "bob", changes: [ItemCount("떡", 2)]))
    #expect(applied.events.map(\.name) == ["떡"])

    _ = try state.apply(
      .createProduct(seller: "bob", draft: ProductDraft(name: "RICE CAKE", price: won, stock: 1), at: now))
    do {
      _ = try state.resolve("Rice Cake")
      Issue.record("a name two products share resolved")
    } catch {
      #expect(error.kind == .notFound)
      #expect(error.message.contains("p2, p3"), "\(error.message)")
    }

    _ = try state.apply(.editProduct(id: "p1", user: "alice", changes: ProductChanges(name: "Mochi"), at: now))
    #expect(try state.resolve("mochi") == .product("p1"))
    #expect(throws: ShopError.self) { try state.resolve("떡") }
    _ = try state.apply(.deleteProduct(id: "p3", user: "bob"))
    #expect(try state.resolve("Rice Cake") == .product("p2"))
    _ = try state.apply(.deleteProduct(id: "p1", user: "alice"))
    #expect(throws: ShopError.self) { try state.resolve("Mochi") }
    _ = try state.apply(.createProduct(seller: "bob", draft: ProductDraft(name: "p1", price: won), at: now))
    #expect(throws: ShopError.self, "a deleted product's id is not another product's name") {
      try state.resolve("p1")
    }

    var snapshot = ShopSnapshot()
    snapshot.stock = state.stock
    snapshot.products = state.productIDs.compactMap { state.products[$0] }
    snapshot.counters = state.counters
    var restored = ShopState(catalog: state.catalog, restoring: snapshot)
    #expect(try restored.resolve("rice cake") == .product("p2"))
    #expect(try restored.resolve("P4") == .product("p4"))
    _ = try restored.apply(.deleteProduct(id: "p2", user: "alice"))
    #expect(throws: ShopError.self) { try restored.resolve("rice cake") }
  }

  @Test("events carry the item's display name")
  func eventNames() throws {
    var state = try shop()
    let ordered = try state.apply(.order(user: "a", lines: [ItemCount("딸바쥬스", 1), ItemCount("잡채", 1)], at: now))
    #expect(ordered.events.map(\.name) == ["Strawberry", "Banana", "잡채"])
    let listed = try state.apply(
      .createProduct(
        seller: "alice", draft: ProductDraft(name: "Pear", price: Money(minorUnits: 900, currency: .krw)), at: now))
    #expect(listed.events.map(\.name) == ["Pear"])
  }

  @Test("suggestions consider display names and product names")
  func nameSuggestions() throws {
    var state = try shop()
    _ = try state.apply(
      .createProduct(
        seller: "alice", draft: ProductDraft(name: "Teapot", price: Money(minorUnits: 900, currency: .krw)), at: now))
    for (typo, guess) in [("김치찌게", "김치찌개"), ("Kiwi Juise", "Kiwi Juice"), ("teapott", "Teapot")] {
      do {
        _ = try state.resolve(typo)
        Issue.record("\(typo) resolved")
      } catch {
        #expect(error.kind == .notFound)
        #expect(error.message.contains("did you mean '\(guess)'"), "\(error.message)")
      }
    }
  }

  @Test("numbers are grouped for people")
  func grouping() {
    #expect(NumberText.grouped(48_130_300) == "48,130,300")
    #expect(NumberText.grouped(999) == "999")
    #expect(NumberText.grouped(-1000) == "-1,000")
  }
}
