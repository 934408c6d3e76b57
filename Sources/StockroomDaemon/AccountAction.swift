import StockroomText

/// What a `stockroomd user` command does to the accounts.
public enum AccountAction: Sendable, Equatable {
  /// `user add NAME [--role ROLE]`: a new account, its password asked for twice.
  case add(name: String, role: Role)
  /// `user del NAME`.
  case delete(name: String)
  /// `user list`: name, role and creation time of each account; never a hash.
  case list
  /// `user passwd NAME`: a new password for an existing account, asked for twice.
  case passwd(name: String)
}
