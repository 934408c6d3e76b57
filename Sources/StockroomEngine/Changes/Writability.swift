import StockroomDomain

/// Whether the shop takes changes and, when it does not, why and what brings them back: one
/// value, so a change is refused in one place with one wording.
package enum Writability: Sendable, Equatable {
  case writable
  /// The disk refused a commit (full, an I/O error); writes come back when a commit works.
  case diskFailing(String)
  /// The database cannot be reached; writes come back when it answers.
  case unreachable(String)
  /// After a failed commit the shop could not be read back, so memory may be ahead of the disk:
  /// writes wait for a read-back that works.
  case unreadable(String, unreachable: Bool)
  /// The database failed its whole-file check: writes wait for a person (repair, restart).
  case damaged(String)

  /// Why changes are refused; nil while they are taken.
  package var reason: String? {
    switch self {
    case .writable: nil
    case .diskFailing(let reason), .unreachable(let reason), .unreadable(let reason, _), .damaged(let reason): reason
    }
  }

  /// Whether the refusal is the database's absence rather than its refusal.
  package var isUnreachable: Bool {
    switch self {
    case .unreachable, .unreadable(_, unreachable: true): true
    default: false
    }
  }

  /// Whether the shop must be read back from the disk before writes are taken again.
  package var needsReadBack: Bool {
    if case .unreadable = self { return true }
    return false
  }

  /// What this becomes when the shop cannot be read back after a failed commit.
  package func unreadable(after error: any Error) -> Writability {
    .unreadable(
      "the shop could not be read back from the disk after a failed commit: \(error)", unreachable: isUnreachable)
  }

  /// What a change is answered while this holds.
  package var refusal: ShopError? {
    guard let reason else { return nil }
    if isUnreachable {
      return ShopError(.unreachable, "changes are refused until the database answers again: \(reason)")
    }
    return ShopError(.unavailable, "writes are refused until the disk accepts them again: \(reason)")
  }
}
