import StockroomDomain

extension Mutation {
  /// Whether it makes, removes or changes an account, which can change who a connection's
  /// next request runs as and with which role.
  package var changesAccounts: Bool {
    switch self {
    case .createAccount, .deleteAccount, .setRole, .setPassword: true
    case .restock, .order, .createProduct, .editProduct, .deleteProduct, .createDiary, .editDiary, .deleteDiary:
      false
    }
  }
}
