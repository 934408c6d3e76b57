import Foundation
import StockroomProtocol
import Testing

@Suite("A whole session per shop, over TCP, over TLS and through the engine alone", .timeLimit(.minutes(30)))
struct ShopSessionTests {
  @Test(
    "the greeting names the server, its version and protocol, and says to type HELP", arguments: TestTransport.allCases)
  func greeting(transport: TestTransport) throws {
    let server = try transport.shop()
    let client = try server.client(greeted: false)
    let greeting = try #require(try client.readLine())
    #expect(greeting.hasPrefix("OK stockroomd "))
    #expect(greeting.contains("protocol=\(ProtocolVersion.current)"))
    #expect(greeting.contains("HELP"))
  }

  @Test("the juice bar: list, show, order, shortage, stock", arguments: TestTransport.allCases)
  func juiceBar(transport: TestTransport) throws {
    let server = try transport.shop()
    let client = try server.client(as: "juicer")
    let juices = try client.request("LIST juices")
    #expect(juices.rows.count == 7)
    #expect(juices.rows.first { $0.id == "strawberry_banana_juice" }?["recipe"] == "10 strawberry + 1 banana")

    let show = try client.request("SHOW 딸바쥬스")
    #expect(show.isOK)
    #expect(show.rows[0]["can_make"] == "1")
    #expect(show.rows.dropFirst().map { $0.id } == ["strawberry", "banana"])

    let order = try client.request("order 딸바쥬스")
    #expect(order.isOK)
    let orderID = try #require(order.statusFields["order"])
    #expect(
      order.rows.filter { $0["kind"] == "taken" }.map { "\($0.id!)=\($0["stock"]!)" } == ["strawberry=0", "banana=9"])

    let short = try client.request("ORDER strawberry_juice banana_juice 2")
    #expect(short.errorCode == .shortage)
    #expect(short.rows.map { $0.id } == ["strawberry"])
    #expect(short.rows[0]["needed"] == "16")
    #expect(short.rows[0]["available"] == "0")
    #expect(short.message.contains("strawberry needs 16, has 0"))

