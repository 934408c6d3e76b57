/// Who may use a command once accounts exist. Recorded now so the table is ready for them;
/// today every connection may use every command.
public enum Role: String, Sendable, CaseIterable, Comparable {
  /// Anyone, signed in or not.
  case guest
  /// A named user: diary, selling products.
  case user
  /// Shop staff: restocking and stocktakes.
  case staff

  public static func < (lhs: Role, rhs: Role) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
