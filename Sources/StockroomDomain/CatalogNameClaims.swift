import Foundation
import StockroomText

/// The ids, names' keys and aliases a catalogue has used so far, each with where: no two things
/// in one catalogue may answer to the same word.
struct CatalogNameClaims {
  private var seen: [String: String] = [:]

  mutating func claim(_ name: String, at path: String, isID: Bool) throws(CatalogError) {
    if isID {
      guard ItemNames.isValidID(name) else {
        throw CatalogError(
          path,
          "'\(name)' is not a valid id: lowercase ASCII letters, digits and _, starting with a letter, at most 64")
      }
    } else {
      guard ItemNames.isValidAlias(name) else {
        throw CatalogError(
          path,
          "\(Echo.quoted(name)) is not a valid alias: 1 to 64 characters and at most 256 bytes, no spaces, quotes,"
            + " = or commas, nothing invisible, not a number")
      }
    }
    guard !ItemNames.isProductID(name) else {
      throw CatalogError(path, "'\(name)' looks like a product id (p1, p2, ...), which the market hands out")
    }
    let key = ItemNames.key(name)
    if let other = seen[key] { throw CatalogError(path, "'\(name)' is already used at \(other)") }
    seen[key] = path
  }
  mutating func claimAll(_ id: String, _ name: String, _ aliases: [String], at path: String) throws(CatalogError) {
    try claim(id, at: "\(path).id", isID: true)
    guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw CatalogError("\(path).name", "is empty") }
    guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      throw CatalogError("\(path).name", "contains a control character")
    }
    for (index, alias) in aliases.enumerated() { try claim(alias, at: "\(path).aliases[\(index)]", isID: false) }
  }
}
