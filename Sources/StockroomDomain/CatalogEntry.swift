/// What every kind of catalogue item has, whatever else it carries: the id requests name it by
/// and the name people see.
public protocol CatalogEntry: Sendable {
  var id: String { get }
  var name: String { get }
}

extension Fruit: CatalogEntry {}
extension Juice: CatalogEntry {}
extension Dish: CatalogEntry {}
extension Section: CatalogEntry {}
extension Exhibit: CatalogEntry {}
