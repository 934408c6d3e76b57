/// Whether people may make their own accounts with REGISTER (`--registration`).
public enum Registration: String, Sendable, Equatable, CaseIterable {
  /// The open market lets anyone sign up as a customer.
  case open
  /// Only an admin makes accounts (USER ADD, or `stockroomd user add`).
  case closed
}
