import StockroomText

/// Resolving the words requests name things by, and the "did you mean" for those that name nothing.
extension ShopState {
  /// What `word` names, first match wins: an id or alias of anything in the catalogue, a product
  /// id, a catalogue display name, then a product name. A name that several items share names
  /// none of them: NOTFOUND lists their ids.
  public func resolve(_ word: String) throws(ShopError) -> ItemRef {
    let key = ItemNames.key(word)
    if let ref = nameIndex.catalogItem(key: key) { return ref }
    let isProductID = ItemNames.isProductID(key)
    if isProductID, products[key] != nil { return .product(key) }
    // A deleted product's id does not fall through to another product that took it as a name.
    if !isProductID, let refs = nameIndex.catalogItems(named: key) {
      if refs.count == 1 { return refs[0] }
      throw Self.ambiguous(word, refs.map(\.id))
    }
    if !isProductID, let ids = nameIndex.products(named: key) {
      if ids.count == 1 { return .product(ids[0]) }
      throw Self.ambiguous(word, ids.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 })
    }
    var message = "no item named \(Echo.quoted(word))"
    if let guess = suggestion(for: word) { message += NameSuggestion.didYouMean(guess) }
    throw ShopError(.notFound, message)
  }

  /// How many of the newest products' names a suggestion considers. Product names are up to 100
  /// characters and there may be 10,000 products: comparing a mistyped word with every one would
  /// let one request cost ~10^8 steps of edit distance.
  static let suggestedProductNames = 256

  /// The closest id, alias, display name or (recent) product name to `word`, for "did you mean".
  public func suggestion(for word: String) -> String? {
    var candidates = nameIndex.catalogCandidates + productIDs
    if word.utf8.count <= 256 {
      for id in productIDs.suffix(Self.suggestedProductNames) {
        if let name = products[id]?.name { candidates.append(name) }
      }
    }
    return NameSuggestion.closest(to: word, among: candidates)
  }

  /// Names shared by several items; at most a few ids are listed, in id order for products.
  static func ambiguous(_ word: String, _ ids: [String]) -> ShopError {
    let shown = 5
    var list = ids.prefix(shown).joined(separator: ", ")
    if ids.count > shown { list += " and \(ids.count - shown) more" }
    return ShopError(.notFound, "\(Echo.quoted(word)) is the name of \(ids.count) items: \(list); name one by its id")
  }

  /// The display name of a stocked or catalogue item: the catalogue's `name`, or the product's.
  public func displayName(of id: String) -> String {
    if let product = products[id] { return product.name }
    return nameIndex.catalogName(of: id) ?? id
  }

  /// Like `resolve`, but only for things that can be ordered or restocked.
  public func resolveStocked(_ word: String, allowJuice: Bool) throws(ShopError) -> ItemRef {
    let ref = try resolve(word)
    switch ref {
    case .fruit, .dish, .product: return ref
    case .juice where allowJuice: return ref
    case .juice:
      throw ShopError(.invalid, "\(Echo.quoted(word)) is a juice, made from fruit; restock its fruit instead")
    case .section: throw ShopError(.invalid, "\(Echo.quoted(word)) is a section of the dish shop; name a dish in it")
    case .exhibit: throw ShopError(.invalid, "\(Echo.quoted(word)) is an exhibit; it is for looking at")
    }
  }
}
