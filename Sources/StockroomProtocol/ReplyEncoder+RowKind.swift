extension ReplyEncoder {
  /// The row's `kind=` field, first after its id by convention.
  public mutating func kind(_ kind: RowKind) {
    field("kind", kind.rawValue)
  }
}
