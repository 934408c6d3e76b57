import StockroomProtocol

/// Which table a row belongs in: rows of one kind share one, and STOCK's levels share one
/// whatever they are levels of.
struct TableGroup: Equatable {
  var kind: RowKind?
  var levelOnly: Bool

  init(_ row: Row) {
    levelOnly = TableView.isLevelOnly(row)
    kind = levelOnly ? nil : RowKind(row).flatMap { $0.joinsKindlessTable ? nil : $0 }
  }
}
