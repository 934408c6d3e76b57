/// How an item is named to a person: the shop's display name from NAMES, and its id beside it
/// where the id says something the name does not.
enum ItemLabel {
  /// `Kiwi` for kiwi and `Banana Juice` for banana_juice (the id is the name, spelled for a
  /// program), `김치찌개 (kimchi_jjigae)`, `Teapot (p3)` (the id is what PRODUCT EDIT and a
  /// script take); the id alone when NAMES did not name it.
  static func of(_ id: String, names: CatalogNames) -> String {
    guard let name = names.displayName(of: id), !name.isEmpty else { return id }
    let spelled = name.lowercased().replacingOccurrences(of: " ", with: "_")
    return spelled == id.lowercased() ? name : "\(name) (\(id))"
  }
}
