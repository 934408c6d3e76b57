/// What a name in a request turned out to mean.
public enum ItemRef: Sendable, Equatable {
  case fruit(Fruit)
  case juice(Juice)
  case dish(Dish)
  case section(Section)
  case exhibit(Exhibit)
  case product(String)

  public var id: String {
    switch self {
    case .fruit(let fruit): fruit.id
    case .juice(let juice): juice.id
    case .dish(let dish): dish.id
    case .section(let section): section.id
    case .exhibit(let exhibit): exhibit.id
    case .product(let id): id
    }
  }

  /// The catalogue's display name; nil for a product, whose name lives with the product.
  public var catalogName: String? {
    switch self {
    case .fruit(let fruit): fruit.name
    case .juice(let juice): juice.name
    case .dish(let dish): dish.name
    case .section(let section): section.name
    case .exhibit(let exhibit): exhibit.name
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
