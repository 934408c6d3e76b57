import Foundation
import StockroomDomain
import Testing

@testable import StockroomStorage

/// A shop's database closes when the last reference to it goes: its file locks are held by its
/// connections, so a connection kept alive by a statement it caches itself would hold the shop
/// for the rest of the process, and the same process could never open it again.
@Suite("A closed shop database lets its file go", .timeLimit(.minutes(30)))
struct ShopDatabaseReleaseTests {
  /// The shipped catalogue, which `CommitLogTests` loads too.
  static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/StockroomStorage/Resources/catalog.json").path

  @Test("after a load that writes (a transaction), the directory opens again in the same process")
  func reopensAfterTransaction() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-release-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let catalog = try CatalogSource.load(path: Self.catalogPath, initialStock: nil)
    weak var closed: ShopDatabase?
    do {
      let database = try ShopDatabase(directory: directory, fsync: .always)
      closed = database
      _ = try database.load(catalog: catalog, catalogJSON: "{}", limits: ShopLimits(), persist: true)
    }
    #expect(closed == nil)
    let again = try ShopDatabase(directory: directory, fsync: .always)
    let state = try again.load(catalog: catalog, catalogJSON: "{}", limits: ShopLimits(), persist: true)
    #expect(state.level(of: "banana") != nil)
  }
}
