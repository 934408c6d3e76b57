/// What a positional argument or option value holds; clients complete and hint from it.
public enum ArgumentKind: String, Sendable, Hashable {
  /// A fruit, juice, dish or product id, or an alias.
  case item
  /// Anything SHOW takes: an item, a section or an exhibit.
  case anything
  case category
  case section
  case quantity
  /// A signed stock change for ADD.
  case delta
  case command
  case subcommand
  case name
  case text
  case diaryID
  case productID
  case number
  case money
  case currency
  case discount
  /// A password: never echoed, completed or kept in history.
  case password
  /// An account role: customer, staff or admin.
  case role
  /// An account's name.
  case account
  /// A part of INFO: server, clients, store or stats.
  case infoSection
}
