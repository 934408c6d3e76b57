/// What a mutation did, for the reply.
public enum Outcome: Sendable, Equatable {
  case restocked([StockChange])
  /// `repeated` when a keyed order had already been placed and nothing new was taken.
  case ordered(OrderReceipt, repeated: Bool)
  case productSaved(Product, stock: Int)
  case productDeleted(String)
  case diarySaved(DiaryEntry)
  case diaryDeleted(Int)
}
