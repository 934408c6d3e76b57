/// What kind of thing an item reference names, without the thing itself.
public enum ItemKind: String, Sendable, Hashable, CaseIterable {
  case fruit, juice, dish, section, exhibit, product
}
