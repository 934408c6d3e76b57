import StockroomDomain
import StockroomProtocol

extension RowKind {
  /// The row kind an item of the shop is written as.
  package init(_ kind: ItemKind) {
    switch kind {
    case .fruit: self = .fruit
    case .juice: self = .juice
    case .dish: self = .dish
    case .section: self = .section
    case .exhibit: self = .exhibit
    case .product: self = .product
    }
  }

  /// The row kind an order line is written as.
  package init(_ kind: OrderLine.Kind) {
    switch kind {
    case .fruit: self = .fruit
    case .juice: self = .juice
    case .dish: self = .dish
    case .product: self = .product
    }
  }
}
