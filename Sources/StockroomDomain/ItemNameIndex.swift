/// Every name the shop answers to, by `ItemNames.key`: the catalogue's ids, aliases and display
/// names, fixed at start, and the market's product names, kept with the products. `ShopState`
/// resolves words with it; the order in which the kinds of name win is `ShopState.resolve`'s.
struct ItemNameIndex: Sendable {
  /// Catalogue ids and aliases.
  private let names: [String: ItemRef]
  /// Catalogue display names, each with every item of that name; a name that is also an id or
  /// alias is left out, since the id or alias answers for it.
  private let displayNames: [String: [ItemRef]]
  /// Product names, each with the ids of the products of that name; kept with the products, so
  /// it holds no more than they do.
  private var productNames: [String: [String]] = [:]
  /// Catalogue display names by id: an order names the fruit it takes by id, and reading the
  /// name here copies a string, not the whole entry `names` holds (~450 instructions an item).
  private let displayNamesByID: [String: String]

  init(catalog: Catalog) {
    var names: [String: ItemRef] = [:]
    var displayNames: [String: [ItemRef]] = [:]
    var displayNamesByID: [String: String] = [:]
    func index(_ ref: ItemRef, _ id: String, _ aliases: [String]) {
      names[ItemNames.key(id)] = ref
      displayNamesByID[id] = ref.catalogName
      for alias in aliases { names[ItemNames.key(alias)] = ref }
      if let name = ref.catalogName { displayNames[ItemNames.key(name), default: []].append(ref) }
    }
    for fruit in catalog.fruits { index(.fruit(fruit), fruit.id, fruit.aliases) }
    for juice in catalog.juices { index(.juice(juice), juice.id, juice.aliases) }
    for section in catalog.sections { index(.section(section), section.id, section.aliases) }
    for dish in catalog.dishes { index(.dish(dish), dish.id, dish.aliases) }
    for exhibit in catalog.exhibits { index(.exhibit(exhibit), exhibit.id, exhibit.aliases) }
    self.names = names
    self.displayNamesByID = displayNamesByID
    // Ids and aliases are unique across the catalogue (Catalog.validate); a display name never
    // shadows one, and a name two items share is kept, to say which ids it could mean.
    self.displayNames = displayNames.filter { names[$0.key] == nil }
  }

  /// The catalogue item with this id or alias.
  func catalogItem(key: String) -> ItemRef? { names[key] }

  /// The display name of the catalogue item with this id, alias or key of either.
  func catalogName(of id: String) -> String? {
    if let name = displayNamesByID[id] { return name }
    return names[ItemNames.key(id)]?.catalogName
  }

  /// The catalogue items with this display name.
  func catalogItems(named key: String) -> [ItemRef]? { displayNames[key] }

  /// The ids of the products with this name.
  func products(named key: String) -> [String]? { productNames[key] }

  /// Every catalogue id, alias and display name, for a suggestion to choose from.
  var catalogCandidates: [String] {
    var candidates = Array(names.keys)
    for refs in displayNames.values { candidates += refs.compactMap(\.catalogName) }
    return candidates
  }

  mutating func add(_ product: Product) {
    productNames[ItemNames.key(product.name), default: []].append(product.id)
  }

  mutating func remove(_ product: Product) {
    let key = ItemNames.key(product.name)
    productNames[key]?.removeAll { $0 == product.id }
    if productNames[key]?.isEmpty == true { productNames[key] = nil }
  }
}
