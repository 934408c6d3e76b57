import Foundation
import StockroomDomain
import StockroomProtocol
import StockroomTransport
import Testing

@testable import StockroomServer

/// The room takes part (issue 45, item 6): the board shows a join link and its QR code, and a
/// phone that opens it orders with one tap, as a guest, and sees its receipt, while the order
/// shows on the wall, on a watching REPL and in the database.
extension BoardBrowserTests {
  /// Sets a phone's viewport: 390×844, touch, as a phone in the hand.
  private func phoneView(_ page: DevToolsPage) throws {
    _ = try page.call(
      "Emulation.setDeviceMetricsOverride", ["width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true])
    try waitUntil(timeout: 30) { try page.evaluate("window.innerWidth") as? Int == 390 }
  }

  /// Taps the order button of `item` as a finger does (a press and a release where the button
  /// is), `times` times in a row, as fast as DevTools sends them.
  private func tap(_ page: DevToolsPage, _ item: String, times: Int = 1) throws {
    let button = "document.querySelector('.dish[data-item=\"\(item)\"] button')"
    _ = try page.evaluate("\(button).scrollIntoView({ block: 'center' })")
    let box = try page.evaluate(
      "(() => { const r = \(button).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    let point = (box as? [Any] ?? []).map { ($0 as? Double) ?? ($0 as? Int).map(Double.init) ?? 0 }
    #expect(point.count == 2 && point[0] > 0 && point[0] < 390 && point[1] > 0 && point[1] < 844)
    for _ in 0..<times {
      for type in ["mousePressed", "mouseReleased"] {
        _ = try page.call(
          "Input.dispatchMouseEvent",
          ["type": type, "x": point[0], "y": point[1], "button": "left", "clickCount": 1])
      }
    }
  }

  @Test(
    "at 390×844 a guest taps a juice once (twice, fast) and sees one receipt; the level moves on an open board, a WATCH client and in the database"
  )
  func phoneOrdersAJuice() throws {
    let data = try DataDirectory()
    let server = try data.openServer(initialStock: nil) { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let shopPort = try server.start()
    defer { server.stop() }
    let port = try server.startHTTP()
    let watcher = try LineClient.greeted(shopPort)
    #expect(try watcher.request("WATCH").isOK)
    try withBrowser(on: "http://127.0.0.1:\(port)/") { board in
      try waitUntil(timeout: 60) { try text(board, "[data-item=\"mango\"] .level") == "10" }
      // The join link, printed and drawn: what the phones in the room point their cameras at.
      #expect(try text(board, "#join-url") == "http://127.0.0.1:\(port)/join")
      try waitUntil(timeout: 30) {
        try board.evaluate("document.querySelector('#join img').naturalWidth") as? Int ?? 0 > 0
      }
      try withBrowser(on: "http://127.0.0.1:\(port)/join") { phone in
        try phoneView(phone)
        try waitUntil(timeout: 60) { try phone.evaluate("document.body.dataset.menu") as? String == "ready" }
        // The sections as the banchan app had them, a discount shown with its price.
        #expect(try text(phone, ".dish[data-item=\"mango_juice\"] .about") == "Mango ×3")
        #expect(try phone.evaluate("document.querySelectorAll('.dish .off').length") as? Int ?? 0 > 0)
        try tap(phone, "mango_juice", times: 2)
        try waitUntil(timeout: 30) { try text(phone, "#receipt h2") == "Order #1" }
        #expect(try text(phone, "#receipt")?.contains("Mango ×3 (7 left)") == true)
        // The receipt is on the phone's first screen.
        let bottom = try phone.evaluate("document.getElementById('receipt').getBoundingClientRect().bottom")
        #expect((bottom as? Double ?? (bottom as? Int).map(Double.init) ?? .infinity) <= 844)
        #expect(try phone.evaluate("document.documentElement.scrollWidth") as? Int ?? .max <= 390)
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        try phone.screenshot(width: 390, height: 844, mobile: true).write(
          to: Self.artifacts.appendingPathComponent("join-390x844.png"))
      }
      try waitUntil(timeout: 30) { try text(board, "[data-item=\"mango\"] .level") == "7" }
      try waitUntil(timeout: 30) { try text(board, "#recent li .what")?.hasSuffix("#1 Mango Juice ×1") == true }
    }
    let event = try watcher.readEvent()
    #expect(event["item"] == "mango" && event["level"] == "7" && event["cause"] == "order")
    // The double tap ordered once, and the database has it: the ledger, read from the file,
    // holds one guest's order of the juice's fruit.
    #expect(server.shop.read { $0.ordersMade } == 1)
    let (entries, total) = try server.shop.ledger(of: "mango", paging: Paging())
    #expect(total == 1)
    #expect(
      entries.first.map { [$0.change, $0.orderID ?? 0] } == [-3, 1] && entries.first?.user == "guest"
        && entries.first?.cause == "order")
  }

  @Test("a phone sees a shortage fruit by fruit, and nothing is taken")
  func phoneSeesShortage() throws {
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let port = try server.server.startHTTP()
    try withBrowser(on: "http://127.0.0.1:\(port)/join") { phone in
      try phoneView(phone)
      try waitUntil(timeout: 60) { try phone.evaluate("document.body.dataset.menu") as? String == "ready" }
      // Someone at the counter takes the strawberries while the phone's menu still offers the juice.
      #expect(try LineClient.greeted(server.port).request("ORDER strawberry 5 banana 10").isOK)
      try tap(phone, "strawberry_banana_juice")
      try waitUntil(timeout: 30) { try text(phone, "#receipt h2") == "Not enough stock, nothing taken" }
      let items = try phone.evaluate("[...document.querySelectorAll('#receipt li')].map((li) => li.textContent)")
      #expect(items as? [String] == ["Strawberry: needs 10, has 5", "Banana: needs 1, has 0"])
    }
    #expect(server.server.shop.read { $0.level(of: "strawberry")?.current } == 5)
  }

  @Test("product names with markup show as text on the phone page: no element made, no script run")
  func markupOnThePhonePage() throws {
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let port = try server.server.startHTTP()
    let seller = try LineClient.greeted(server.port, user: "mallory")
    for name in Self.hostileNames {
      let description = Quoting.quote(name, isValue: true)
      #expect(
        try seller.request("PRODUCT NEW name=\(Quoting.quote(name)) price=100 stock=5 description=\(description)").isOK)
    }
    try withBrowser(on: "http://127.0.0.1:\(port)/join") { phone in
      try phoneView(phone)
      try waitUntil(timeout: 60) { try phone.evaluate("document.body.dataset.menu") as? String == "ready" }
      for (offset, name) in Self.hostileNames.enumerated() {
        #expect(try text(phone, ".dish[data-item=\"p\(offset + 1)\"] .name") == name)
      }
      try tap(phone, "p2")
      try waitUntil(timeout: 30) { try text(phone, "#receipt h2") == "Order #1" }
      #expect(try text(phone, "#receipt li")?.hasPrefix(Self.hostileNames[1]) == true)
      #expect(try phone.evaluate("document.querySelectorAll('img, svg, .dish .name *').length") as? Int == 0)
      #expect(try phone.evaluate("document.scripts.length") as? Int == 1)
      #expect(try phone.evaluate("typeof window.pwned") as? String == "undefined")
    }
  }

  @Test("a form on another site that posts an order to the shop, with a leaked token, is refused by its Origin")
  func crossSiteFormRefused() throws {
    let shop = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let shopHTTP = try shop.server.startHTTP()
    // Another origin (another port): the page a visitor was lured to.
    let elsewhere = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let elsewhereHTTP = try elsewhere.server.startHTTP()
    let page = try HTTPExchange.get("/join", port: shopHTTP)
    let token = try #require(page.body.firstMatch(of: /name="stockroom-token" content="([0-9a-f]{32})"/)).1
    try withBrowser(on: "http://127.0.0.1:\(elsewhereHTTP)/join") { browser in
      try waitUntil(timeout: 60) { try browser.evaluate("document.body.dataset.menu") as? String == "ready" }
      // The classic JSON-by-form body: a text/plain form whose one field's name and value
      // make up the JSON. The browser sends it with its own Origin, as it sends every POST.
      let json = "{\"token\":\"\(token)\",\"key\":\"tap-evil-1\",\"item\":\"mango_juice\",\"quantity\":1,\"x\":\""
      _ = try browser.evaluate(
        """
        (() => { const form = document.createElement('form'); form.method = 'POST';
          form.action = 'http://127.0.0.1:\(shopHTTP)/order'; form.enctype = 'text/plain';
          const field = document.createElement('input'); field.name = \(try jsonString(json));
          field.value = '"}'; form.append(field); document.body.append(form);
          setTimeout(() => form.submit(), 0); })()
        """)
      // Submitted after this evaluation has answered, and polled across the navigation: an
      // evaluation that meets it is answered "navigated", which here means "not there yet".
      try waitUntil(timeout: 30) {
        try browser.evaluateAcrossNavigation("document.body?.textContent ?? ''") as? String ?? "" != ""
          && browser.evaluateAcrossNavigation("location.port") as? String == String(shopHTTP)
      }
      #expect(try text(browser, "body")?.contains("\"code\":\"ORIGIN\"") == true)
    }
    #expect(shop.server.shop.read { $0.level(of: "mango")?.current } == 10)
    #expect(shop.server.shop.read { $0.ordersMade } == 0)
  }

  /// `text` as a JavaScript string literal.
  private func jsonString(_ text: String) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast()
      .description
  }
}
