import Foundation
import StockroomProtocol
import StockroomStorage
import Testing

@testable import StockroomEngineHarness

/// The tests that speak only the protocol run once per store, SQLite and PostgreSQL; the rest
/// reach into the SQLite file itself.
@Suite("Durable shop", .timeLimit(.minutes(30)))
struct DurabilityTests {
  private func connect(_ port: UInt16, as user: String? = nil) throws -> LineClient {
    try LineClient.greeted(port, user: user, role: .staff)
  }

  @Test(
    "orders, restocks, products and diary entries made before a clean stop are all there after start",
    arguments: StoreKind.allCases)
  func restart(store: StoreKind) throws {
    let data = try DataDirectory(store: store).addAccount()
    let (stockBefore, ordersBefore): ([String], [String])
    // The engine on the store, stopped at the end of the block as a server stops, then again.
    do {
      let alice = try EngineHarness(data: data).client(as: "alice", role: .staff)
      #expect(try alice.request("ORDER 딸바쥬스 banana_juice 2").statusFields["order"] == "1")
      try alice.request("ADD kiwi 7 mango -3")
      #expect(try alice.request("PRODUCT NEW name=\"Red apple\" price=1200 stock=4 discount=10%").isOK)
      try alice.request("PRODUCT NEW name=Pear price=2.50 currency=USD")
      try alice.request("PRODUCT DELETE p2")
      try alice.request(#"DIARY NEW "첫 일기" "딸기를 샀다\n비싸다""#)
      try alice.request("ORDER p1 2")
      stockBefore = try alice.request("STOCK").lines
      ordersBefore = try alice.request("LIST orders").lines
    }
    let alice = try EngineHarness(data: data).client(as: "alice", role: .staff)
    #expect(try alice.request("STOCK").lines == stockBefore)
    #expect(try alice.request("LIST orders").lines == ordersBefore)
    let products = try alice.request("LIST products")
    #expect(products.rows.map(\.id) == ["p1"])
    #expect(products.rows[0]["discount"] == "10%")
    #expect(products.rows[0]["stock"] == "2")
    let diary = try alice.request("DIARY SHOW 1")
    #expect(diary.rows[0]["body"] == "딸기를 샀다\n비싸다")
    // Counters carry on rather than restart: no id is handed out twice.
    #expect(try alice.request("ORDER kiwi_juice").statusFields["order"] == "3")
    #expect(try alice.request("PRODUCT NEW name=Plum price=900").statusFields["product"] == "p3")
    let ledger = try alice.request("STOCKTAKE kiwi")
    #expect(ledger.rows[0]["balances"] == "yes")
    #expect(ledger.rows.dropFirst().map { $0["cause"] } == ["order", "restock"])
    let info = try alice.request("INFO").rows[0]
    #expect(info["storage"] == store.rawValue)
    #expect(info["orders"] == "3")
    #expect(info["read_only"] == "no")
  }

  @Test("the same keyed order sent twice, and again after a restart, takes stock once", arguments: StoreKind.allCases)
  func keyedOrders(store: StoreKind) throws {
    let data = try DataDirectory(store: store).addAccount()
    var (daemon, port) = try data.start()
    var client = try connect(port, as: "bob")
    let first = try client.request("ORDER mango_juice 2 key=retry-1")
    let second = try client.request("ORDER mango_juice 2 key=retry-1")
    #expect(first.lines == second.lines)
    #expect(try client.request("STOCK mango").rows[0]["stock"] == "4")
    #expect(try client.request("ORDER mango_juice 1 key=retry-1").errorCode == .invalid)
    _ = try daemon.kill9()

    (daemon, port) = try data.start()
    client = try connect(port, as: "bob")
    #expect(try client.request("ORDER mango_juice 2 key=retry-1").lines == first.lines)
    #expect(try client.request("STOCK mango").rows[0]["stock"] == "4")
    #expect(try client.request("ORDER mango_juice 1 key=retry-2").isOK)
  }

  @Test("a truncated or garbage database is refused at start-up with a clear message, never a crash or a reset")
  func corruption() throws {
    let data = try DataDirectory().addAccount()
    var (daemon, port) = try data.start()
    let client = try connect(port)
    for index in 0..<200 { try client.send("DIARY NEW \"entry \(index)\" \"\(String(repeating: "x", count: 500))\"\n") }
    for _ in 0..<200 { _ = try client.readReply() }
    daemon.process.terminate()
    _ = try daemon.waitForExit()

    // Everything in the main file, so that cutting it loses real pages.
    try SQLiteDatabase(path: data.database).execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let handle = try #require(FileHandle(forUpdatingAtPath: data.database))
    let size = try handle.seekToEnd()
    try handle.truncate(atOffset: size / 2)
    try handle.close()
    (daemon, _) = (try DaemonProcess(["--port", "0", "--data", data.path]), 0)
    let truncated = try daemon.waitForExit()
    #expect(truncated == 65, "refused with its own exit code, not a signal")
    #expect(daemon.logShows("refusing to start"))
    #expect(daemon.logShows(data.database))

    try Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }).write(
      to: URL(fileURLWithPath: data.database))
    try? FileManager.default.removeItem(atPath: data.database + "-wal")
    daemon = try DaemonProcess(["--port", "0", "--data", data.path])
    #expect(try daemon.waitForExit() == 65)
    try waitUntil {
      daemon.log.contains("damaged or not a database") || daemon.log.contains("not a Stockroom database")
    }
    _ = port
  }

  @Test("a second server on the same data directory is refused while the first runs")
  func oneServerPerDirectory() throws {
    let data = try DataDirectory().addAccount()
    let (first, port) = try data.start()
    let second = try DaemonProcess(["--port", "0", "--data", data.path])
    #expect(try second.waitForExit() == 65)
    #expect(second.logShows("in use by another stockroomd"))
    #expect(try LineClient.greeted(port).request("PING").isOK, "the first one carries on")
    first.process.terminate()
    _ = try first.waitForExit()
    let (third, _) = try data.start()
    third.process.terminate()
  }

  @Test("a store whose stock does not add up is refused, naming the item")
  func equationChecked() throws {
    let data = try DataDirectory().addAccount()
    var (daemon, port) = try data.start()
    try connect(port).request("ORDER banana_juice")
    daemon.process.terminate()
    _ = try daemon.waitForExit()
    let database = try SQLiteDatabase(path: data.database)
    try database.execute("UPDATE stock SET current = current + 1 WHERE item = 'banana'")
    (daemon, port) = (try DaemonProcess(["--port", "0", "--data", data.path]), 0)
    #expect(try daemon.waitForExit() == 65)
    #expect(daemon.logShows("stock of banana does not balance"))
    _ = port
  }

  @Test("a database written by an earlier schema version (3: before accounts) opens and upgrades")
  func migration() throws {
    let data = try DataDirectory()
    // The rows below are version 3's (a diary without per-owner numbers); the upgrade runs every
    // migration after it, the commit log's (5) too.
    let earlier = 3
    do {
      let old = try SQLiteDatabase(path: data.database)
      try Schema.migrate(old, to: earlier)
      try old.execute(
        """
        INSERT INTO stock VALUES ('banana', 10, 5, 0, 2, 13);
        INSERT INTO ledger(item, change, cause, order_id, user, at) VALUES ('banana', 5, 'restock', NULL, 'old', 0);
        INSERT INTO ledger(item, change, cause, order_id, user, at) VALUES ('banana', -2, 'order', 1, 'old', 0);
        INSERT INTO orders VALUES (1, 'old', 0, 'banana_juice\u{1F}Banana Juice\u{1F}juice\u{1F}1\u{1F}\u{1F}', 'banana\u{1F}2');
        INSERT INTO diary VALUES (1, 'old', 'v1 entry', 'written before order keys', 0, 0);
        INSERT INTO diary VALUES (2, 'squatter', 'theirs', 'written before accounts', 0, 0);
        INSERT INTO diary VALUES (3, 'old', 'second', 'the second of old''s own', 0, 0);
        INSERT INTO meta VALUES ('next_order_id', 2), ('next_diary_id', 4), ('orders_made', 1);
        INSERT INTO order_keys VALUES ('old', 'old-k', 1, 'banana_juice\u{1F}1', 'banana\u{1F}13', \(Date().timeIntervalSince1970));
        """)
      #expect(old.userVersion == earlier)
    }
    // Data from before accounts stays with its owner's name; only an admin can make that name.
    try data.addAccount().addAccount("old", role: .staff)
    let engine = try EngineHarness(data: data)
    let client = try engine.client(as: "old", role: .staff)
    #expect(try client.request("STOCK banana").rows[0]["stock"] == "13")
    // Entries are numbered per owner, in the order they were written.
    #expect(try client.request("DIARY SHOW 1").rows[0]["title"] == "v1 entry")
    #expect(try client.request("DIARY SHOW 2").rows[0]["title"] == "second")
    #expect(try client.request("DIARY LIST").rows.map(\.id) == ["2", "1"])
    #expect(try client.request("DIARY NEW third body").statusFields["diary"] == "3")
    let squatter = try engine.client()
    let claim = try squatter.request("REGISTER squatter \(Quoting.quote(LineClient.password(for: "squatter")))")
    #expect(claim.errorCode == .denied, "a name holding data from before accounts is an admin's to give")
    #expect(try squatter.request("DIARY LIST").errorCode == .noAuth)
    // A key kept before the upgrade still answers its retry.
    let retried = try client.request("ORDER banana_juice key=old-k")
    #expect(retried.statusFields["order"] == "1", "\(retried.lines)")
    #expect(retried.rows.last?["stock"] == "13")
    #expect(try client.request("ORDER banana_juice key=after-upgrade").statusFields["order"] == "2")
    #expect(
      try engine.client(as: "new", role: .staff).request("ORDER banana_juice key=old-k").statusFields["order"] == "3")
    #expect(try client.request("STOCK kiwi").rows[0]["stock"] == "10", "items the old file lacked are added")
    #expect(try SQLiteDatabase(path: data.database).userVersion == Schema.currentVersion)
  }

  @Test(
    "a catalogue that changes between runs adds new items and never resets existing stock",
    arguments: StoreKind.allCases)
  func catalogueChanges(store: StoreKind) throws {
    let data = try DataDirectory(store: store).addAccount()
    do {
      #expect(try EngineHarness(data: data).client().request("ORDER kiwi_juice 2").isOK)
    }

    var json =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestServer.catalogPath)))
      as! [String: Any]
    var fruits = json["fruits"] as! [[String: Any]]
    fruits.append(["id": "lychee", "name": "Lychee", "aliases": ["리치"]])
    json["fruits"] = fruits
    let file = data.path + "/catalog-v2.json"
    try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: file))
    let client = try EngineHarness(data: data, initialStock: 99, catalogPath: file).client()
    #expect(try client.request("STOCK kiwi").rows[0]["stock"] == "4")
    #expect(try client.request("STOCK 리치").rows[0]["stock"] == "99")
  }

  @Test(
    "LIST orders pages through the whole history, past the newest 10,000 kept in memory", arguments: StoreKind.allCases)
  func orderHistory(store: StoreKind) throws {
    let data = try DataDirectory(store: store).addAccount()
    let engine = try EngineHarness(data: data, initialStock: 1_000_000)
    let client = try engine.client(as: "dana", role: .staff)
    let count = 10_005
    try client.send(String(repeating: "ORDER banana_juice\n", count: count))
    for _ in 0..<count { #expect(try client.readReply().isOK) }
    let newest = try client.request("LIST orders size=3")
    #expect(newest.rows.map(\.id) == ["10005", "10004", "10003"])
    #expect(newest.statusFields["total"] == String(count))
    let oldest = try client.request("LIST orders page=101 size=100")
    #expect(oldest.rows.map(\.id) == ["5", "4", "3", "2", "1"])
    #expect(oldest.rows.first?["items"] == "1 banana_juice")
    #expect(oldest.statusFields["pages"] == "101")
  }

  @Test("stockroomd backup writes a consistent copy while the server runs, and the copy starts")
  func backup() throws {
    let data = try DataDirectory().addAccount()
    let restore = try DataDirectory()
    do {
      // The engine in this process holds the shop open, as a running server would.
      let client = try EngineHarness(data: data).client(as: "carol", role: .staff)
      try client.request("ORDER pineapple_juice 3")
      try client.request("DIARY NEW backed \"up\"")
      let backup = try DaemonProcess(["backup", data.path, restore.database])
      #expect(try backup.waitForExit() == 0)
      let again = try DaemonProcess(["backup", data.path, restore.database])
      #expect(try again.waitForExit() != 0, "a backup never overwrites")
    }
    let check = try EngineHarness(data: restore).client(as: "carol", role: .staff)
    #expect(try check.request("STOCK pineapple").rows[0]["stock"] == "4")
    #expect(try check.request("DIARY LIST").rows.count == 1)
  }

  @Test("an order row damaged on disk answers INTERNAL naming it when read, is logged, and the shop serves on")
  func damagedOrderRow() throws {
    let data = try DataDirectory().addAccount()
    do {
      let engine = try EngineHarness(data: data)
      #expect(try engine.client(as: "dana", role: .staff).request("ORDER banana_juice 2").isOK)
    }
    // The engine's committer may still be folding its commit log into the tables when the harness
    // is dropped: the file is changed only once it has let go. VACUUM rewrites the file from its
    // live rows, so a stale copy of the order in a freed cell (the folded log record's) cannot be
    // the bytes flipped, and the order row is the one place its text is.
    data.waitUntilUnlocked()
    do {
      let file = try SQLiteDatabase(path: data.database)
      try file.execute("VACUUM")
      try file.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    var bytes = try Data(contentsOf: URL(fileURLWithPath: data.database))
    let found = try #require(bytes.range(of: Data("banana_juice\u{1F}".utf8)))
    #expect(bytes[found.upperBound...].range(of: Data("banana_juice\u{1F}".utf8)) == nil, "one copy of the order")
    bytes[found.lowerBound + 12] ^= 0x01
    try bytes.write(to: URL(fileURLWithPath: data.database))
    // Orders are read from the file when asked for, not at start-up.
    let log = try LogCapture()
    let engine = try EngineHarness(data: data, logger: log.logger)
    let client = try engine.client(as: "dana", role: .staff)
    let reply = try client.request("LIST orders")
    #expect(reply.errorCode == .internal)
    #expect(reply.message.contains("damaged row"), "\(reply.lines)")
    #expect(log.waitFor("ERROR the database has a damaged row"), "\(log.text)")
    #expect(try client.request("ORDER kiwi").isOK, "the shop serves on")
  }
}
