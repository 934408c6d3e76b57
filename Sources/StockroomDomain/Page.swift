/// One page of a list, with what a client needs to ask for the next.
public struct Page<Item> {
  public var items: [Item]
  public var paging: Paging
  public var total: Int

  public init(items: [Item], paging: Paging, total: Int) {
    self.items = items
    self.paging = paging
    self.total = total
  }

  public var pageCount: Int { max(1, (total + paging.size - 1) / paging.size) }
}

extension Page: Sendable where Item: Sendable {}
