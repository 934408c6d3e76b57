import Foundation
import StockroomProtocol
import StockroomTransport
import Testing

@testable import StockroomServer

/// `POST /order` as a hostile page or a hurried thumb would send it, over a raw socket: only the
/// shop's own page orders (its Origin, its token), a key orders once, and the per-address order
/// rate refuses a flood with a clear message while another address still orders.
@Suite("phone orders over HTTP", .timeLimit(.minutes(30)))
struct PhoneOrderTests {
  private func server(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> (TestServer, UInt16) {
    let server = try TestServer(initialStock: 100) {
      $0.http = ListenAddress(host: "127.0.0.1", port: 0)
      configure(&$0)
    }
    return (server, try server.server.startHTTP())
  }

  /// A phone page's token, as `GET /join` gives it.
  private func token(_ port: UInt16, from source: String = "127.0.0.1") throws -> String {
    let page = try HTTPExchange.get("/join", port: port, from: source)
    #expect(page.status == 200)
    return try #require(page.body.firstMatch(of: /name="stockroom-token" content="([0-9a-f]{32})"/)).1.description
  }

  private func post(
    _ body: String, port: UInt16, origin: String? = "", from source: String = "127.0.0.1", extra: String = ""
  ) throws -> HTTPExchange {
    var head = "POST /order HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    if let origin { head += "Origin: \(origin.isEmpty ? "http://127.0.0.1:\(port)" : origin)\r\n" }
    head += extra + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
    return try HTTPExchange.parse(
      HTTPExchange.rawAnswer(Array((head + body).utf8), port: port, timeout: 15, from: source))
  }

  private func order(_ token: String, _ key: String, _ item: String, quantity: Int = 1) -> String {
    "{\"token\":\"\(token)\",\"key\":\"\(key)\",\"item\":\"\(item)\",\"quantity\":\(quantity)}"
  }

  private func level(_ server: TestServer, _ item: String) -> Int? {
    server.server.shop.read { $0.level(of: item)?.current }
  }

  @Test("the same key twice orders once and answers the same receipt; the key for another item is refused")
  func keyOrdersOnce() throws {
    let (server, port) = try server()
    let token = try token(port)
    let first = try post(order(token, "tap-0001", "mango_juice"), port: port)
    #expect(first.status == 200, "\(first.body)")
    #expect(first.body.contains("\"order\":1") && first.body.contains("\"left\":97"), "\(first.body)")
    let again = try post(order(token, "tap-0001", "mango_juice"), port: port)
    #expect(again.status == 200 && again.body == first.body)
    let other = try post(order(token, "tap-0001", "banana_juice"), port: port)
    #expect(other.status == 409 && other.body.contains("already used"), "\(other.body)")
    #expect(level(server, "mango") == 97 && level(server, "banana") == 100)
    #expect(server.server.shop.read { $0.ordersMade } == 1)
    // A new tap is a new key, and a new order.
    #expect(try post(order(token, "tap-0002", "mango_juice"), port: port).status == 200)
    #expect(level(server, "mango") == 94)
  }

  @Test(
    "a cross-site POST, one without Origin, one a browser calls cross-site, or one with a bad token: 403, nothing taken"
  )
  func crossSiteRefused() throws {
    let (server, port) = try server()
    let token = try token(port)
    let body = order(token, "tap-0001", "mango_juice")
    let refused = [
      try post(body, port: port, origin: "http://evil.example"),
      try post(body, port: port, origin: "http://127.0.0.1:\(port).evil.example"),
      try post(body, port: port, origin: nil),
      try post(body, port: port, extra: "Sec-Fetch-Site: cross-site\r\n"),
      try post(order(String(repeating: "0", count: 32), "tap-0002", "mango_juice"), port: port),
    ]
    for answer in refused {
      #expect(answer.status == 403, "\(answer.body)")
      #expect(answer.body.contains("\"ok\":false"))
    }
    #expect(refused[4].body.contains("reload"), "\(refused[4].body)")
    #expect(level(server, "mango") == 100)
    #expect(server.server.shop.read { $0.ordersMade } == 0)
    // The same body from the page itself orders.
    #expect(try post(body, port: port, extra: "Sec-Fetch-Site: same-origin\r\n").status == 200)
  }

  @Test("a malformed or too large body is refused with a clear error and takes nothing")
  func badBodies() throws {
    let (server, port) = try server()
    let token = try token(port)
    let cases: [(String, Int, String)] = [
      ("not json", 400, "JSON object"),
      (order(token, "short", "mango_juice"), 400, "key of 8 to 64"),
      (order(token, "tap-0001", "mango_juice", quantity: 0), 400, "quantity"),
      (order(token, "tap-0002", "no_such_thing"), 400, "NOTFOUND"),
      (
        "{\"token\":\"\(token)\",\"key\":\"tap-0003\",\"item\":\"mango_juice\",\"quantity\":1,\"user\":\"admin\"}", 400,
        "only"
      ),
      (String(repeating: " ", count: HTTPLimits.orderBody + 1), 413, "too large"),
    ]
    for (body, status, words) in cases {
      let answer = try post(body, port: port)
      #expect(answer.status == status && answer.body.contains(words), "\(body.prefix(80)): \(answer.body)")
    }
    #expect(level(server, "mango") == 100)
    #expect(server.server.shop.read { $0.ordersMade } == 0)
  }

  @Test("past the per-address order rate a phone is refused with a clear message; another address still orders")
  func orderRateRefusesTheFloodNotTheNewcomer() throws {
    let (server, port) = try server { $0.orderRate = 1 }
    let page = try token(port)
    var refusal: HTTPExchange?
    var placed = 0
    for tap in 1...40 {
      let answer = try post(order(page, "flood-\(1000 + tap)", "banana"), port: port)
      guard answer.status == 200 else {
        refusal = answer
        break
      }
      placed += 1
    }
    let refused = try #require(refusal)
    #expect(refused.status == 429, "\(refused.body)")
    #expect(refused.body.contains("too many orders from your address"), "\(refused.body)")
    #expect(placed >= 10 && level(server, "banana") == 100 - placed)
    let theirs = try token(port, from: "127.0.0.2")
    let newcomer = try post(order(theirs, "new-00001", "banana"), port: port, from: "127.0.0.2")
    #expect(newcomer.status == 200, "\(newcomer.body)")
  }

  @Test("a flood of page loads from one address forgets its own oldest tokens, never another address's")
  func tokensSharedFairly() throws {
    let (server, port) = try server()
    let theirs = try token(port, from: "127.0.0.2")
    let firstOfMine = try token(port)
    for _ in 0..<HTTPLimits.pageTokensPerAddress { _ = try token(port) }
    let stale = try post(order(firstOfMine, "tap-0001", "kiwi"), port: port)
    #expect(stale.status == 403 && stale.body.contains("\"TOKEN\""), "\(stale.body)")
    let answer = try post(order(theirs, "tap-0002", "kiwi"), port: port, from: "127.0.0.2")
    #expect(answer.status == 200, "\(answer.body)")
    #expect(level(server, "kiwi") == 99)
  }

  @Test("the join link's QR code, as SVG for the board and as half blocks for a terminal")
  func joinCode() throws {
    let (server, port) = try server()
    defer { withExtendedLifetime(server) {} }
    let svg = try HTTPExchange.get("/join.svg", port: port)
    #expect(svg.status == 200 && svg.header("Content-Type") == "image/svg+xml")
    #expect(svg.body.hasPrefix("<svg") && svg.body.contains("crispEdges"))
    #expect(try HTTPExchange.get("/order", port: port).header("Allow") == "POST")
    let text = try HTTPExchange.get("/join.txt", port: port)
    let code = try #require(QRMatrix("http://127.0.0.1:\(port)/join"))
    #expect(text.body == code.halfBlocks)
  }
}
