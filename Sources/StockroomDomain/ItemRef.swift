/// What a name in a request turned out to mean.
///
/// The catalogue's cases are boxed: the name index holds one box an entry, and a word resolved
/// to one is a reference counted once, not an entry of up to ten fields copied out of the index
/// field by field and destroyed after (~390 instructions an ORDER). A product is named by id
/// alone, and stays unboxed so that resolving one allocates nothing.
public enum ItemRef: Sendable, Equatable {
  indirect case fruit(Fruit)
  indirect case juice(Juice)
  indirect case dish(Dish)
  indirect case section(Section)
  indirect case exhibit(Exhibit)
  case product(String)

  public var id: String {
    if case .product(let id) = self { return id }
    // Every case but `.product` names a catalogue entry.
    return catalogNames!.id
  }

  /// The catalogue's display name; nil for a product, whose name lives with the product.
  public var catalogName: String? { catalogNames?.name }

  /// The entry's id and name read case by case, not through an `any CatalogEntry`: an entry too
  /// large for an existential's inline buffer is boxed on the heap, for every request naming an
  /// item.
  private var catalogNames: (id: String, name: String)? {
    switch self {
    case .fruit(let fruit): (fruit.id, fruit.name)
    case .juice(let juice): (juice.id, juice.name)
    case .dish(let dish): (dish.id, dish.name)
    case .section(let section): (section.id, section.name)
    case .exhibit(let exhibit): (exhibit.id, exhibit.name)
    case .product: nil
    }
  }

  public var kind: ItemKind {
    switch self {
    case .fruit: .fruit
    case .juice: .juice
    case .dish: .dish
    case .section: .section
    case .exhibit: .exhibit
    case .product: .product
    }
  }
}
