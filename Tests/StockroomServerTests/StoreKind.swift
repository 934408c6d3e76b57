import Testing

/// Which store a durable test runs against: the same test, once per store.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite
  case postgresql

  var testDescription: String { rawValue }
}
