import Foundation
import StockroomDomain

/// The catalogue the server ships, read from the source tree.
enum ShippedCatalog {
  static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/StockroomStorage/Resources/catalog.json")

  static func load() throws -> Catalog {
    try Catalog.decode(from: Data(contentsOf: url))
  }

  static func json() throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
  }

  /// The shipped JSON with one change made by `edit`, for testing refusals.
  static func edited(_ edit: (inout [String: Any]) -> Void) throws -> Data {
    var object = try json()
    edit(&object)
    return try JSONSerialization.data(withJSONObject: object)
  }
}
