/// What a phone asks for with one tap: one line of an `ORDER`, as a guest.
package struct PhoneOrder: Sendable, Equatable {
  /// An item's id, as the menu gave it (`ORDER` takes names too, but the page sends ids).
  package var item: String
  /// 1 to `PhoneOrder.maximumQuantity`.
  package var quantity: Int

  /// A tap orders one; the page never sends more than this.
  package static let maximumQuantity = 20

  package init(item: String, quantity: Int) {
    self.item = item
    self.quantity = quantity
  }
}
