/// Who may use a command. Each role may do everything the roles before it may.
public enum Role: String, Sendable, CaseIterable, Comparable, Codable {
  /// Not logged in: browse, watch and buy as a walk-in customer does.
  case guest
  /// A logged-in account: the diary, selling products, one's own orders and keyed orders.
  case customer
  /// Shop staff: restocking, stocktakes and every user's orders.
  case staff
  /// Manages accounts and may delist any product.
  case admin

  public static func < (lhs: Role, rhs: Role) -> Bool {
    lhs.rank < rhs.rank
  }

  private var rank: Int {
    switch self {
    case .guest: 0
    case .customer: 1
    case .staff: 2
    case .admin: 3
    }
  }

  /// The roles an account can hold (guest is the absence of one).
  public static let accountRoles: [Role] = [.customer, .staff, .admin]
}
