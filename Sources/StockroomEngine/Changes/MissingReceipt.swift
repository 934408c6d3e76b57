/// A keyed order on disk whose receipt is not: the store lost what a retry of it is answered.
package struct MissingReceipt: Error, Sendable, CustomStringConvertible {
  package let orderID: Int

  package init(orderID: Int) {
    self.orderID = orderID
  }

  package var description: String { "the receipt of order \(orderID) is missing from the database" }
}
