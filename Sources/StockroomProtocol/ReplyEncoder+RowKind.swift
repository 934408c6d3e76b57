extension ReplyEncoder {
  /// The row's `kind=` field, first after its id by convention.
  public mutating func kind(_ kind: RowKind) {
    // Every kind is a bare lower-case word: copied without the check for quoting (an ORDER's
    // reply has a kind on each of its rows).
    appendUTF8(" kind=")
    appendUTF8(kind.rawValue)
  }
}
