extension ReplyEncoder {
  /// The row's `kind=` field, first after its id by convention.
  public mutating func kind(_ kind: RowKind) {
    // Every kind is a bare lower-case word: the whole field is copied in one piece, without the
    // check for quoting (an ORDER's reply has a kind on each of its rows). Two strings appended,
    // " kind=" and the raw value, cost ~290 instructions; one static text ~100.
    appendStatic(Self.kindField(kind))
  }

  /// ` kind=` and the kind's raw value (RowKindTests checks every case against `rawValue`).
  private static func kindField(_ kind: RowKind) -> StaticString {
    switch kind {
    case .category: " kind=category"
    case .fruit: " kind=fruit"
    case .juice: " kind=juice"
    case .ingredient: " kind=ingredient"
    case .section: " kind=section"
    case .dish: " kind=dish"
    case .product: " kind=product"
    case .exhibit: " kind=exhibit"
    case .expo: " kind=expo"
    case .diary: " kind=diary"
    case .order: " kind=order"
    case .taken: " kind=taken"
    case .shortage: " kind=shortage"
    case .ledger: " kind=ledger"
    case .user: " kind=user"
    case .group: " kind=group"
    }
  }
}
