import Foundation
import StockroomDomain

/// Finds and loads the catalogue: a file named on the command line, or the one shipped with
/// the server as a package resource.
///
/// `Bundle.module` would trap when the resource folder is neither beside the binary nor in the
/// build folder it came from (a copied `stockroomd`), so the shipped file is looked up here and a
/// missing one is reported as an error that says where it looked.
public enum CatalogSource {
  static let resourceFolder = "Stockroom_StockroomStorage.resources"
  static let fileName = "catalog.json"

  public struct LoadError: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// Places the shipped catalogue may be, most specific first.
  public static func shippedCandidates() -> [String] {
    var candidates: [String] = []
    if let override = ProcessInfo.processInfo.environment["STOCKROOM_CATALOG"], !override.isEmpty {
      candidates.append(override)
    }
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments.first ?? ""
    let folder = (executable as NSString).deletingLastPathComponent
    candidates.append("\(folder)/\(resourceFolder)/\(fileName)")
    candidates.append("\(folder)/../share/stockroom/\(fileName)")
    // Running from a checkout: the source file itself.
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Resources/\(fileName)").path
    candidates.append(source)
    return candidates
  }

  public static func load(path: String?, initialStock: Int?) throws(LoadError) -> Catalog {
    try loadWithText(path: path, initialStock: initialStock).catalog
  }

  /// The catalogue and the JSON it came from, which a durable store keeps beside the shop.
  public static func loadWithText(
    path: String?, initialStock: Int?
  ) throws(LoadError) -> (catalog: Catalog, text: String) {
    let file: String
    if let path {
      file = path
    } else {
      let candidates = shippedCandidates()
      guard let found = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
        throw LoadError(
          description: "cannot find the shipped catalogue; looked in: \(candidates.joined(separator: ", ")). "
            + "Pass --catalog FILE or set STOCKROOM_CATALOG.")
      }
      file = found
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
      throw LoadError(description: "catalogue \(file): cannot read it: \(error.localizedDescription)")
    }
    do {
      let catalog = try Catalog.decode(from: data)
      return (initialStock.map(catalog.withInitialStock) ?? catalog, String(decoding: data, as: UTF8.self))
    } catch {
      throw LoadError(description: "catalogue \(file): \(error)")
    }
  }
}