    let stock = try client.request("STOCK banana 딸기 kiwi_juice")
    #expect(
      stock.rows.map { "\($0.id!) \($0["stock"] ?? $0["can_make"]!)" } == ["banana 9", "strawberry 0", "kiwi_juice 3"])

    let orders = try client.request("LIST orders")
    #expect(orders.rows.map(\.id) == [orderID])
    #expect(orders.rows[0]["items"] == "1 strawberry_banana_juice")
  }

  @Test(
    "ADD answers one row per item with its kind, change and level, even when changes cancel out",
    arguments: TestTransport.allCases)
  func addRows(transport: TestTransport) throws {
    let server = try transport.shop()
    let client = try server.client(as: "clerk", role: .staff)
    let reply = try client.request("ADD banana 5 banana -5 kiwi 3 galbi_jjim -1")
    #expect(
      reply.rows.map { "\($0.id!) \($0["kind"]!) \($0["change"]!) \($0["stock"]!)" } == [
        "banana fruit 0 10", "kiwi fruit +3 13", "galbi_jjim dish -1 7",
      ])
    #expect(reply.message == "restocked 3 items")
  }

  @Test("words that look like options keep their case in commands that take none", arguments: TestTransport.allCases)
  func optionLikeText(transport: TestTransport) throws {
    let server = try transport.shop()
    let client = try server.client()
    #expect(try client.request("PING Foo=Bar").message == "Foo=Bar")
  }

  @Test("a fruit ordered by its Korean name takes that fruit", arguments: TestTransport.allCases)
  func fruitByAlias(transport: TestTransport) throws {
    let server = try transport.shop()
    let client = try server.client()
    #expect(try client.request("ORDER 망고 3").isOK)
    #expect(try client.request("STOCK mango").rows[0]["stock"] == "7")
  }

  @Test(
    "display names work where ids do, products by a unique name, and events carry the name",
    arguments: TestTransport.allCases)
  func displayNames(transport: TestTransport) throws {
    let server = try transport.shop()
    let alice = try server.client(as: "alice")
    let watcher = try server.client(as: "carol", role: .staff)
    #expect(try watcher.request("WATCH").isOK)

    let kimchi = try alice.request("ORDER 김치찌개")
    #expect(kimchi.isOK, "\(kimchi.lines)")
    #expect(kimchi.rows.contains { $0.id == "kimchi_jjigae" })
    let japchae = try alice.request("SHOW 잡채")
    #expect(japchae.isOK, "\(japchae.lines)")
    #expect(japchae.rows.first?.id == "japchae")
    #expect(try alice.request("SHOW \"Strawberry Banana Juice\"").rows.first?.id == "strawberry_banana_juice")
    let typo = try alice.request("SHOW 김치찌게")
    #expect(typo.errorCode == .notFound)
    #expect(typo.message.contains("did you mean '김치찌개'"), "\(typo.message)")

    #expect(try alice.request("PRODUCT NEW name=떡 price=3000").isOK)
    let staff = try server.client(as: "bob", role: .staff)
    let added = try staff.request("ADD 떡 4")
    #expect(added.isOK, "\(added.lines)")
    #expect(added.rows.first?.id == "p1")

    let names = try alice.request("NAMES")
    #expect(names.rows.first { $0.id == "kimchi_jjigae" }?["name"] == "김치찌개")
    #expect(names.rows.first { $0.id == "p1" }?["name"] == "떡")

    let ordered = try watcher.readEvent()
    #expect(ordered["item"] == "kimchi_jjigae")
    #expect(ordered["name"] == "김치찌개")
    let listed = try watcher.readEvent()
    #expect(listed["item"] == "p1")
    #expect(listed["name"] == "떡")
    #expect(listed["cause"] == "listed")
    let restocked = try watcher.readEvent()
    #expect(restocked["item"] == "p1")
    #expect(restocked["name"] == "떡")
    #expect(restocked["level"] == "4")
    #expect(restocked["user"] == "bob")
  }

  @Test("the side-dish shop: sections with counts, discounted prices, totals", arguments: TestTransport.allCases)
  func banchan(transport: TestTransport) throws {
    let server = try transport.shop()
    let client = try server.client()
    let sections = try client.request("LIST sections")
    #expect(sections.rows.map { $0.id } == ["main", "soup", "side"])
    #expect(sections.rows.allSatisfy { Int($0["count"] ?? "0")! >= 4 })

    let dishes = try client.request("LIST dishes")
    #expect(dishes.rows.filter { $0["kind"] == "section" }.count == 3)
    let soup = try client.request("LIST dishes soup")
    #expect(soup.rows.first?["kind"] == "section")
    #expect(soup.rows.dropFirst().allSatisfy { $0["section"] == "soup" && $0["kind"] == "dish" })

    let galbi = try client.request("SHOW galbi_jjim")
    #expect(galbi.rows[0]["price"] == "32000")
    #expect(galbi.rows[0]["discount"] == "10%")
    #expect(galbi.rows[0]["final_price"] == "28800")
    #expect(galbi.rows[0]["price_text"] == "₩28,800")
    #expect(galbi.rows[0]["regular_price_text"] == "₩32,000")

    let order = try client.request("ORDER galbi_jjim 2 kimchi_jjigae")
    #expect(order.statusFields["total_krw"] == "65100")
    #expect(order.statusFields["total_text"] == "₩65,100")
    #expect(order.rows[0]["subtotal"] == "57600")

    #expect(try client.request("ORDER galbi_jjim 0").errorCode == .invalid)
    #expect(try client.request("ORDER galbi_jjim 7").errorCode == .shortage, "6 are left")
  }

  @Test(
    "the open market: register, edit, list newest first with paging, order, delete", arguments: TestTransport.allCases)
  func market(transport: TestTransport) throws {
    let server = try transport.shop()
    let alice = try server.client(as: "alice")
    let bob = try server.client(as: "bob")
    for index in 1...7 {
      let reply = try alice.request("PRODUCT NEW name=\"Apple \(index)\" price=\(1000 + index) stock=5")
      #expect(reply.statusFields["product"] == "p\(index)")
    }
    let teapot = try bob.request(
      #"PRODUCT NEW name=Teapot price=24.50 currency=usd discount=10% stock=2 description="Blue glaze, 1 L""#)
    #expect(teapot.rows[0]["final_price"] == "22.05")
    #expect(teapot.rows[0]["currency"] == "USD")
    #expect(teapot.rows[0]["description"] == "Blue glaze, 1 L")

    let page1 = try alice.request("LIST products size=3")
    #expect(page1.rows.map(\.id) == ["p8", "p7", "p6"])
    #expect(page1.statusFields["pages"] == "3")
    let page3 = try alice.request("LIST products page=3 size=3")
    #expect(page3.rows.map(\.id) == ["p2", "p1"])

    let edited = try alice.request("PRODUCT EDIT p1 price=900 discount=800 name=\"Green apple\"")
    #expect(edited.rows[0]["name"] == "Green apple")
    #expect(edited.rows[0]["sale_price"] == "800")
    #expect(try alice.request("PRODUCT EDIT p1 discount=900").errorCode == .invalid, "a sale price must be lower")
    #expect(try alice.request("PRODUCT EDIT p1 stock=9").errorCode == .args)
    #expect(try bob.request("PRODUCT EDIT p1 price=1").errorCode == .denied)
    #expect(try bob.request("PRODUCT DELETE p2").errorCode == .denied)

    let order = try bob.request("ORDER p1 2 p8")
    #expect(order.statusFields["total_krw"] == "1600")
    #expect(order.statusFields["total_usd"] == "22.05")
    #expect(order.statusFields["total_text"] == "₩1,600 + $22.05")

    #expect(try alice.request("PRODUCT DELETE p1").statusFields["deleted"] == "p1")
    #expect(try alice.request("SHOW p1").errorCode == .notFound)
    #expect(try alice.request("ORDER p1").errorCode == .notFound)
    #expect(try alice.request("PRODUCT NEW name=x price=-1").errorCode == .invalid)
    #expect(try alice.request("PRODUCT NEW name=x price=1 currency=EUR").errorCode == .invalid)
  }

  @Test("the diary: Korean multi-line entries, newest first, private to their owner", arguments: TestTransport.allCases)
  func diary(transport: TestTransport) throws {
    let server = try transport.shop()
    let minji = try server.client(as: "민지")
    let guest = try server.client()
    let other = try server.client(as: "other")
    let created = try minji.request(#"DIARY NEW "첫 일기" "오늘은 딸기를 샀다.\n내일은 망고 🥭""#)
    let id = try #require(created.statusFields["diary"])
    #expect(created.rows[0]["created"]?.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil)
    try minji.request(#"DIARY NEW second "body""#)

    let list = try minji.request("DIARY LIST")
    #expect(list.rows.map { $0["title"] } == ["second", "첫 일기"])
    #expect(list.rows[1]["preview"] == "오늘은 딸기를 샀다.")
    // LIST diary is the same listing, paged the same way.
    for paging in ["", " page=2 size=1"] {
      let listed = try minji.request("LIST diary\(paging)").lines
      #expect(listed == (try minji.request("DIARY LIST\(paging)").lines), "\(paging)")
    }

    let shown = try minji.request("DIARY SHOW \(id)")
    #expect(shown.rows[0]["body"] == "오늘은 딸기를 샀다.\n내일은 망고 🥭")
    #expect(shown.rows[0]["owner"] == "민지")

    #expect(try guest.request("DIARY SHOW \(id)").errorCode == .noAuth)
    #expect(try guest.request("DIARY LIST").errorCode == .noAuth)
    #expect(try other.request("DIARY SHOW \(id)").errorCode == .notFound)
    #expect(try other.request("DIARY LIST").rows.isEmpty)
    #expect(try other.request("DIARY DELETE \(id)").errorCode == .notFound)

    let edited = try minji.request("DIARY EDIT \(id) title=\"고친 일기\"")
    #expect(edited.rows[0]["title"] == "고친 일기")
    #expect(edited.rows[0]["body"] == "오늘은 딸기를 샀다.\n내일은 망고 🥭")
    #expect(try minji.request("DIARY EDIT \(id)").errorCode == .invalid)
    #expect(try minji.request("DIARY SHOW abc").errorCode == .invalid)
    #expect(try minji.request("DIARY DELETE \(id)").isOK)
    #expect(try minji.request("DIARY SHOW \(id)").errorCode == .notFound)
    #expect(try minji.request(#"DIARY NEW "" body"#).errorCode == .invalid)
  }

  @Test("the Paris 1900 exhibit: poster with grouped numbers, exhibits, long text", arguments: TestTransport.allCases)
  func expo(transport: TestTransport) throws {
    let server = try transport.shop()
    let client = try server.client()
    let poster = try client.request("EXPO")
    #expect(poster.rows[0]["visitors"] == "48130300")
    #expect(poster.rows[0]["visitors_text"] == "48,130,300")
    #expect(poster.rows[0]["opened"] == "1900-04-14")
    #expect(poster.rows[0]["closed"] == "1900-11-12")
    let exhibits = try client.request("LIST exhibits")
    #expect(exhibits.rows.count >= 7)
    let first = try #require(exhibits.rows.first?.id)
    let detail = try client.request("SHOW \(first)")
    #expect((detail.rows[0]["description"]?.count ?? 0) > (detail.rows[0]["summary"]?.count ?? 0))
    #expect(try client.request("ORDER \(first)").errorCode == .invalid)
  }

  @Test("HELP lists every command of the table, and INFO counts what happened", arguments: TestTransport.allCases)
  func helpAndInfo(transport: TestTransport) throws {
    let server = try transport.shop()
    let client = try server.client()
    let help = try client.request("HELP")
    #expect(help.rows.filter { $0["kind"] == nil }.map(\.id) == CommandTable.commands.map(\.name))
    let order = try client.request("help order")
    #expect(order.rows[0]["usage"] == "ORDER <item> [n] [<item> [n] ...] [key=<text>]")
    #expect(try client.request("HELP ORDR").message.contains("did you mean 'ORDER'"))
    try client.request("ORDER banana_juice")
    let info = try client.request("INFO")
    #expect(info.rows[0]["orders"] == "1")
    #expect(info.rows[0]["clients"] == "1")
    #expect(Int(info.rows[0]["commands"] ?? "0")! >= 4)
    #expect(try client.request("PING hello").message == "hello")
  }

  @Test("NAMES lists every id and alias a command takes", arguments: TestTransport.allCases)
  func names(transport: TestTransport) throws {
    let server = try transport.shop()
    let client = try server.client(as: "seller")
    let names = try client.request("NAMES")
    #expect(names.rows.first { $0.id == "strawberry_banana_juice" }?["aliases"] == "딸바쥬스")
    let generation = names.statusFields["generation"]
    try client.request("PRODUCT NEW name=Pear price=100")
    let after = try client.request("NAMES")
    #expect(after.rows.contains { $0.id == "p1" && $0["kind"] == "product" })
    #expect(after.statusFields["generation"] != generation)
  }

  @Test("QUIT answers and closes the connection", arguments: TestTransport.allCases)
  func quit(transport: TestTransport) throws {
    let server = try transport.shop()
    let client = try server.client()
    try client.send("QUIT\nPING\n")
    #expect(try client.readsToEnd() == ["OK bye"])
  }
}
