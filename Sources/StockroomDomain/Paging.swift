/// Which slice of a newest-first list a request wants.
public struct Paging: Sendable, Equatable {
  public static let maximumSize = 100
  public var page: Int
  public var size: Int

  public init(page: Int = 1, size: Int = 20) {
    self.page = page
    self.size = size
  }

  /// Reads `page=` and `size=` option values; both optional.
  public init(page: String?, size: String?, defaultSize: Int = 20) throws(ShopError) {
    self.page = 1
    self.size = defaultSize
    if let page {
      guard let value = Int(page), (1...1_000_000_000).contains(value) else {
        throw ShopError(.invalid, "page must be a whole number from 1")
      }
      self.page = value
    }
    if let size {
      guard let value = Int(size), (1...Paging.maximumSize).contains(value) else {
        throw ShopError(.invalid, "size must be a whole number from 1 to \(Paging.maximumSize)")
      }
      self.size = value
    }
  }

  /// The page of `items`, which must already be in display order.
  public func slice<T>(_ items: [T]) -> Page<T> {
    let start = min(items.count, (page - 1) * size)
    let end = min(items.count, start + size)
    return Page(items: Array(items[start..<end]), paging: self, total: items.count)
  }
}
