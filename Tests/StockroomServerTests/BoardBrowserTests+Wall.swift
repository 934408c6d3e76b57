import Foundation
import StockroomFixtures
import StockroomProtocol
import StockroomTransport
import Testing

@testable import StockroomServer

/// The board on a wall, a laptop and a phone (issue 45): every section on one screen, recent
/// orders as they were ordered and there from the first load, a bar's colours as the terminal's.
extension BoardBrowserTests {
  /// Sets the page's viewport, as `screenshot` does, without taking one.
  private func view(_ page: DevToolsPage, _ width: Int, _ height: Int, mobile: Bool) throws {
    _ = try page.call(
      "Emulation.setDeviceMetricsOverride",
      ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile])
    try waitUntil(timeout: 30) { try page.evaluate("window.innerWidth") as? Int == width }
  }

  /// The screen as measured, for a person to look at: .build/artifacts/board-full-WxH.png.
  private func savePicture(_ page: DevToolsPage, _ width: Int, _ height: Int, mobile: Bool) throws {
    try waitUntil(timeout: 30) { try page.evaluate("document.getAnimations().length") as? Int == 0 }
    let png = try page.screenshot(width: width, height: height, mobile: mobile)
    try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
    try png.write(to: Self.artifacts.appendingPathComponent("board-full-\(width)x\(height).png"))
  }

  private func number(_ page: DevToolsPage, _ expression: String) throws -> Double {
    let value = try page.evaluate(expression)
    return value as? Double ?? (value as? Int).map(Double.init) ?? .nan
  }

  @Test(
    "the shipped catalogue and 20 market products fit 1920×1080 and 1280×800; a phone has its orders on the first screen"
  )
  func fitsWallLaptopAndPhone() throws {
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let port = try server.server.startHTTP()
    let seller = try LineClient.greeted(server.port, user: "minji")
    for index in 1...20 {
      #expect(try seller.request("PRODUCT NEW name=\"Market stall product \(index)\" price=1500 stock=6").isOK)
    }
    for order in ["ORDER banana 3", "ORDER mango_juice 2 kimchi_jjigae", "ORDER p4 2 japchae"] {
      #expect(try seller.request(order).isOK)
    }
    try withBrowser(on: "http://127.0.0.1:\(port)/") { page in
      try waitUntil(timeout: 60) { try page.evaluate("document.querySelectorAll('.item').length") as? Int == 40 }
      for (width, height) in [(1920, 1080), (1280, 800)] {
        try view(page, width, height, mobile: false)
        try waitUntil(timeout: 30) {
          try number(page, "document.documentElement.scrollHeight") <= Double(height)
        }
        try waitUntil(timeout: 30) { try page.evaluate("document.querySelectorAll('#recent li').length") as? Int == 3 }
        // Every item and the newest order inside the screen, in type still readable across a room.
        let lowest = try number(
          page, "Math.max(...[...document.querySelectorAll('.item')].map((e) => e.getBoundingClientRect().bottom))")
        #expect(lowest <= Double(height), "at \(width)×\(height) an item ends at \(lowest)")
        #expect(
          try number(page, "document.querySelector('#recent li').getBoundingClientRect().bottom") <= Double(height))
        let size = try number(page, "parseFloat(getComputedStyle(document.querySelector('.item .name')).fontSize)")
        #expect(size >= 11, "at \(width)×\(height) names are \(size) px")
        #expect(try number(page, "document.documentElement.scrollWidth") <= Double(width))
        try savePicture(page, width, height, mobile: false)
      }
      try view(page, 390, 844, mobile: true)
      try waitUntil(timeout: 30) {
        try number(page, "document.querySelector('#recent li').getBoundingClientRect().bottom") <= 844
      }
      #expect(try number(page, "document.querySelector('aside h2').getBoundingClientRect().top") < 844)
      #expect(try number(page, "document.documentElement.scrollWidth") <= 390)
      #expect(try number(page, "parseFloat(getComputedStyle(document.querySelector('#recent li')).fontSize)") >= 14)
      try savePicture(page, 390, 844, mobile: true)
      // Dark as the phone prefers, still: a guard, dark mode was there before.
      _ = try page.call(
        "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
      try waitUntil(timeout: 30) {
        try page.evaluate("getComputedStyle(document.body).backgroundColor") as? String == "rgb(18, 20, 23)"
      }
      #expect(try number(page, "document.querySelector('#recent li').getBoundingClientRect().bottom") <= 844)
    }
  }

  @Test("on a wall with a short catalogue the recent orders fill the screen's height below the join code, none cut off")
  func recentOrdersFillTheWall() throws {
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let port = try server.server.startHTTP()
    let client = try LineClient.greeted(server.port)
    for _ in 1...8 { #expect(try client.request("ORDER banana 1").isOK) }
    try withBrowser(on: "http://127.0.0.1:\(port)/") { page in
      try view(page, 1920, 1080, mobile: false)
      try waitUntil(timeout: 60) { try page.evaluate("document.querySelectorAll('#recent li').length") as? Int == 8 }
      try waitUntil(timeout: 30) { try number(page, "document.documentElement.scrollHeight") <= 1080 }
      // The aside hides what overflows it: every order's box must end inside the aside's.
      let aside = try number(page, "document.querySelector('aside').getBoundingClientRect().bottom")
      let lowest = try number(
        page, "Math.max(...[...document.querySelectorAll('#recent li')].map((e) => e.getBoundingClientRect().bottom))")
      #expect(lowest <= aside, "the oldest of 8 orders ends at \(lowest), the aside at \(aside)")
      #expect(aside <= 1080)
    }
  }

  @Test(
    "orders placed before the page opened are listed on first load, as ordered (Mango Juice ×3), then what they took")
  func recentOrdersAsOrdered() throws {
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let port = try server.server.startHTTP()
    let client = try LineClient.greeted(server.port)
    #expect(try client.request("ORDER mango_juice 3").isOK)
    #expect(try client.request("ORDER banana 2").isOK)
    try withBrowser(on: "http://127.0.0.1:\(port)/") { page in
      try waitUntil(timeout: 30) { try page.evaluate("document.querySelectorAll('#recent li').length") as? Int == 2 }
      let entries = { () throws -> [String] in
        try page.evaluate("[...document.querySelectorAll('#recent li')].map((e) => e.textContent)") as? [String] ?? []
      }
      let first = try entries()
      #expect(first[0].contains("#2 Banana ×2") && !first[0].contains("took"), "\(first)")
      #expect(first[1].contains("#1 Mango Juice ×3") && first[1].hasSuffix("took Mango ×9"), "\(first)")
      // One placed while the page is open: as ordered too, once the server names it.
      #expect(try client.request("ORDER kiwi_juice 2").isOK)
      try waitUntil(timeout: 30) { try entries().first?.contains("#3 Kiwi Juice ×2") == true }
      #expect(try entries().first?.hasSuffix("took Kiwi ×6") == true)
      #expect(try entries().count == 3)
    }
  }

  @Test("a bar is green from half its starting level, yellow below half and red below a quarter, as in the terminal")
  func barColoursAsTheTerminal() throws {
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let port = try server.server.startHTTP()
    let client = try LineClient.greeted(server.port)
    // Each fruit starts at 10: 60 %, 40 %, 20 % and none left.
    #expect(try client.request("ORDER banana 4 kiwi 6 strawberry 8 mango 10").isOK)
    try withBrowser(on: "http://127.0.0.1:\(port)/") { page in
      try waitUntil(timeout: 30) { try text(page, "[data-item=\"mango\"] .level") == "0" }
      let states = try page.evaluate(
        "['banana', 'kiwi', 'strawberry', 'mango'].map((id) => document.querySelector(`[data-item=\"${id}\"]`).dataset.state)"
      )
      #expect(states as? [String] == ["ok", "half", "low", "out"])
      // The colours drawn, against the palette's green, yellow and red.
      let colours =
        try page.evaluate(
          """
          (() => {
            const probe = document.createElement('i');
            document.body.append(probe);
            const colour = (name) => { probe.style.color = `var(${name})`; return getComputedStyle(probe).color; };
            const bar = (id) => getComputedStyle(document.querySelector(`[data-item="${id}"] .bar span`)).backgroundColor;
            const found = [bar('banana'), bar('kiwi'), bar('strawberry')];
            const wanted = [colour('--full'), colour('--half'), colour('--out')];
            probe.remove();
            return { found, wanted };
          })()
          """) as? [String: [String]]
      #expect(colours?["found"] == colours?["wanted"], "\(String(describing: colours))")
      #expect(Set(colours?["wanted"] ?? []).count == 3, "\(String(describing: colours))")
    }
  }
}
