import Foundation
import StockroomDomain
import StockroomProtocol
import StockroomStorage
import Testing

@testable import StockroomServer

@Suite("Shutdown")
struct ShutdownTests {
  @Test("stop answers every order it took, after its commit, before closing; an order never answered was never taken")
  func ordersTakenDuringShutdownAreAnswered() throws {
    let data = try DataDirectory()
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.logging = false
    configuration.dataDirectory = data.path
    configuration.fsync = .always
    let catalog = try CatalogSource.load(path: TestServer.catalogPath, initialStock: 100_000)
    let server = try Server.open(
      configuration: configuration, catalog: catalog, catalogText: "{}", logger: Logger(isEnabled: false))
    let port = try server.start()
    // Eight scripts each pipeline 1,000 orders; the server stops while they are arriving.
    let clients = try (0..<8).map { _ in try LineClient.greeted(port) }
    for client in clients { try client.send(String(repeating: "ORDER banana_juice\n", count: 1000)) }
    try waitUntil { server.store.read { $0.ordersMade } >= 100 }
    server.stop()
    var answered = 0
    for client in clients {
      let lines = try client.readsToEnd()
      answered += lines.count { $0.hasPrefix("OK order=") }
      #expect(!lines.contains { $0.hasPrefix("ERR") }, "\(lines.filter { $0.hasPrefix("ERR") })")
    }
    let database = try SQLiteDatabase(path: data.database, readOnly: true)
    let recorded = try database.prepare("SELECT count(*) FROM orders").rows { $0.int(0) }.first ?? -1
    #expect(answered >= 100)
    #expect(answered < 8 * 1000, "the stop came too late to show anything")
    #expect(recorded == answered, "\(recorded) orders on disk, \(answered) answered")
  }
}
