import Foundation
import StockroomFixtures
import StockroomProtocol
import StockroomSystem
import StockroomTransport
import Testing

@testable import StockroomServer

#if canImport(Glibc)
  import Glibc
#endif

/// The board as a person sees it: a real headless Chromium opens it, an order is placed over
/// TCP, and the page, read through the DevTools protocol, shows the new level without a reload.
/// Every test here fails on a script error in the page (an uncaught exception, `console.error`,
/// a script the browser refused), whatever the page then shows.
@Suite("the board in a real browser", .timeLimit(.minutes(30)))
struct BoardBrowserTests {
  static let chromium = "/usr/bin/chromium"
  static let artifacts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".build/artifacts")

  /// Starts Chromium on `url` with a DevTools port of its own; returns its pid and the page.
  private func openBrowser(_ url: String, folder: URL) throws -> (pid_t, DevToolsPage) {
    let log = folder.appendingPathComponent("chromium.log").path
    let pid = try Subprocess.start(
      Self.chromium,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
        "--remote-debugging-port=0", "--user-data-dir=\(folder.path)/profile", "--window-size=1920,1080", url,
      ], environment: ["HOME": folder.path, "PATH": "/usr/bin:/bin"], stderr: log)
    var port: UInt16?
    try waitUntil(timeout: 60) {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      port = text.firstMatch(of: /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//).flatMap { UInt16($0.1) }
      return port != nil
    }
    var page: String?
    try waitUntil(timeout: 60) {
      page =
        try targets(port!).first { $0["type"] as? String == "page" && ($0["url"] as? String) == url }?[
          "webSocketDebuggerUrl"] as? String
      return page != nil
    }
    return (pid, try DevToolsPage(debuggerURL: page!))
  }

  /// Runs `body` with a Chromium open on `url`, in a profile folder of its own that goes with it,
  /// and fails the test if the page's script met an error meanwhile.
  func withBrowser(on url: String, _ body: (DevToolsPage) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (pid, page) = try openBrowser(url, folder: folder)
    defer {
      kill(pid, SIGTERM)
      _ = try? Spawn.wait(for: pid)
    }
    try page.watchScriptErrors()
    try body(page)
    let errors = try page.scriptErrors()
    #expect(errors.isEmpty, "the board's script failed in the browser: \(errors)")
  }

  /// The board's port, from the line `stockroomd` logs when it starts serving it.
  func boardPort(_ daemon: DaemonProcess) throws -> UInt16 {
    var port: UInt16?
    try waitUntil {
      port = daemon.log.firstMatch(of: /board on http:\/\/127\.0\.0\.1:(\d+)\//).flatMap { UInt16($0.1) }
      return port != nil
    }
    return port!
  }

  /// DevTools' `/json/list`, read to its Content-Length (it keeps the connection open).
  private func targets(_ port: UInt16) throws -> [[String: Any]] {
    let fd = try HTTPExchange.connected(port: port, timeout: 10)
    defer { close(fd) }
    let request = "GET /json/list HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
    _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    var raw: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return [] }
      raw += chunk[..<count]
      guard let end = raw.firstRange(of: Array("\r\n\r\n".utf8)) else { continue }
      let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
      guard let length = head.firstMatch(of: /Content-Length:\s*(\d+)/).flatMap({ Int($0.1) }) else { return [] }
      if raw.count - end.upperBound >= length {
        let body = Data(raw[end.upperBound..<(end.upperBound + length)])
        return try JSONSerialization.jsonObject(with: body) as? [[String: Any]] ?? []
      }
    }
  }

  func text(_ page: DevToolsPage, _ selector: String) throws -> String? {
    try page.evaluate("document.querySelector('\(selector)')?.textContent ?? null") as? String
  }

  @Test("an order over TCP moves the level on the open page, without a reload; screenshots at 1920×1080 and 390×844")
  func liveUpdateAndScreenshots() throws {
    #expect(FileManager.default.isExecutableFile(atPath: Self.chromium), "Scripts/test installs chromium")
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let port = try server.server.startHTTP()
    try withBrowser(on: "http://127.0.0.1:\(port)/") { page in
      try waitUntil(timeout: 60) { try text(page, "[data-item=\"banana\"] .level") == "10" }
      #expect(try text(page, "[data-item=\"galbi_jjim\"] .name") == "소갈비찜")
      #expect(try text(page, "#status") == "live")
      // Marks this document: a reload would make a new one, without the mark.
      _ = try page.evaluate("window.stockroomMark = 'first load'")

      let orders = try LineClient.greeted(server.port)
      #expect(try orders.request("ORDER banana 3").isOK)
      try waitUntil(timeout: 30) { try text(page, "[data-item=\"banana\"] .level") == "7" }
      #expect(try page.evaluate("window.stockroomMark") as? String == "first load", "the page was reloaded")
      #expect(
        try page.evaluate("document.querySelector('[data-item=\"banana\"] .bar span').style.width") as? String == "70%")
      // As ordered, from the next stats event's recent orders.
      try waitUntil(timeout: 30) { try text(page, "#recent li .what")?.hasSuffix("#1 Banana ×3") == true }
      // Counted as it came, not 2 s later at the next stats event.
      #expect(try text(page, "#orders") == "1")

      // The screenshot as the room sees it: orders in more than one section, the figures from a
      // stats event that came after them (orders per second is "–" until one has), no bar still moving.
      #expect(try orders.request("ORDER strawberry_banana_juice").isOK)
      #expect(try orders.request("ORDER kimchi_jjigae 4 miyeokguk").isOK)
      try waitUntil(timeout: 30) { try text(page, "[data-item=\"kimchi_jjigae\"] .level") == "8" }
      try waitUntil(timeout: 30) {
        try page.evaluate(
          "document.getElementById('rate').textContent !== '–' && document.getElementById('connections').textContent === '1'"
        )
          as? Bool == true
      }
      // Every order named as ordered (a stats event's recent orders came after it).
      try waitUntil(timeout: 30) { try text(page, "#recent li .what")?.hasSuffix("#3 김치찌개 ×4, 미역국 ×1") == true }
      try waitUntil(timeout: 30) { try page.evaluate("document.getAnimations().length") as? Int == 0 }
      #expect(try text(page, "#orders") == "3")

      try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
      for (width, height, mobile) in [(1920, 1080, false), (390, 844, true)] {
        let png = try page.screenshot(width: width, height: height, mobile: mobile)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)
        try png.write(to: Self.artifacts.appendingPathComponent("board-\(width)x\(height).png"))
        // Nothing wider than the screen: no sideways scrolling on a phone.
        #expect(try page.evaluate("document.documentElement.scrollWidth") as? Int ?? .max <= width)
      }
      // The shared store lost, as the shared writer announces it: said plainly, as `top` says it.
      for mailbox in server.server.shop.hub.announce(.down(reason: "no route to host")) { mailbox.notify() }
      try waitUntil(timeout: 30) { try text(page, "#store") == "store=down" }
    }
  }

  @Test("the open page reconnects by itself when the server restarts, and goes on from the new server's levels")
  func reconnectsAfterRestart() throws {
    let data = try DataDirectory()
    let (first, shopPort) = try data.start(["--http", "127.0.0.1:0"])
    let board = try boardPort(first)
    try withBrowser(on: "http://127.0.0.1:\(board)/") { page in
      try waitUntil(timeout: 60) { try text(page, "[data-item=\"kiwi\"] .level") == "10" }
      _ = try page.evaluate("window.stockroomMark = 'first load'")
      #expect(try LineClient.greeted(shopPort).request("ORDER kiwi 2").isOK)
      try waitUntil(timeout: 30) { try text(page, "[data-item=\"kiwi\"] .level") == "8" }

      _ = try first.logThroughStop()
      first.process.waitUntilExit()
      try waitUntil(timeout: 30) { try text(page, "#status") == "reconnecting…" }
      // Unmistakably stale: a banner with the time it was lost, the store unknown, the figures
      // and the stock dimmed, not only a grey word in the corner.
      try waitUntil(timeout: 30) { try page.evaluate("document.getElementById('banner')?.hidden") as? Bool == false }
      #expect(try text(page, "#banner")?.wholeMatch(of: /server unreachable since \d\d:\d\d:\d\d/) != nil)
      #expect(try text(page, "#store") == "unreachable")
      for part in [".figures", "main"] {
        let opacity = try page.evaluate("Number(getComputedStyle(document.querySelector('\(part)')).opacity)")
        #expect((opacity as? Double ?? (opacity as? Int).map(Double.init) ?? 1) < 0.6, "\(part) is not dimmed")
      }
      let (second, newShopPort) = try data.start(["--http", "127.0.0.1:\(board)"])
      defer { withExtendedLifetime(second) {} }
      try waitUntil(timeout: 60) { try text(page, "#status") == "live" }
      try waitUntil(timeout: 30) { try page.evaluate("document.getElementById('banner').hidden") as? Bool == true }
      #expect(try text(page, "#store") == "up")
      #expect(try page.evaluate("getComputedStyle(document.querySelector('main')).opacity") as? String == "1")
      #expect(try LineClient.greeted(newShopPort).request("ORDER kiwi 3").isOK)
      try waitUntil(timeout: 30) { try text(page, "[data-item=\"kiwi\"] .level") == "5" }
      #expect(try page.evaluate("window.stockroomMark") as? String == "first load", "the page was reloaded")
    }
  }

  /// Names a seller could choose to run a script in every screen that shows them, were a name
  /// ever taken for markup: an element with a handler, the end of the page's script and a new
  /// one, an attribute's end.
  static let hostileNames = [
    "<img src=x onerror=window.pwned=1>",
    "</script><script>window.pwned=2</script>",
    "\"><svg onload=window.pwned=3>",
  ]

  @Test("product names with markup show as text on the board: their letters, no element made, no script run")
  func markupInProductNames() throws {
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let port = try server.server.startHTTP()
    let seller = try LineClient.greeted(server.port, user: "mallory")
    // One listed before the page opens (it comes in the first snapshot), the rest while it is
    // open (each comes in a stock event of its own).
    #expect(try seller.request("PRODUCT NEW name=\(Quoting.quote(Self.hostileNames[0])) price=100 stock=5").isOK)
    let row = { (index: Int) in "document.querySelector('[data-item=\"p\(index)\"]') !== null" }
    try withBrowser(on: "http://127.0.0.1:\(port)/") { page in
      try waitUntil(timeout: 60) { try page.evaluate(row(1)) as? Bool == true }
      let scripts = try page.evaluate("document.scripts.length") as? Int
      for name in Self.hostileNames.dropFirst() {
        #expect(try seller.request("PRODUCT NEW name=\(Quoting.quote(name)) price=100 stock=5").isOK)
      }
      try waitUntil(timeout: 30) { try page.evaluate(row(3)) as? Bool == true }
      // Ordered, the names reach the list of recent orders too.
      #expect(try seller.request("ORDER p1 p2 p3").isOK)
      try waitUntil(timeout: 30) { try page.evaluate("document.querySelectorAll('#recent li').length") as? Int == 1 }
      let recent = try text(page, "#recent li") ?? ""
      for (offset, name) in Self.hostileNames.enumerated() {
        #expect(try text(page, "[data-item=\"p\(offset + 1)\"] .name") == name)
        #expect(recent.contains(name), "\(name) is not in the recent order: \(recent)")
      }
      // The join link's QR code is the page's one image.
      #expect(
        try page.evaluate("[...document.querySelectorAll('img, svg')].filter((e) => !e.closest('#join')).length")
          as? Int == 0)
      #expect(try page.evaluate("document.querySelectorAll('.name *, #recent li * *').length") as? Int == 0)
      #expect(try page.evaluate("document.scripts.length") as? Int == scripts)
      #expect(try page.evaluate("typeof window.pwned") as? String == "undefined")
    }
  }

  @Test("store=down on the board when the node's PostgreSQL stops, and up when it is back")
  func storeDownWhenPostgresStops() throws {
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    let url = try PostgresShop.withAccounts(in: cluster)
    let (node, shopPort) = try PostgresShop.node(url, ["--http", "127.0.0.1:0"])
    defer { node.process.terminate() }
    try withBrowser(on: "http://127.0.0.1:\(try boardPort(node))/") { page in
      try waitUntil(timeout: 60) { try text(page, "[data-item=\"kiwi\"] .level") == "10" }
      #expect(try text(page, "#store") == "up")
      let alice = try PostgresShop.client(shopPort, as: "alice")
      try cluster.stop()
      #expect(try alice.request("ORDER kiwi").errorCode == .unavailable)
      try waitUntil(timeout: 60) { try text(page, "#store") == "store=down" }
      try cluster.start()
      try waitUntil(timeout: 120) { try text(page, "#store") == "up" }
      #expect(try alice.request("ORDER kiwi").isOK)
      try waitUntil(timeout: 30) { try text(page, "[data-item=\"kiwi\"] .level") == "9" }
    }
  }
}
