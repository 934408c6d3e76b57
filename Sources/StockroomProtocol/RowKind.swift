/// What a data line describes, as its `kind=` field says: the server writes it, clients render
/// by it. Protocol.md lists each with the commands that answer it.
public enum RowKind: String, Sendable, CaseIterable {
  case category, fruit, juice, ingredient, section, dish, product, exhibit, expo, diary, order, taken, shortage, ledger
  case user, group
}
