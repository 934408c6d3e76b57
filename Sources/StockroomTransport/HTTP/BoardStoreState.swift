/// What the board says of the store: whether the levels it shows are the store's and whether
/// the shop takes changes. `down` is a node's lost link to its shared store (its levels may be
/// stale); `readOnly` is a store that refuses writes (a full disk, a failed check), whose levels
/// are right but will not move until it takes writes again.
package enum BoardStoreState: Equatable, Sendable {
  case up
  case down(reason: String)
  case readOnly(reason: String)

  /// The word the board's JSON carries.
  var word: String {
    switch self {
    case .up: "up"
    case .down: "down"
    case .readOnly: "read-only"
    }
  }

  var reason: String? {
    switch self {
    case .up: nil
    case .down(let reason), .readOnly(let reason): reason
    }
  }
}
