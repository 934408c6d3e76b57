import Foundation

/// A placed order: what was asked for, what stock it took, and what it cost.
public struct Order: Sendable, Hashable {
  public var id: Int
  public var user: String
  public var placed: Date
  public var lines: [OrderLine]
  /// Stocked items taken, in the order first needed, with how many.
  public var taken: [ItemCount]

  public init(id: Int, user: String, placed: Date, lines: [OrderLine], taken: [ItemCount]) {
    self.id = id
    self.user = user
    self.placed = placed
    self.lines = lines
    self.taken = taken
  }

  /// The total per currency, in the order currencies first appear.
  public var totals: [Money] {
    var totals: [Money] = []
    for line in lines {
      guard let subtotal = line.subtotal else { continue }
      if let index = totals.firstIndex(where: { $0.currency == subtotal.currency }) {
        totals[index].minorUnits += subtotal.minorUnits
      } else {
        totals.append(subtotal)
      }
    }
    return totals
  }
}
